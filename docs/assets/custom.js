// TypeDoc includes this file on every page of the site (option customJs). It starts
// the signing playground on the page that holds it; the playground modules and the
// golden vectors are copied next to it (assets/playground/) by docs/build.mjs.
const playground = document.getElementById('sc-playground');
if (playground !== null) {
  Promise.all([import('./playground/docs/playground/page.js'), import('./playground/golden-vectors.js')])
    .then(([page, golden]) => page.start(playground, golden.default))
    .catch((err) => {
      const out = document.getElementById('sc-error');
      if (out !== null) out.textContent = `The playground could not start: ${err instanceof Error ? err.message : String(err)}`;
      throw err;
    });
}

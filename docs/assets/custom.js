// TypeDoc includes this file on every page of the site (option customJs). It starts
// the signing playground on the page that holds it; the playground modules and the
// golden vectors are copied next to it (assets/playground/) by docs/build.mjs.
const playground = document.getElementById('sc-playground');
if (playground !== null && location.protocol === 'file:') {
  // Browsers refuse ES modules from file:// pages; say how to open the site instead of failing,
  // at the top too, where the page otherwise still says it needs JavaScript (it is on).
  const text =
    "This page was opened from a file, and browsers do not load the playground's modules from files. " +
    'Run `npm run docs:serve` in the kit and open the address it prints (http://127.0.0.1:8090/ by default).';
  for (const id of ['sc-golden-result', 'sc-error']) {
    const out = document.getElementById(id);
    if (out !== null) out.textContent = text;
  }
} else if (playground !== null) {
  Promise.all([import('./playground/docs/playground/page.js'), import('./playground/golden-vectors.js')])
    .then(([page, golden]) => page.start(playground, golden.default))
    .catch((err) => {
      const out = document.getElementById('sc-error');
      if (out !== null)
        out.textContent = `The playground could not start: ${err instanceof Error ? err.message : String(err)}`;
      throw err;
    });
}

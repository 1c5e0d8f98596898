// `npm run docs:serve`: serve the built docs site (site/) on http://127.0.0.1:PORT/ so
// the playground's ES modules load (a page opened from file:// may not load modules).
// Builds the site first when site/ is missing (`npm run docs`). Usage:
//   npm run docs:serve [-- --port 8090]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
let port;
try {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8090' } } });
  port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number, got '${values.port}'`);
} catch (err) {
  process.stderr.write(`docs:serve: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
const server = join(root, 'dist', 'docs-build', 'docs', 'lib', 'static-server.js');
if (!existsSync(join(root, 'site', 'index.html')) || !existsSync(server)) {
  process.stderr.write('docs:serve: site/ is not built yet: running npm run docs\n');
  const built = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'docs'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const { serveStatic } = await import(pathToFileURL(server).href);
try {
  const s = await serveStatic(join(root, 'site'), port);
  process.stdout.write(`docs: serving site/ at ${s.url} (Ctrl-C to stop)\n`);
  process.on('SIGINT', () => void s.close().then(() => process.exit(0)));
} catch (err) {
  process.stderr.write(
    `docs:serve: cannot listen on 127.0.0.1:${port}: ${err?.code ?? String(err)} (try -- --port 0)\n`,
  );
  process.exit(2);
}

/**
 * The package's bins, executable: every build step that writes one calls this last.
 */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** chmod a+x (0o755 at least) each `bin` of root's package.json. */
export function markBinExecutable(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {});
  for (const rel of bins) {
    const file = join(root, rel);
    chmodSync(file, statSync(file).mode | 0o755);
  }
}

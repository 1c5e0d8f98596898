/**
 * Locating the kit's data files (spec/, vectors/) whether running from `src/` or
 * from the built `dist/`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | undefined;

/** The folder holding the kit's package.json. */
export function packageRoot(): string {
  if (cachedRoot !== undefined) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'spotcheck') {
          cachedRoot = dir;
          return dir;
        }
      } catch {
        // not ours; keep walking up
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('spotcheck: package root not found');
    dir = up;
  }
}

/** Absolute path of a file inside the kit, e.g. `kitPath('spec', 'rules.json')`. */
export function kitPath(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

/** Read and parse a JSON file inside the kit. */
export function readKitJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(kitPath(...parts), 'utf8')) as T;
}

/** The kit's version (its package.json), or undefined when that cannot be read. */
export function kitVersion(): string | undefined {
  try {
    return readKitJson<{ version: string }>('package.json').version;
  } catch {
    return undefined;
  }
}

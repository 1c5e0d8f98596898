/**
 * Entry of `npm run vectors` (compiled by vectors/tsconfig.generate.json): the
 * generator over the real files of vectors/.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { kitPath } from '../../src/paths.js';
import { isVectorFileName } from './check.js';
import { runVectors } from './run.js';

const dir = (file: string): string => kitPath('vectors', file);
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

process.exitCode = runVectors(process.argv.slice(2), {
  read: (file) => {
    try {
      return decoder.decode(readFileSync(dir(file)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  },
  write: (file, text) => writeFileSync(dir(file), text),
  list: () => readdirSync(kitPath('vectors')).filter(isVectorFileName),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});

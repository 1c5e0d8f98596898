/**
 * Every generated vector file: a new kind is one module exporting a pure `build()` and
 * one line here. `npm run vectors` writes them; `npm run vectors -- --check` compares.
 */
import type { VectorFileOf, VectorKind } from '../load.js';
import { build as doctor } from './doctor.js';
import { build as orders } from './orders.js';
import { build as signing } from './signing.js';
import { build as timeWindow } from './time-window.js';

/** One vector kind: its file name under vectors/ and the pure builder of its content. */
export interface GeneratorKind<K extends VectorKind = VectorKind> {
  kind: K;
  file: string;
  build: () => VectorFileOf[K];
}

const kind = <K extends VectorKind>(k: K, build: () => VectorFileOf[K]): GeneratorKind => ({
  kind: k,
  file: `${k}.json`,
  build,
});

/** The kinds, in the loader's order. */
export const KINDS: ReadonlyArray<GeneratorKind> = [
  kind('signing', signing),
  kind('time-window', timeWindow),
  kind('orders', orders),
  kind('doctor', doctor),
];

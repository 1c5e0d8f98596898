/** Types of harness/tools/graph.mjs, for the test that imports it. */

/** The repository root. */
export declare const ROOT: string;
/** Source files (no .d.ts) under each folder, root-relative with `/`. */
export declare function sourceFiles(dirs: string[], root?: string): string[];
/** The relative import specifiers of a source text. */
export declare function importSpecifiers(text: string): string[];
/** Import graph of the files: file -> the files it imports (within the set). */
export declare function importGraph(files: string[], read?: (file: string) => string): Map<string, Set<string>>;
/** The cycles of a graph (strongly connected components of more than one file, or a self-import). */
export declare function cycles(graph: Map<string, Set<string>>): string[][];
/** Counts of one set of files. */
export declare function counts(
  files: string[],
  graph: Map<string, Set<string>>,
  read?: (file: string) => string,
): { files: number; testFiles: number; lines: number; testLines: number; edges: number };

#!/usr/bin/env node
/**
 * The two typecheck passes of `npm test` in one process, as `tsc --noEmit -p tsconfig.json`
 * and `tsc -p src/core/tsconfig.json` would run them: the whole project, then the
 * browser-safe core on its own settings (no Node types). The core's program reuses the files
 * the first one parsed and bound (the standard libraries, the core's sources), so it costs its
 * own checking only. Diagnostics are printed as tsc prints them; exit 1 when there is any.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROJECTS = [join(root, 'tsconfig.json'), join(root, 'src', 'core', 'tsconfig.json')];

/** Parsed source files, shared by the programs (a file parses the same whatever program reads it). */
const parsed = new Map();

/** A compiler host whose source files come from the shared cache. */
function sharingHost(options) {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, fresh) => {
    const v = typeof version === 'object' ? `${version.languageVersion}:${version.impliedNodeFormat}` : version;
    const key = `${v}\0${fileName}`;
    let file = fresh ? undefined : parsed.get(key);
    if (file === undefined) {
      file = read(fileName, version, onError, fresh);
      if (file !== undefined) parsed.set(key, file);
    }
    return file;
  };
  return host;
}

/** The diagnostics `tsc -p project` reports (without emitting). */
function check(project) {
  const config = ts.getParsedCommandLineOfConfigFile(
    project,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  if (config === undefined) return [];
  const options = { ...config.options, noEmit: true };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options,
    host: sharingHost(options),
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  // tsc's order: syntax first, and the rest only on a clean parse
  const all = [...program.getConfigFileParsingDiagnostics(), ...program.getSyntacticDiagnostics()];
  if (all.length > 0) return all;
  all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
  if (all.length === 0) all.push(...program.getSemanticDiagnostics());
  if (all.length === 0 && (options.declaration === true || options.composite === true))
    all.push(...program.getDeclarationDiagnostics());
  return all;
}

const format = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};
let failed = false;
for (const project of PROJECTS) {
  const diagnostics = check(project);
  if (diagnostics.length === 0) continue;
  failed = true;
  process.stdout.write(ts.formatDiagnostics(diagnostics, format));
  const files = new Set(diagnostics.map((d) => d.file?.fileName).filter((f) => f !== undefined));
  process.stdout.write(`\nFound ${diagnostics.length} error(s) in ${files.size} file(s) (${project}).\n`);
}
process.exit(failed ? 1 : 0);

/**
 * Runs the repository's composite GitHub Action (action.yml) on this machine, for its
 * test: the `run:` steps execute with bash as the runner would (inputs and
 * `github.action_path`, `strategy.job-index` substituted, GITHUB_OUTPUT a file, `if:`
 * conditions evaluated), `uses:` steps are stood in for (setup-node: recorded as run, the Node running this stays; upload-artifact: the files copied to an
 * artifacts directory, as the real action would upload them).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface ActionStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionFile {
  name: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export function readAction(file: string): ActionFile {
  return parse(readFileSync(file, 'utf8')) as ActionFile;
}

export interface LocalRun {
  /** Exit code of the first failing step (0 when all passed). */
  code: number;
  /** Names of the steps run, in order (skipped ones left out). */
  steps: string[];
  /** Outputs of the action (`outputs:` resolved from the steps' GITHUB_OUTPUT). */
  outputs: Record<string, string>;
  /** Where upload-artifact's files were copied. */
  artifacts: string;
  /** Everything the steps printed. */
  log: string;
}

/** Run a script with bash as the runner does for `shell: bash`, without blocking this process (the server under test may live here). */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** What expressions see. */
interface Ctx {
  inputs: Record<string, string>;
  actionPath: string;
  stepOutputs: Record<string, Record<string, string>>;
  jobIndex: string;
}

/** The value of one expression the local runner knows. */
function value(expr: string, ctx: Ctx): string {
  let m: RegExpMatchArray | null;
  if ((m = /^inputs\.([\w-]+)$/.exec(expr))) return ctx.inputs[m[1] ?? ''] ?? '';
  if (expr === 'github.action_path') return ctx.actionPath;
  if (expr === 'strategy.job-index') return ctx.jobIndex;
  if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr))) return ctx.stepOutputs[m[1] ?? '']?.[m[2] ?? ''] ?? '';
  throw new Error(`action.yml: expression not supported by the local runner: ${expr}`);
}

/** A step's `if:`: `always()`, or `<expression> == '<text>'` / `!=`, as the runner evaluates them. */
function condition(text: string, ctx: Ctx, failed: boolean): boolean {
  const expr = text.replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
  if (/^always\(\)$/.test(expr)) return true;
  const m = /^([\w.-]+)\s*(==|!=)\s*'([^']*)'$/.exec(expr);
  if (m === null) throw new Error(`action.yml: condition not supported by the local runner: ${text}`);
  if (failed) return false;
  return (value(m[1] ?? '', ctx) === m[3]) === (m[2] === '==');
}

/** Substitute `${{ inputs.x }}`, `${{ github.action_path }}`, `${{ strategy.job-index }}` and `${{ steps.id.outputs.x }}`. */
function expand(text: string, ctx: Ctx): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => value(expr, ctx));
}

/**
 * Run the action with `inputs` from `workdir` (the caller's workspace). `skip` names
 * step ids not to run (e.g. `install` when the checkout is already installed).
 */
export async function runActionLocally(opts: {
  actionPath: string;
  workdir: string;
  inputs: Record<string, string>;
  skip?: readonly string[];
  env?: NodeJS.ProcessEnv;
  jobIndex?: number;
}): Promise<LocalRun> {
  const action = readAction(join(opts.actionPath, 'action.yml'));
  if (action.runs.using !== 'composite') throw new Error('action.yml is not a composite action');
  const inputs: Record<string, string> = {};
  for (const [k, spec] of Object.entries(action.inputs)) {
    const v = opts.inputs[k] ?? spec.default;
    if (v === undefined && spec.required === true) throw new Error(`action input ${k} is required`);
    inputs[k] = v ?? '';
  }
  const ctx: Ctx = { inputs, actionPath: opts.actionPath, stepOutputs: {}, jobIndex: String(opts.jobIndex ?? 0) };
  const artifacts = mkdtempSync(join(tmpdir(), 'spotcheck-artifacts-'));
  const out: LocalRun = { code: 0, steps: [], outputs: {}, artifacts, log: '' };
  for (const step of action.runs.steps) {
    const name = step.id ?? step.name ?? step.uses ?? 'step';
    const runs = step.if === undefined ? out.code === 0 : condition(step.if, ctx, out.code !== 0);
    if (!runs || (step.id !== undefined && opts.skip?.includes(step.id))) continue;
    out.steps.push(name);
    const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), ctx)]));
    if (step.uses !== undefined) {
      if (step.uses.startsWith('actions/setup-node@')) continue; // this Node runs the steps
      if (step.uses.startsWith('actions/upload-artifact@')) {
        const from = isAbsolute(w.path ?? '') ? (w.path ?? '') : join(opts.workdir, w.path ?? '');
        if (existsSync(from)) cpSync(from, join(artifacts, w.name ?? 'artifact'), { recursive: true });
        continue;
      }
      throw new Error(`action.yml: step uses ${step.uses}, which the local runner cannot stand in for`);
    }
    if (step.run === undefined) continue;
    if (step.shell !== 'bash') throw new Error(`action.yml: step ${name} must say shell: bash`);
    const outputFile = join(mkdtempSync(join(tmpdir(), 'spotcheck-gh-output-')), 'output');
    const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env), GITHUB_OUTPUT: outputFile };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(String(v), ctx);
    const cwd = step['working-directory'] === undefined ? opts.workdir : expand(step['working-directory'], ctx);
    // As the runner does for shell: bash.
    const r = await bash(expand(step.run, ctx), cwd, env);
    out.log += `== ${name}\n${r.output}`;
    const outputs: Record<string, string> = {};
    if (existsSync(outputFile)) {
      for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
      }
    }
    if (step.id !== undefined) ctx.stepOutputs[step.id] = outputs;
    if (r.status !== 0) out.code = r.status ?? 1;
  }
  for (const [k, o] of Object.entries(action.outputs ?? {})) out.outputs[k] = expand(o.value, ctx);
  return out;
}

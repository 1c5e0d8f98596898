/**
 * CPU-burning processes beside a test run (load does not change a verdict). Each
 * is a child process spinning on a core until stopped, and ends by itself after `maxMs` so a run
 * that dies cannot leave one behind. Test harness only.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Start `n` burners; the returned function stops them. */
export function startBurn(n: number, maxMs = 15 * 60_000): () => void {
  const spin = `const end = Date.now() + ${Math.floor(maxMs)}; let x = 0; while (Date.now() < end) { x = (x * 31 + 7) % 1000003; }`;
  const children: ChildProcess[] = Array.from({ length: Math.max(0, Math.floor(n)) }, () =>
    spawn(process.execPath, ['-e', spin], { stdio: 'ignore' }),
  );
  return () => {
    for (const c of children) c.kill('SIGKILL');
  };
}

/** The burners the environment asks for (`SPOTCHECK_CPU_BURN=N`), none when unset. */
export function burnersWanted(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SPOTCHECK_CPU_BURN ?? '0');
  return Number.isInteger(n) && n > 0 && n <= 16 ? n : 0;
}

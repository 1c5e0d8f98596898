/**
 * `--no-color` and NO_COLOR (https://no-color.org), honoured by every command: each takes the
 * flag (matrix refused it), and `run` on a terminal writes no escape sequence with either.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commands, main } from '../../src/cli/main.js';
import { colorWanted, takeNoColor } from '../../src/cli/args.js';
import { conformanceCommands } from './commands.js';

const capture = (env: NodeJS.ProcessEnv = {}) => {
  let out = '';
  let err = '';
  return {
    io: { out: (s: string) => void (out += s), err: (s: string) => void (err += s), env },
    stdout: () => out,
    stderr: () => err,
  };
};

describe('--no-color and NO_COLOR', () => {
  const tty = { out: process.stdout.isTTY, err: process.stderr.isTTY };
  afterEach(() => {
    Object.defineProperty(process.stdout, 'isTTY', { value: tty.out, configurable: true });
    Object.defineProperty(process.stderr, 'isTTY', { value: tty.err, configurable: true });
  });

  it('every command and subcommand takes --no-color', async () => {
    const names = [...Object.keys(commands), ...Object.keys(conformanceCommands)].map((n) => [n]);
    names.push(['load', 'init'], ['load', 'report']);
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const argv of names) {
      const c = capture();
      expect(await main([...argv, '--no-color', '--help'], c.io, conformanceCommands), argv.join(' ')).toBe(0);
      expect(c.stdout()).toMatch(/^Usage: spotcheck/);
    }
  });

  it('reads the flag and the variable, and only before a `--`', () => {
    expect(colorWanted({}, { isTTY: true })).toBe(true);
    expect(colorWanted({ NO_COLOR: '1' }, { isTTY: true })).toBe(false);
    expect(colorWanted({ NO_COLOR: '' }, { isTTY: true })).toBe(true);
    expect(colorWanted({}, { isTTY: true }, true)).toBe(false);
    expect(colorWanted({}, { isTTY: false })).toBe(false);
    expect(takeNoColor(['--a', '--no-color', '--', '--no-color'], {})).toEqual({
      argv: ['--a', '--', '--no-color'],
      env: { NO_COLOR: '1' },
    });
  });

  it('run on a terminal: color by default, none with --no-color or NO_COLOR', async () => {
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    const argv = ['run', '--embedded', '--only', 'AUTH-APIKEY-REQUIRED', '--runs', '2', '--seed', '1'];
    const colored = capture();
    expect(await main(argv, colored.io, conformanceCommands)).toBe(0);
    expect(colored.stdout()).toContain('\x1b[');
    for (const [extra, env] of [
      [['--no-color'], {}],
      [[], { NO_COLOR: '1' }],
    ] as const) {
      const plain = capture({ ...env });
      expect(await main([...argv, ...extra], plain.io, conformanceCommands)).toBe(0);
      expect(plain.stdout() + plain.stderr(), JSON.stringify(env)).not.toContain('\x1b');
    }
  });
});

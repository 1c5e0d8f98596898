/**
 * Deliberate rewrites of a signature value (§5.3 items 2-3), each with the bash line
 * that applies the same rewrite to `$SIG`, so a printed curl recomputes the genuine
 * signature at replay time and then spoils it exactly as the check did.
 */

/** A signature rewrite the shell can repeat: `shell` turns the genuine `$SIG` into the sent one. */
export interface SignatureEdit {
  (sig: string): string;
  /** What the rewrite does, in words. */
  readonly what: string;
  /** bash statement(s) rewriting the variable SIG in place. */
  readonly shell: string;
}

function edit(what: string, shell: string, apply: (sig: string) => string): SignatureEdit {
  return Object.assign((sig: string) => apply(sig), { what, shell });
}

/** Whether a rewrite function carries its shell form. */
export function isSignatureEdit(f: unknown): f is SignatureEdit {
  return typeof f === 'function' && typeof (f as Partial<SignatureEdit>).shell === 'string';
}

export const upperCase = edit('upper-case', `SIG=$(printf '%s' "$SIG" | tr a-f A-F)`, (s) => s.toUpperCase());

export const mixedCase = edit(
  'mixed-case (every other digit upper-case)',
  `SIG=$(printf '%s' "$SIG" | awk '{ for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); printf "%s", (i % 2 == 1 ? toupper(c) : c) } }')`,
  (s) => [...s].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join(''),
);

/** Flip bit `bit` (0..255) of a hex signature: digit `bit / 4`, bit `bit % 4` of it. */
export function flipBit(bit: number): SignatureEdit {
  const i = Math.floor(bit / 4);
  const mask = 1 << (bit % 4);
  return edit(
    `bit ${bit} flipped`,
    `SIG="\${SIG:0:${i}}$(printf '%x' $(( 16#\${SIG:${i}:1} ^ ${mask} )))\${SIG:${i + 1}}"`,
    (s) => {
      const c = parseInt(s[i] ?? '0', 16) ^ mask;
      return s.slice(0, i) + c.toString(16) + s.slice(i + 1);
    },
  );
}

/** The first digit changed (0 becomes 1, anything else 0). */
export const flipFirstDigit = edit(
  'first digit changed',
  `case "$SIG" in 0*) SIG="1\${SIG:1}" ;; *) SIG="0\${SIG:1}" ;; esac`,
  (s) => (s.startsWith('0') ? '1' : '0') + s.slice(1),
);

export function truncate(n: number): SignatureEdit {
  return edit(`truncated to ${n} digits`, `SIG="\${SIG:0:${n}}"`, (s) => s.slice(0, n));
}

export const extraDigit = edit('one extra digit', `SIG="\${SIG}0"`, (s) => `${s}0`);

export const nonHexDigit = edit(
  'non-hex digit',
  `SIG="\${SIG:0:10}g\${SIG:11}"`,
  (s) => `${s.slice(0, 10)}g${s.slice(11)}`,
);

export const base64 = edit(
  'base64 instead of hex',
  `SIG=$(printf "$(printf '%s' "$SIG" | sed 's/../\\\\x&/g')" | openssl base64 -A)`,
  (s) => Buffer.from(s, 'hex').toString('base64'),
);

export const empty = edit('empty', `SIG=''`, () => '');

/**
 * A shell reproduction of an exchange: a curl command with a fresh timestamp and
 * the signature recomputed at replay time from `$SPOTCHECK_SECRET` (never printed).
 */
import type { Exchange } from './transport.js';

/** Single-quote a string for POSIX shells. */
export function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Quote `s` for the shell with every occurrence of `needle` replaced by the shell variable `$name`. */
function withVar(s: string, needle: string | undefined, name: string): string {
  if (needle === undefined || needle === '' || !s.includes(needle)) return shq(s);
  return s
    .split(needle)
    .map((part) => (part === '' ? '' : shq(part)))
    .join(`"$${name}"`);
}

/** The curl command (and the lines preparing it) that replays an exchange against `baseUrl`. */
export function curlFor(baseUrl: string, x: Exchange): string {
  const lines: string[] = [];
  const { request: r } = x;
  const ts = x.timestamp;
  const fresh = ts !== undefined && /^\d{13}$/.test(ts);
  if (fresh) {
    const shift = Math.round(x.timestampShiftMs ?? 0);
    lines.push(`TS=$(( $(date +%s%N) / 1000000 ${shift < 0 ? '-' : '+'} ${Math.abs(shift)} ))  # the server's clock and the probe's age, as measured`);
  }
  const tsVar = fresh ? ts : undefined;
  let sigVar: string | undefined;
  if (x.signedString !== undefined && x.signature !== undefined) {
    lines.push(
      `SIG=$(printf '%s' ${withVar(x.signedString, tsVar, 'TS')} | openssl dgst -sha256 -hmac "$SPOTCHECK_SECRET" | sed 's/^.* //')`,
    );
    sigVar = x.signature;
  }
  const sub = (s: string): string => {
    // Substitute the signature first (it never contains the timestamp), then the timestamp.
    if (sigVar !== undefined && s.includes(sigVar)) {
      return s
        .split(sigVar)
        .map((part) => (part === '' ? '' : withVar(part, tsVar, 'TS')))
        .join('"$SIG"');
    }
    return withVar(s, tsVar, 'TS');
  };
  const url = `${baseUrl.replace(/\/+$/, '')}${r.path}${r.query === '' ? '' : `?${r.query}`}`;
  const parts = [`curl -sS -X ${r.method} ${sub(url)}`];
  for (const [k, v] of Object.entries(r.headers)) parts.push(`-H ${shq(`${k}: ${v}`)}`);
  if (r.body !== '') parts.push(r.body.length > 4096 ? `--data-binary @body.txt  # ${r.body.length}-byte body, not shown` : `--data-raw ${sub(r.body)}`);
  lines.push(parts.join(' \\\n  '));
  return lines.join('\n');
}

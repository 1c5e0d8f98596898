/**
 * A shell reproduction of an exchange: a curl command with a fresh timestamp and
 * the signature recomputed at replay time from `$SPOTCHECK_SECRET` (never printed).
 */
import type { Exchange } from '../engine/transport.js';

/** The shell variable a printed curl reads the no-TRADE key's secret from (never printed). */
export const NO_TRADE_SECRET_VAR = 'SPOTCHECK_NO_TRADE_SECRET';

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

/** The `signature=<value>` pair of a query or form body, at a pair boundary; [before, after] or undefined. */
function splitAtSignature(s: string, sig: string): [string, string] | undefined {
  const pair = `signature=${sig}`;
  for (let i = s.indexOf(pair); i >= 0; i = s.indexOf(pair, i + 1)) {
    const end = i + pair.length;
    if ((i === 0 || s[i - 1] === '&' || s[i - 1] === '?') && (end === s.length || s[end] === '&'))
      return [s.slice(0, i), s.slice(end)];
  }
  return undefined;
}

/**
 * The bash lines (and the curl command) that replay an exchange against `baseUrl`:
 * a fresh timestamp, the signature recomputed with openssl from `$SPOTCHECK_SECRET`,
 * then any deliberate defect (a rewritten signature, a wrong secret, `&` at the join,
 * a tampered body) applied again, so the pasted lines send what the check sent.
 */
export function curlFor(baseUrl: string, x: Exchange): string {
  const lines: string[] = [];
  const { request: r } = x;
  const ts = x.timestamp;
  const fresh = ts !== undefined && /^\d{13}$/.test(ts);
  if (fresh) {
    const shift = Math.round(x.timestampShiftMs ?? 0);
    lines.push(
      `TS=$(( $(date +%s%N) / 1000000 ${shift < 0 ? '-' : '+'} ${Math.abs(shift)} ))  # the server's clock and the probe's age, as measured`,
    );
  }
  const tsVar = fresh ? ts : undefined;
  let resign = false;
  if (x.signedString !== undefined && x.signature !== undefined) {
    const variable = x.secretVariable ?? 'SPOTCHECK_SECRET';
    const key =
      x.secretSuffix === undefined || x.secretSuffix === '' ? `"$${variable}"` : `"$${variable}"${shq(x.secretSuffix)}`;
    if (x.secretVariable !== undefined) lines.push(`# signed with another key's secret: set ${x.secretVariable} to it`);
    lines.push(
      `SIG=$(printf '%s' ${withVar(x.signedString, tsVar, 'TS')} | openssl dgst -sha256 -hmac ${key} | sed 's/^.* //')`,
    );
    if (x.secretSuffix !== undefined && x.secretSuffix !== '')
      lines.push(`# signed with a wrong secret on purpose: $SPOTCHECK_SECRET followed by ${shq(x.secretSuffix)}`);
    if (x.signatureEdit !== undefined) lines.push(`${x.signatureEdit}  # the check's deliberate defect`);
    resign = true;
  } else if (fresh && x.signature !== undefined && x.signature !== '') {
    lines.push(
      '# the signature below is the one sent, over the old timestamp: the server may refuse it for that reason',
    );
  }
  const sub = (s: string): string => {
    const parts = resign && x.signature !== undefined ? splitAtSignature(s, x.signature) : undefined;
    if (parts === undefined) return withVar(s, tsVar, 'TS');
    const [before, after] = parts;
    return [
      withVar(`${before}signature=`, tsVar, 'TS'),
      '"$SIG"',
      after === '' ? '' : withVar(after, tsVar, 'TS'),
    ].join('');
  };
  const url = `${baseUrl.replace(/\/+$/, '')}${r.path}${r.query === '' ? '' : `?${r.query}`}`;
  // curl -X HEAD waits for a body a HEAD answer never has: --head asks the same without waiting
  const parts = [`curl -sS ${r.method === 'HEAD' ? '--head' : `-X ${r.method}`} ${sub(url)}`];
  for (const [k, v] of Object.entries(r.headers)) parts.push(`-H ${shq(`${k}: ${v}`)}`);
  if (r.body !== '')
    parts.push(
      r.body.length > 4096
        ? `--data-binary @body.txt  # ${r.body.length}-byte body, not shown`
        : `--data-raw ${sub(r.body)}`,
    );
  lines.push(parts.join(' \\\n  '));
  return lines.join('\n');
}

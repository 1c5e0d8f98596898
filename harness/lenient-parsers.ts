/**
 * Servers with a lenient reader of `timestamp` or `recvWindow` (D-LONG-CANONICAL): the
 * reference server behind the variant proxy, which rewrites one text form of the value into
 * plain milliseconds and re-signs, the way a server parsing with a forgiving number reader
 * would see it. Each is caught by exactly one check (conformance/checks/time.ts LONG_FORMS).
 * Test harness only.
 */
import { DEMO_SECRET } from '../src/server/credentials.js';
import { resign, type ProxiedRequest, type VariantOptions } from './variants.js';

export interface LenientParser {
  name: string;
  /** The one check that must fail. */
  caughtBy: string;
  options: VariantOptions;
}

/** Rewrite the value of `name` where it stands (query or form body), then re-sign. */
export function readAs(name: 'timestamp' | 'recvWindow', read: (v: string) => string | undefined): VariantOptions {
  const edit = (part: string): string | undefined => {
    let changed = false;
    const out = part.split('&').map((p) => {
      if (!p.startsWith(`${name}=`)) return p;
      const v = decodeURIComponent(p.slice(name.length + 1));
      const next = read(v);
      if (next === undefined || next === v) return p;
      changed = true;
      return `${name}=${next}`;
    });
    return changed ? out.join('&') : undefined;
  };
  return {
    rewrite: (r: ProxiedRequest) => {
      const q = edit(r.query);
      if (q !== undefined) return resign({ ...r, query: q }, DEMO_SECRET);
      const b = r.route.startsWith('batch') ? undefined : edit(r.body);
      return b !== undefined ? resign({ ...r, body: b }, DEMO_SECRET) : r;
    },
  };
}

const digits = (v: string, n: number) => new RegExp(`^[0-9]{${n}}$`).test(v);

export const lenientParsers: readonly LenientParser[] = [
  {
    name: 'a 10-digit timestamp read as seconds',
    caughtBy: 'TIME-WINDOW-PAST.seconds',
    options: readAs('timestamp', (v) => (digits(v, 10) ? `${v}000` : undefined)),
  },
  {
    name: 'a 16-digit timestamp read as microseconds',
    caughtBy: 'TIME-WINDOW-LEAD.microseconds',
    options: readAs('timestamp', (v) => (digits(v, 16) ? v.slice(0, 13) : undefined)),
  },
  {
    name: 'a timestamp fraction dropped',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.timestamp-fraction',
    options: readAs('timestamp', (v) => (/^[0-9]+\.[0-9]+$/.test(v) ? v.split('.')[0] : undefined)),
  },
  {
    name: "a timestamp's minus sign dropped",
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.timestamp-negative',
    options: readAs('timestamp', (v) => (/^-[0-9]{13}$/.test(v) ? v.slice(1) : undefined)),
  },
  {
    name: 'a timestamp exponent read as a number',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.timestamp-exponent',
    options: readAs('timestamp', (v) =>
      /e/i.test(v) && Number.isSafeInteger(Number(v)) ? String(Number(v)) : undefined,
    ),
  },
  {
    name: 'a recvWindow fraction dropped',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.recvwindow-fraction',
    options: readAs('recvWindow', (v) => (/^[0-9]+\.[0-9]+$/.test(v) ? v.split('.')[0] : undefined)),
  },
  {
    name: "a recvWindow's minus sign dropped",
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.recvwindow-negative',
    options: readAs('recvWindow', (v) => (/^-[0-9]+$/.test(v) ? v.slice(1) : undefined)),
  },
  {
    name: 'a recvWindow exponent read as a number',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.recvwindow-exponent',
    options: readAs('recvWindow', (v) =>
      /^[0-9.]+e[0-9]+$/i.test(v) && Number.isSafeInteger(Number(v)) ? String(Number(v)) : undefined,
    ),
  },
  {
    name: 'a recvWindow past the LONG range read as a float (an endless window, here 60 s)',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.recvwindow-overflow',
    options: readAs('recvWindow', (v) => (/^[0-9]{19,}$/.test(v) ? '60000' : undefined)),
  },
  {
    name: 'a timestamp read into an unsigned 64-bit integer, wrapping (2^64 + now is now)',
    caughtBy: 'ORDER-RECVWINDOW-FORMAT.timestamp-overflow',
    options: readAs('timestamp', (v) => (/^[0-9]{20,}$/.test(v) ? String(BigInt.asUintN(64, BigInt(v))) : undefined)),
  },
  {
    name: 'a timestamp with leading zeros read as its digits',
    caughtBy: 'ORDER-LONG-CANONICAL.timestamp-leading-zero',
    options: readAs('timestamp', (v) => (/^0[0-9]+$/.test(v) ? v.replace(/^0+(?=.)/, '') : undefined)),
  },
  {
    name: "a timestamp's plus sign ignored",
    caughtBy: 'ORDER-LONG-CANONICAL.timestamp-plus',
    options: readAs('timestamp', (v) => (/^\+[0-9]+$/.test(v) ? v.slice(1) : undefined)),
  },
  {
    name: 'a timestamp trimmed of spaces',
    caughtBy: 'ORDER-LONG-CANONICAL.timestamp-padded',
    options: readAs('timestamp', (v) => (/^\s+[0-9]+\s*$|^[0-9]+\s+$/.test(v) ? v.trim() : undefined)),
  },
  {
    name: 'a recvWindow with leading zeros read as its digits',
    caughtBy: 'ORDER-LONG-CANONICAL.recvwindow-leading-zero',
    options: readAs('recvWindow', (v) => (/^0[0-9]+$/.test(v) ? v.replace(/^0+(?=.)/, '') : undefined)),
  },
  {
    name: "a recvWindow's plus sign ignored",
    caughtBy: 'ORDER-LONG-CANONICAL.recvwindow-plus',
    options: readAs('recvWindow', (v) => (/^\+[0-9]+$/.test(v) ? v.slice(1) : undefined)),
  },
  {
    name: 'a recvWindow trimmed of spaces',
    caughtBy: 'ORDER-LONG-CANONICAL.recvwindow-padded',
    options: readAs('recvWindow', (v) => (/^\s+[0-9]+\s*$|^[0-9]+\s+$/.test(v) ? v.trim() : undefined)),
  },
];

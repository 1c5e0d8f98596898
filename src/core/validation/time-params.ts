/**
 * Parsing of the signed time parameters (§2.1, §5.4).
 */
import { issue, type Issue } from './issue.js';
import { parseLong } from './fields.js';

/** Largest recvWindow the reference accepts (decision D-RECVWINDOW-MAX; §5.4 recommends 5000 or less). */
export const MAX_RECV_WINDOW = 60000;

/**
 * A LONG written in a form an integer parser may accept but that is not plain digits
 * (D-LONG-CANONICAL, ORDER-LONG-CANONICAL): a leading zero, a plus sign, spaces around it.
 */
export function nonCanonicalLong(v: unknown): boolean {
  return typeof v === 'string' && /^\s*\+?[0-9]+\s*$/.test(v) && !/^(0|[1-9][0-9]*)$/.test(v);
}

/** Parsed time parameters (absent when missing or invalid) and the issues found. */
export interface TimeParams {
  timestamp?: number;
  recvWindow?: number;
  issues: Issue[];
}

/**
 * Parse `timestamp` (required, §5.4 item 1) and `recvWindow` (optional, §5.4 item 2)
 * as received (strings from a query or form, or JSON values).
 */
export function checkTimeParams(timestamp: unknown, recvWindow: unknown): TimeParams {
  const issues: Issue[] = [];
  const out: TimeParams = { issues };
  if (timestamp === undefined) {
    issues.push(issue('TIME-TIMESTAMP-REQUIRED', ['timestamp'], 'timestamp in milliseconds', timestamp));
  } else {
    const t = parseLong(timestamp);
    if (nonCanonicalLong(timestamp))
      issues.push(
        issue('ORDER-LONG-CANONICAL', ['timestamp'], 'plain digits (no leading zero, sign or spaces)', timestamp),
      );
    else if (t === undefined)
      issues.push(issue('ORDER-RECVWINDOW-FORMAT', ['timestamp'], 'a whole number of milliseconds', timestamp));
    else out.timestamp = t;
  }
  if (recvWindow !== undefined) {
    const w = parseLong(recvWindow);
    if (nonCanonicalLong(recvWindow)) {
      issues.push(
        issue('ORDER-LONG-CANONICAL', ['recvWindow'], 'plain digits (no leading zero, sign or spaces)', recvWindow),
      );
    } else if (w === undefined) {
      issues.push(issue('ORDER-RECVWINDOW-FORMAT', ['recvWindow'], 'a whole number of milliseconds', recvWindow));
    } else if (w > MAX_RECV_WINDOW) {
      issues.push(issue('TIME-RECVWINDOW-RECOMMENDED', ['recvWindow'], `at most ${MAX_RECV_WINDOW}`, recvWindow));
    } else {
      out.recvWindow = w;
    }
  }
  return out;
}

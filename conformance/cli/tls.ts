/**
 * How the kit connects to a target: HTTPS whose certificate is not in Node's default trust
 * store (a private CA, a self-signed staging front: `--ca FILE` or `ca` in the target file
 * adds the PEM certificates to the trusted ones, and a certificate failure says how to trust
 * it), and HTTP/2 (`--http2`: offered by TLS ALPN, HTTP/1.1 where the server offers only that).
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { SpotcheckError } from '../../src/core/errors.js';

/** Node's TLS verification codes that mean "this certificate is not trusted here" (node:tls, OpenSSL X509_V_ERR_* names). */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** What to do about a TLS failure code, or undefined when the code is no certificate problem. */
export function tlsAdvice(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  if (UNTRUSTED.has(code)) {
    return (
      `the target's TLS certificate is not trusted (${code}). If it is signed by a private CA or self-signed, ` +
      'trust it: --ca FILE (the PEM of the CA, or of the self-signed certificate), or NODE_EXTRA_CA_CERTS=FILE in the environment'
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the target's TLS certificate does not name this host (${code}): use the host name the certificate was issued for in --base-url`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `the target's TLS certificate is outside its validity dates (${code}): renew it, or check this machine's clock`;
  return undefined;
}

/** The PEM certificates of `file` (`flag` names where it was given, for a usage error). */
export function readCa(file: string, flag = '--ca'): string[] {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `${flag}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  const certs = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (certs === null)
    throw new SpotcheckError('ERR_USAGE', `${flag}: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return certs;
}

/**
 * The run's dispatcher: Node's default CAs plus `ca` (PEM certificates), and with `http2`
 * HTTP/2 offered to an HTTPS target by ALPN (undici `allowH2`; the server picks, HTTP/1.1
 * where it offers only that; a plain http:// target stays on HTTP/1.1). The trust is one TLS
 * context made here, not a CA list every new connection would parse again (some 140 roots).
 */
export function targetAgent(opts: { ca?: readonly string[]; http2?: boolean } = {}): Agent {
  const options = {
    ...(opts.http2 === true ? { allowH2: true } : {}),
    ...(opts.ca === undefined
      ? {}
      : { connect: { secureContext: createSecureContext({ ca: [...rootCertificates, ...opts.ca] }) } }),
  };
  return opts.http2 === true ? new StreamingAgent(options) : new Agent(options);
}

/**
 * An agent sending a body on a method that does not expect one (DELETE, OPTIONS...) as a
 * stream: undici's HTTP/2 client asserts on such a body given whole (and leaves its session
 * unusable), while a streamed one goes out in DATA frames (over HTTP/1.1: chunked instead of
 * a Content-Length). A subclass, not an interceptor: the request's handler stays the one
 * that carries the protocol trace (src/client/http.ts).
 */
class StreamingAgent extends Agent {
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const { method, body } = options;
    const payload = method === 'POST' || method === 'PUT' || method === 'PATCH';
    if (payload || !(typeof body === 'string' || Buffer.isBuffer(body)) || body.length === 0)
      return super.dispatch(options, handler);
    return super.dispatch({ ...options, body: Readable.from([Buffer.from(body)]) }, handler);
  }
}

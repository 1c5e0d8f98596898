/**
 * HTTPS targets whose certificate is not in Node's default trust store (a private CA, a
 * self-signed staging front): `--ca FILE` adds the PEM certificates to the trusted ones,
 * and a certificate failure says how to trust it.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
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

/** A dispatcher trusting Node's default CAs plus the PEM certificates of `file` (`--ca`). */
export function caAgent(file: string): Agent {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SpotcheckError(
      'ERR_USAGE',
      `--ca: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  const certs = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (certs === null)
    throw new SpotcheckError('ERR_USAGE', `--ca: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return new Agent({ connect: { ca: [...rootCertificates, ...certs] } });
}

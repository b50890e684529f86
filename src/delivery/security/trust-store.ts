import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

const cache = new Map<string, string[]>();

/**
 * The certificate authorities trusted for delivery TLS and MTA-STS fetches: Node's built-in roots,
 * plus the PEM file POSTHORN_TLS_CA_FILE names (a private CA, or a test CA). Read once per path;
 * undefined when no file is set, so Node keeps its own default. Throws naming the file when it
 * cannot be read or holds no certificate.
 */
export function trustedCas(caFile: string | null): string[] | undefined {
  if (caFile === null || caFile === '') return undefined;
  let cas = cache.get(caFile);
  if (cas === undefined) {
    let text: string;
    try {
      text = readFileSync(caFile, 'utf8');
    } catch (err) {
      throw new Error(`POSTHORN_TLS_CA_FILE: cannot read ${caFile}: ${(err as Error).message}`);
    }
    const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (pems.length === 0) throw new Error(`POSTHORN_TLS_CA_FILE: ${caFile} holds no PEM certificate`);
    cas = [...rootCertificates, ...pems];
    cache.set(caFile, cas);
  }
  return cas;
}

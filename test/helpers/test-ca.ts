import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/** A key and certificate chain (leaf first, PEM) for a TLS server. */
export interface TestCertificate {
  key: string;
  /** The leaf and, when `withCa`, the CA after it: what the server presents. */
  cert: string;
  /** The leaf alone, DER. */
  leafDer: Buffer;
}

/** A private certificate authority for tests: its PEM in a file (for POSTHORN_TLS_CA_FILE) and a way to issue server certificates. */
export interface TestCa {
  certPem: string;
  der: Buffer;
  /** Path of a file holding `certPem`. */
  file: string;
  /** A server certificate for `names` (DNS subjectAltNames), signed by this CA; `withCa` appends the CA to the chain. */
  issue(names: string[], opts?: { withCa?: boolean }): Promise<TestCertificate>;
  close(): void;
}

const ec = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' } as const;

/** Makes a CA (EC P-256, valid a year around now) whose certificates tests trust through POSTHORN_TLS_CA_FILE. */
export async function createTestCa(name = 'Posthorn Test CA'): Promise<TestCa> {
  const ca = await generate([{ name: 'commonName', value: name }], {
    ...ec,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-ca-'));
  const file = join(dir, 'ca.pem');
  writeFileSync(file, ca.cert);
  return {
    certPem: ca.cert,
    der: Buffer.from(new X509Certificate(ca.cert).raw),
    file,
    async issue(names, opts = {}) {
      const leaf = await generate([{ name: 'commonName', value: names[0] ?? 'localhost' }], {
        ...ec,
        ca: { key: ca.private, cert: ca.cert },
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) },
        ],
      });
      return {
        key: leaf.private,
        cert: opts.withCa ? `${leaf.cert.trim()}\n${ca.cert}` : leaf.cert,
        leafDer: Buffer.from(new X509Certificate(leaf.cert).raw),
      };
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { generate } from 'selfsigned';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import { systemClock, type Clock } from '../core/clock.js';

/** The certificate and key the HTTPS listener (and later STARTTLS) serves. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** True for Posthorn's own self-signed certificate: clients must trust `certPath` (curl --cacert). */
  generated: boolean;
  certPath: string;
}

const DAY = 86_400_000;
/** About two years: long enough not to bother a sandbox user, short of the 825-day limit some clients enforce. */
const VALIDITY = 730 * DAY;
/** Renew a little before expiry, so a long-running server does not start with a certificate about to lapse. */
const RENEW_BEFORE = 7 * DAY;

type TlsConfig = Pick<Config, 'tlsCert' | 'tlsKey' | 'dataDir' | 'hostname'>;

/**
 * POSTHORN_TLS_CERT/KEY when set (a ConfigError naming the variable when unreadable or not a
 * matching PEM pair); otherwise the self-signed certificate in `<dataDir>/tls/`, generated on first
 * use and again only when it expires, the hostname changes or the files are damaged.
 */
export async function loadTlsMaterial(
  config: TlsConfig,
  log: Pick<Logger, 'info' | 'warn'>,
  clock: Clock = systemClock,
): Promise<TlsMaterial> {
  if (config.tlsCert !== null && config.tlsKey !== null)
    return readOperatorFiles(config.tlsCert, config.tlsKey, log, clock);
  // Absolute, because the path is printed for `curl --cacert` run from any directory.
  const dir = resolve(config.dataDir, 'tls');
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  const existing = await readPair(certPath, keyPath);
  const reason = existing ? staleReason(existing.cert, existing.key, config.hostname, clock.now()) : 'none exists yet';
  if (existing && reason === undefined) return { ...existing, generated: true, certPath };
  const fresh = await generateSelfSigned(config.hostname, clock.now());
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700); // mkdir's mode passes through the umask, and leaves an existing dir as it is
  // Key first, each through a rename: a crash in between leaves a pair that does not match,
  // which staleReason notices, so the next start regenerates instead of serving a broken pair.
  await writeAtomically(keyPath, fresh.key, 0o600);
  // Private like everything in the data dir: clients are given the path, and read it as this user.
  await writeAtomically(certPath, fresh.cert, 0o600);
  log.info({ certPath, commonName: config.hostname, reason }, 'generated a self-signed TLS certificate');
  return { ...fresh, generated: true, certPath };
}

export async function readOperatorFiles(
  certPath: string,
  keyPath: string,
  log: Pick<Logger, 'warn'>,
  clock: Clock,
): Promise<TlsMaterial> {
  const cert = await readFile(certPath, 'utf8').catch((err: Error) => {
    throw new ConfigError(
      `POSTHORN_TLS_CERT: cannot read ${certPath}: ${err.message}; point POSTHORN_TLS_CERT at a PEM certificate this user can read`,
    );
  });
  const key = await readFile(keyPath, 'utf8').catch((err: Error) => {
    throw new ConfigError(
      `POSTHORN_TLS_KEY: cannot read ${keyPath}: ${err.message}; point POSTHORN_TLS_KEY at a PEM private key this user can read`,
    );
  });
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    throw new ConfigError(`POSTHORN_TLS_CERT: ${certPath} is not a PEM certificate`);
  }
  let matches: boolean;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(key));
  } catch {
    throw new ConfigError(`POSTHORN_TLS_KEY: ${keyPath} is not a PEM private key (an encrypted key is not supported)`);
  }
  if (!matches)
    throw new ConfigError(
      `POSTHORN_TLS_KEY: ${keyPath} is not the key of the certificate in ${certPath}; set POSTHORN_TLS_CERT and POSTHORN_TLS_KEY to files of the same pair`,
    );
  // The operator's certificate is theirs to renew: warn, but serving it beats refusing to start.
  if (Date.parse(x509.validTo) <= clock.now())
    log.warn({ certPath, validTo: x509.validTo }, 'the TLS certificate in POSTHORN_TLS_CERT has expired');
  return { cert, key, generated: false, certPath };
}

async function readPair(certPath: string, keyPath: string): Promise<{ cert: string; key: string } | undefined> {
  try {
    return { cert: await readFile(certPath, 'utf8'), key: await readFile(keyPath, 'utf8') };
  } catch {
    return undefined;
  }
}

/** Why the stored certificate cannot be reused, or undefined when it can. */
function staleReason(cert: string, key: string, hostname: string, now: number): string | undefined {
  try {
    const x509 = new X509Certificate(cert);
    if (!x509.checkPrivateKey(createPrivateKey(key))) return 'the key does not match the certificate';
    if (Date.parse(x509.validTo) - RENEW_BEFORE <= now) return `it expires ${x509.validTo}`;
    if (commonName(x509) !== hostname || x509.checkHost(hostname) === undefined)
      return `it was made for another hostname (${x509.subject.replace(/\n/g, ', ')})`;
    return undefined;
  } catch {
    return 'the stored files are not a PEM certificate and key';
  }
}

function commonName(x509: X509Certificate): string | undefined {
  return /(?:^|\n)CN=([^\n]*)/.exec(x509.subject)?.[1];
}

async function generateSelfSigned(hostname: string, now: number): Promise<{ cert: string; key: string }> {
  const dnsNames = [...new Set([hostname, 'localhost'])];
  const pems = await generate([{ name: 'commonName', value: hostname }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    // An hour of slack for clients whose clock is a little behind.
    notBeforeDate: new Date(now - 3_600_000),
    notAfterDate: new Date(now + VALIDITY),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      // RFC 6125 §6.4.4: clients match the subjectAltName, not the CN; loopback names and
      // addresses are included so the sandbox works as https://localhost and https://127.0.0.1.
      {
        name: 'subjectAltName',
        altNames: [
          ...dnsNames.map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode });
  await chmod(tmp, mode); // writeFile's mode passes through the umask; set it exactly
  await rename(tmp, path);
}

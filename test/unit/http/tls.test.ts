import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ConfigError } from '../../../src/config/load.js';
import { loadTlsMaterial } from '../../../src/http/tls.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const log = pino({ level: 'silent' });
const DAY = 86_400_000;

describe('loadTlsMaterial', () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'posthorn-tls-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const selfSigned = (dataDir: string, hostname = 'mail.posthorn.test') => ({
    tlsCert: null,
    tlsKey: null,
    dataDir,
    hostname,
  });

  test('generates a self-signed certificate once into <dataDir>/tls and reuses it', async () => {
    const dataDir = tempDir();
    const clock = fakeClock();
    const first = await loadTlsMaterial(selfSigned(dataDir), log, clock);
    assert.equal(first.generated, true);
    assert.equal(first.certPath, join(dataDir, 'tls', 'cert.pem'));
    assert.equal(statSync(join(dataDir, 'tls', 'key.pem')).mode & 0o777, 0o600);

    const x509 = new X509Certificate(first.cert);
    assert.match(x509.subject, /CN=mail\.posthorn\.test/);
    assert.equal(
      x509.subjectAltName,
      'DNS:mail.posthorn.test, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    assert.equal(x509.ca, false);
    const lifetimeDays = (Date.parse(x509.validTo) - clock.now()) / DAY;
    assert.ok(lifetimeDays > 700 && lifetimeDays < 740, `valid for about two years, got ${lifetimeDays} days`);
    assert.ok(x509.verify(x509.publicKey), 'self-signed');

    clock.advance(300 * DAY);
    const again = await loadTlsMaterial(selfSigned(dataDir), log, clock);
    assert.equal(again.cert, first.cert);
    assert.equal(again.key, first.key);
  });

  test('regenerates for a new hostname and when the certificate expires', async () => {
    const dataDir = tempDir();
    const clock = fakeClock();
    const first = await loadTlsMaterial(selfSigned(dataDir), log, clock);
    const renamed = await loadTlsMaterial(selfSigned(dataDir, 'smtp.example.test'), log, clock);
    assert.notEqual(renamed.cert, first.cert);
    assert.match(new X509Certificate(renamed.cert).subject, /CN=smtp\.example\.test/);
    assert.equal((await loadTlsMaterial(selfSigned(dataDir, 'smtp.example.test'), log, clock)).cert, renamed.cert);

    clock.advance(731 * DAY);
    const renewed = await loadTlsMaterial(selfSigned(dataDir, 'smtp.example.test'), log, clock);
    assert.notEqual(renewed.cert, renamed.cert);
    assert.ok(Date.parse(new X509Certificate(renewed.cert).validTo) > clock.now() + 700 * DAY);
  });

  test('uses POSTHORN_TLS_CERT/KEY files, and names the variable when they are unusable', async () => {
    const dataDir = tempDir();
    const own = await loadTlsMaterial(selfSigned(dataDir), log);
    const other = await loadTlsMaterial(selfSigned(tempDir(), 'other.example.test'), log);
    const certPath = join(dataDir, 'operator-cert.pem');
    copyFileSync(own.certPath, certPath);
    const keyPath = join(dataDir, 'tls', 'key.pem');

    const loaded = await loadTlsMaterial({ tlsCert: certPath, tlsKey: keyPath, dataDir, hostname: 'x.test' }, log);
    assert.deepEqual(loaded, { cert: own.cert, key: own.key, generated: false, certPath });

    const missing = join(dataDir, 'nope.pem');
    await assert.rejects(
      loadTlsMaterial({ tlsCert: missing, tlsKey: keyPath, dataDir, hostname: 'x.test' }, log),
      (err: Error) => err instanceof ConfigError && /^POSTHORN_TLS_CERT: cannot read .*nope\.pem/.test(err.message),
    );
    await assert.rejects(
      loadTlsMaterial({ tlsCert: certPath, tlsKey: missing, dataDir, hostname: 'x.test' }, log),
      (err: Error) => err instanceof ConfigError && err.message.startsWith('POSTHORN_TLS_KEY: cannot read'),
    );
    await assert.rejects(
      loadTlsMaterial({ tlsCert: keyPath, tlsKey: keyPath, dataDir, hostname: 'x.test' }, log),
      (err: Error) => err instanceof ConfigError && err.message.startsWith('POSTHORN_TLS_CERT:'),
    );
    await assert.rejects(
      loadTlsMaterial({ tlsCert: other.certPath, tlsKey: keyPath, dataDir, hostname: 'x.test' }, log),
      (err: Error) =>
        err instanceof ConfigError && /^POSTHORN_TLS_KEY: .* is not the key of the certificate/.test(err.message),
    );
  });
});

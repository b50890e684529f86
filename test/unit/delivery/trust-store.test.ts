import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { trustedCas } from '../../../src/delivery/security/trust-store.js';
import { createTestCa } from '../../helpers/test-ca.js';

test('POSTHORN_TLS_CA_FILE adds its certificates to the built-in roots; a bad file is named', async () => {
  assert.equal(trustedCas(null), undefined, "unset: Node's own default");
  const ca = await createTestCa();
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-trust-'));
  try {
    const cas = trustedCas(ca.file)!;
    assert.equal(cas.length, rootCertificates.length + 1);
    assert.equal(cas.at(-1)!.trim(), ca.certPem.trim());
    const missing = join(dir, 'missing.pem');
    assert.throws(() => trustedCas(missing), {
      message: new RegExp(`^POSTHORN_TLS_CA_FILE: cannot read ${missing}: ENOENT`),
    });
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'not a certificate\n');
    assert.throws(() => trustedCas(empty), { message: `POSTHORN_TLS_CA_FILE: ${empty} holds no PEM certificate` });
  } finally {
    ca.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

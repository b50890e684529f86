import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/build-app.js';
import { clientKey } from '../../../src/http/connection-cap.js';
import { loadTlsMaterial } from '../../../src/http/tls.js';
import { createTestDeps, type TestDeps } from '../../helpers/test-deps.js';
import { rawConnect, requestHead, until, type RawConnection } from '../../helpers/raw-http.js';

test('clientKey: IPv4 as is (also IPv4-mapped), IPv6 by its /64', () => {
  assert.equal(clientKey('127.0.0.2'), '127.0.0.2');
  assert.equal(clientKey('::ffff:127.0.0.2'), '127.0.0.2');
  assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientKey('2001:0db8:0000:0000:ffff:0:0:2'), '2001:db8:0:0::/64');
  assert.equal(clientKey('2001:DB8:0:0:1::'), '2001:db8:0:0::/64');
  assert.notEqual(clientKey('2001:db8:0:1::1'), clientKey('2001:db8::1'));
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  assert.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
});

for (const secure of [false, true]) {
  describe(`per-client connection cap on the ${secure ? 'HTTPS' : 'HTTP'} listener`, () => {
    let deps: TestDeps;
    let app: FastifyInstance;
    let port: number;
    let dataDir: string;
    const open: RawConnection[] = [];
    const connect = async (localAddress: string) => {
      const c = await rawConnect(port, { localAddress, tls: secure });
      open.push(c);
      return c;
    };
    /** A GET /healthz on a fresh connection from `localAddress`: its status, or null when refused. */
    const healthz = async (localAddress: string): Promise<number | null> => {
      let c: RawConnection;
      try {
        c = await connect(localAddress);
      } catch {
        return null; // a TLS connection destroyed before its handshake fails to connect
      }
      await c.write(requestHead('GET', '/healthz', {}));
      const res = await until('a response or the close', () => c.response() ?? (c.closed() ? 'closed' : undefined));
      c.destroy();
      return res === 'closed' ? null : res.status;
    };

    before(async () => {
      deps = await createTestDeps('sqlite', {
        env: { POSTHORN_HTTP_MAX_CONNECTIONS_PER_CLIENT: '3', POSTHORN_HTTP_HEADERS_TIMEOUT: '2s' },
      });
      dataDir = mkdtempSync(join(tmpdir(), 'posthorn-cap-'));
      const tls = secure
        ? await loadTlsMaterial(
            { tlsCert: null, tlsKey: null, dataDir, hostname: 'localhost' },
            pino({ level: 'silent' }),
          )
        : null;
      app = buildApp(deps, tls ? { https: { cert: tls.cert, key: tls.key } } : {});
      await app.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.address() as AddressInfo).port;
    });
    after(async () => {
      for (const c of open) c.destroy();
      await app.close();
      await deps.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('the fourth connection from one address is closed at once; another address is served; a freed slot is reusable', async () => {
      const held = [await connect('127.0.0.1'), await connect('127.0.0.1'), await connect('127.0.0.1')];
      assert.equal(await healthz('127.0.0.1'), null);
      assert.equal(await healthz('127.0.0.2'), 200);
      assert.ok(
        held.every((c) => !c.closed()),
        'the held connections are not touched',
      );
      held[0]!.destroy();
      await until('a slot for 127.0.0.1 again', async () => (await healthz('127.0.0.1')) === 200);
    });

    if (secure) {
      test('a TCP connection that never starts its TLS handshake is closed by the headers deadline', async () => {
        const { connect: tcp } = await import('node:net');
        const socket = tcp({ host: '127.0.0.1', port, localAddress: '127.0.0.3' });
        let closed = false;
        socket
          .on('close', () => {
            closed = true;
          })
          .on('error', () => {
            closed = true;
          });
        try {
          await until('the close', () => closed, 8_000);
        } finally {
          socket.destroy();
        }
      });
    }
  });
}

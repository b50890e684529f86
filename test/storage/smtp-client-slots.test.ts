// Connection slots of the relay and the inbound MX: one client address holding idle connections
// must not lock other clients out. Real listeners on loopback; the attacker binds 127.0.0.2 as
// its source address, the well-behaved client 127.0.0.1.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import tls from 'node:tls';
import { startInbound } from '../../src/inbound/start-inbound.js';
import { clientKey } from '../../src/smtp-server/client-slots.js';
import { createRelayHarness, relayCertificate, SmtpWire, type SmtpReply } from '../helpers/relay-harness.js';
import { createTestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

const ATTACKER = '127.0.0.2';

/** A raw client from `localAddress`: plaintext, or TLS from the first byte. */
function open(port: number, localAddress: string, implicitTls = false): SmtpWire {
  const socket = implicitTls
    ? tls.connect({ socket: net.connect({ host: '127.0.0.1', port, localAddress }), rejectUnauthorized: false })
    : net.connect({ host: '127.0.0.1', port, localAddress });
  socket.on('error', () => undefined);
  return new SmtpWire(socket);
}

/** The first reply, or 'closed' when the server closed the connection without one. */
async function firstReply(wire: SmtpWire, timeoutMs = 10_000): Promise<SmtpReply | 'closed'> {
  return wire.next(timeoutMs).catch((err: Error) => {
    if (/closed before a reply/.test(err.message)) return 'closed' as const;
    throw err;
  });
}

/** Resolves once the wire's connection is closed, or fails after `timeoutMs`. */
async function closedWithin(wire: SmtpWire, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!wire.closed) {
    if (Date.now() > deadline) throw new Error(`connection still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('client address keys', () => {
  test('IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
    assert.equal(clientKey('127.0.0.2'), '127.0.0.2');
    assert.equal(clientKey('::ffff:127.0.0.2'), '127.0.0.2');
    assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:0db8:0001:0002:ffff:1:2:3'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('::1'), '0:0:0:0::/64');
  });
});

for (const dialect of testDialects()) {
  describe(`SMTP connection slots (${dialect})`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    const wires: SmtpWire[] = [];
    afterEach(async () => {
      for (const w of wires.splice(0)) w.destroy();
      for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
    });

    for (const implicitTls of [false, true]) {
      test(`relay ${implicitTls ? 'implicit TLS' : 'STARTTLS'} port: one address gets its cap, the next 421 4.7.0 and closed; another address still sends`, async () => {
        const h = await createRelayHarness(dialect, { env: { POSTHORN_SMTP_MAX_CONNECTIONS_PER_CLIENT: '3' } });
        cleanup.push(() => h.close());
        const port = implicitTls ? h.smtpsPort : h.submissionPort;
        const held: SmtpWire[] = [];
        for (let i = 0; i < 3; i++) {
          const w = open(port, ATTACKER, implicitTls);
          wires.push(w);
          held.push(w);
          assert.equal((await w.next()).code, 220, `connection ${i + 1} of the cap is greeted`);
        }
        const over = open(port, ATTACKER, implicitTls);
        wires.push(over);
        const reply = await firstReply(over);
        assert.notEqual(reply, 'closed');
        assert.equal((reply as SmtpReply).code, 421);
        assert.match((reply as SmtpReply).text, /^4\.7\.0 .*Too many connections from 127\.0\.0\.2/);
        await closedWithin(over, 10_000);

        const info = await h.client({ implicitTls }).sendMail({
          from: 'app@acme.test',
          to: 'user@example.org',
          subject: 'still open',
          text: 'hello',
        });
        assert.match(info.response, /^250 /);

        // A slot given back is free again for the same address.
        held[0]!.destroy();
        await closedWithin(held[0]!, 5_000);
        const deadline = Date.now() + 10_000;
        for (;;) {
          const again = open(port, ATTACKER, implicitTls);
          wires.push(again);
          const r = await firstReply(again);
          if (r !== 'closed' && r.code === 220) break;
          if (Date.now() > deadline) throw new Error('the freed slot was not given back');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
    }

    test('relay: a session not authenticated within POSTHORN_SMTP_AUTH_TIMEOUT is closed with 421 4.7.0; an authenticated one stays', async () => {
      // 3 s, not less: the authenticated session must finish TLS, EHLO and AUTH (a deliberately slow
      // password hash) inside the deadline, which took over a second on a loaded 2-core machine.
      const h = await createRelayHarness(dialect, { env: { POSTHORN_SMTP_AUTH_TIMEOUT: '3s' } });
      cleanup.push(() => h.close());
      const idle = (await h.wire('implicit')).wire;
      const authed = await h.authedWire();
      const reply = await idle.next(10_000);
      assert.equal(reply.code, 421);
      assert.match(reply.text, /^4\.7\.0 Not authenticated within 3 s/);
      await closedWithin(idle, 10_000);
      assert.equal(authed.closed, false);
      assert.equal((await authed.cmd('NOOP')).code, 250, 'the authenticated session outlives the deadline');
    });

    test('relay implicit TLS: a client that never finishes its TLS handshake loses its slot at the handshake deadline', async () => {
      const h = await createRelayHarness(dialect, {
        env: { POSTHORN_SMTP_AUTH_TIMEOUT: '1s', POSTHORN_SMTP_MAX_CONNECTIONS_PER_CLIENT: '2' },
      });
      cleanup.push(() => h.close());
      // Plain TCP to the TLS port: the server waits for a ClientHello that never comes.
      const stalled = [open(h.smtpsPort, ATTACKER), open(h.smtpsPort, ATTACKER)];
      wires.push(...stalled);
      for (const w of stalled) await closedWithin(w, 10_000);
      const after = open(h.smtpsPort, ATTACKER, true);
      wires.push(after);
      const r = await firstReply(after);
      assert.notEqual(r, 'closed');
      assert.equal((r as SmtpReply).code, 220, 'the address has its slots back');
    });

    test('inbound MX: per-address cap with 421 4.7.0, other addresses unaffected; no MAIL within POSTHORN_INBOUND_MAIL_TIMEOUT closes with 421', async () => {
      const t = await createTestDeps(dialect, {
        env: {
          POSTHORN_LISTEN_HOST: '127.0.0.1',
          POSTHORN_INBOUND_PORT: '0',
          POSTHORN_INBOUND_MAX_CONNECTIONS_PER_CLIENT: '2',
          POSTHORN_INBOUND_MAIL_TIMEOUT: '1s',
        },
      });
      cleanup.push(() => t.close());
      const mx = await startInbound(t, await relayCertificate());
      cleanup.push(() => mx.stop());
      const a = [open(mx.port, ATTACKER), open(mx.port, ATTACKER)];
      wires.push(...a);
      for (const w of a) assert.equal((await w.next()).code, 220);
      const over = open(mx.port, ATTACKER);
      wires.push(over);
      const refused = await firstReply(over);
      assert.notEqual(refused, 'closed');
      assert.equal((refused as SmtpReply).code, 421);
      assert.match((refused as SmtpReply).text, /^4\.7\.0 .*Too many connections from 127\.0\.0\.2/);

      const good = open(mx.port, '127.0.0.1');
      wires.push(good);
      assert.equal((await good.next()).code, 220, 'another address is greeted');
      assert.equal((await good.cmd('EHLO mx.example.org')).code, 250);
      assert.equal((await good.cmd('MAIL FROM:<>')).code, 250);

      // The idle ones (no MAIL) are closed at the deadline; the one that sent MAIL stays.
      for (const w of a) {
        const r = await w.next(10_000);
        assert.equal(r.code, 421);
        assert.match(r.text, /^4\.7\.0 No MAIL within 1 s/);
        await closedWithin(w, 10_000);
      }
      assert.equal((await good.cmd('RSET')).code, 250, 'a session that sent MAIL outlives the deadline');
    });
  });
}

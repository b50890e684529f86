import assert from 'node:assert/strict';
import net from 'node:net';
import { afterEach, describe, test } from 'node:test';
import pino from 'pino';
import { createSmtpTransport, type SmtpTransportOptions } from '../../../src/delivery/smtp-transport.js';
import { BareLineBreakError, findBareLineBreak } from '../../../src/delivery/smtp/bare-line-break.js';
import { SmtpSession } from '../../../src/delivery/smtp/smtp-session.js';
import { DEFAULT_SMTP_TIMEOUTS } from '../../../src/delivery/smtp/timeouts.js';
import type { AttemptResult, DeliveryAttempt, Destination, Transport } from '../../../src/delivery/transport.js';
import { startSinkMx, type SinkMx, type SinkOptions } from '../../helpers/sink-mx.js';

const FROM = 'bounces+abc@bounce.example.com';
/** CRLF lines, one starting with a dot (RFC 5321 §4.5.2: the client must stuff it, the server unstuff it). */
const RAW = Buffer.from(
  'From: Sender <sender@example.com>\r\nTo: rcpt@example.net\r\nSubject: Test\r\nMessage-ID: <1@example.com>\r\n\r\nHello,\r\n.a line starting with a dot\r\n\r\nBye\r\n',
);

/** Everything a test opened, closed after it whatever happened. */
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

async function sink(opts?: SinkOptions): Promise<SinkMx> {
  const s = await startSinkMx(opts);
  opened.push(s);
  return s;
}

function transport(opts: Partial<SmtpTransportOptions> = {}): Transport {
  const t = createSmtpTransport({
    heloName: 'mta.posthorn.test',
    maxConnectionsPerHost: 10,
    log: pino({ level: 'silent' }),
    ...opts,
  });
  opened.push(t);
  return t;
}

function attempt(destinations: Destination[], recipients: string[], raw = RAW): DeliveryAttempt {
  return { destinations, envelopeFrom: FROM, recipients, raw, attempt: 1 };
}

function at(s: SinkMx): Destination {
  return { host: s.host, port: s.port };
}

function transaction(result: AttemptResult): Extract<AttemptResult, { kind: 'transaction' }> {
  assert.equal(result.kind, 'transaction', JSON.stringify(result));
  return result as Extract<AttemptResult, { kind: 'transaction' }>;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A server whose STARTTLS answers 220 and then sends no TLS at all; a client that comes back
 * without STARTTLS is served in plain text. Counts the sessions.
 */
async function brokenStartTlsServer(): Promise<{ port: number; sessions: number }> {
  const state = { port: 0, sessions: 0 };
  const server = net.createServer((socket) => {
    state.sessions++;
    let buffered = '';
    let inData = false;
    socket.write('220 fake.test ESMTP\r\n');
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            socket.write('250 2.0.0 Ok\r\n');
          }
        } else if (line.startsWith('EHLO')) socket.write('250-fake.test\r\n250 STARTTLS\r\n');
        else if (line === 'STARTTLS') socket.end('220 2.0.0 Go ahead\r\nthis is not a TLS server hello\r\n');
        else if (line === 'DATA') {
          inData = true;
          socket.write('354 Go ahead\r\n');
        } else if (line === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write('250 Ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  state.port = (server.address() as net.AddressInfo).port;
  return state;
}

const rcpts = (n: number, prefix = 'ok') => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.net`);

describe('SMTP transport against the sink MX', () => {
  test('findBareLineBreak: CRLF only passes; a lone CR or LF anywhere is found with its offset', () => {
    assert.equal(findBareLineBreak(RAW), null);
    assert.equal(findBareLineBreak(Buffer.from('')), null);
    assert.deepEqual(findBareLineBreak(Buffer.from('a\r\nb\rc\r\n')), { char: 'CR', offset: 4 });
    assert.deepEqual(findBareLineBreak(Buffer.from('a\r\nb\nc\r\n')), { char: 'LF', offset: 4 });
    assert.deepEqual(findBareLineBreak(Buffer.from('\nx')), { char: 'LF', offset: 0 });
    assert.deepEqual(findBareLineBreak(Buffer.from('x\r')), { char: 'CR', offset: 1 });
    assert.deepEqual(findBareLineBreak(Buffer.from('x\r\r\n')), { char: 'CR', offset: 1 });
  });

  test('a message with a bare CR or LF is refused before any connection; nothing reaches the server', async () => {
    const mx = await sink();
    const t = transport();
    for (const bad of ['Subject: x\r\n\r\nline\rsmuggled\r\n', 'Subject: x\r\n\r\nline\n.\nMAIL FROM:<x@y>\r\n']) {
      await assert.rejects(
        t.send(attempt([at(mx)], ['ok@example.net'], Buffer.from(bad))),
        (err: Error) => err instanceof BareLineBreakError && /bare (CR|LF) at byte \d+/.test(err.message),
      );
    }
    assert.equal(mx.connections, 0);
    assert.equal(mx.messages.length, 0);
  });

  test('the SMTP session itself refuses a bare CR or LF before MAIL FROM, and stays usable', async () => {
    const mx = await sink();
    const session = await SmtpSession.open({
      host: mx.host,
      port: mx.port,
      heloName: 'mta.posthorn.test',
      timeouts: DEFAULT_SMTP_TIMEOUTS,
      rejectUnauthorized: false,
    });
    opened.push({ close: () => session.quit() });
    await assert.rejects(
      session.transact(FROM, ['ok@example.net'], Buffer.from('Subject: x\r\n\r\nhello\rworld\r\n')),
      BareLineBreakError,
    );
    await assert.rejects(
      session.transact(FROM, ['ok@example.net'], Buffer.from('Subject: x\r\n\r\nhello\nworld\r\n')),
      /bare LF at byte 19/,
    );
    assert.equal(mx.messages.length, 0);
    const outcome = await session.transact(FROM, ['ok@example.net'], RAW);
    assert.equal(outcome.kind, 'replies');
    assert.equal(mx.messages.length, 1);
    assert.ok(mx.messages[0]!.raw.equals(RAW));
  });

  test('one message to three recipients arrives once, with its envelope and bytes intact', async () => {
    const mx = await sink();
    const t = transport();
    const to = ['ok-a@example.net', 'ok-b@example.net', 'ok-c@example.net'];
    const result = transaction(await t.send(attempt([at(mx)], to)));
    assert.equal(result.mxHost, `127.0.0.1:${mx.port}`);
    assert.deepEqual(
      result.recipients.map((r) => [r.address, r.reply.code, r.reply.enhanced]),
      to.map((a) => [a, 250, '2.0.0']),
    );
    assert.match(result.recipients[0]!.reply.raw, /^250 2\.0\.0 Ok: queued as /);
    assert.equal(mx.messages.length, 1);
    const [message] = mx.messages;
    assert.equal(message!.mailFrom, FROM);
    assert.deepEqual(message!.rcptTo, to);
    assert.ok(message!.raw.equals(RAW), 'the sink received the exact bytes (dot-stuffing undone)');
  });

  test('STARTTLS is negotiated and its protocol reported; a server without it stays in plain text', async () => {
    const withTls = await sink();
    const plain = await sink({ tls: false });
    const t = transport();
    assert.equal(transaction(await t.send(attempt([at(withTls)], ['ok@example.net']))).tls, 'TLSv1.3');
    assert.equal(withTls.messages[0]!.tls, true);
    assert.equal(transaction(await t.send(attempt([at(plain)], ['ok@example.net']))).tls, null);
    assert.equal(plain.messages[0]!.tls, false);
  });

  test('a failed TLS handshake is retried in plain text (opportunistic TLS)', async () => {
    const fake = await brokenStartTlsServer();
    const t = transport();
    const result = transaction(await t.send(attempt([{ host: '127.0.0.1', port: fake.port }], ['ok@example.net'])));
    assert.equal(result.tls, null);
    assert.deepEqual([result.recipients[0]!.reply.code, fake.sessions], [250, 2]);
  });

  test('with rejectUnauthorized an untrusted certificate fails the host', async () => {
    const mx = await sink();
    const t = transport({ tls: { rejectUnauthorized: true } });
    const result = await t.send(attempt([at(mx)], ['ok@example.net']));
    assert.equal(result.kind, 'unreachable');
    assert.match(result.kind === 'unreachable' ? result.error : '', /certificate/i);
    assert.equal(mx.messages.length, 0);
  });

  test('a message over the SIZE the server announced is refused locally with 552 5.3.4', async () => {
    const mx = await sink({ size: 100 });
    const t = transport();
    const result = transaction(await t.send(attempt([at(mx)], ['ok1@example.net', 'ok2@example.net'])));
    assert.deepEqual(
      result.recipients.map((r) => [r.reply.code, r.reply.enhanced]),
      Array(2).fill([552, '5.3.4']),
    );
    assert.match(result.recipients[0]!.reply.raw, /not sent/);
    assert.equal(mx.messages.length, 0);
  });

  test('each recipient gets its own outcome in one transaction', async () => {
    const mx = await sink();
    const t = transport();
    const result = transaction(
      await t.send(
        attempt(
          [at(mx)],
          ['ok@example.net', 'bounce@example.net', 'block@example.net', 'full@example.net', 'defer@example.net'],
        ),
      ),
    );
    assert.deepEqual(
      result.recipients.map((r) => [r.address, r.reply.code, r.reply.enhanced]),
      [
        ['ok@example.net', 250, '2.0.0'],
        ['bounce@example.net', 550, '5.1.1'],
        ['block@example.net', 550, '5.7.1'],
        ['full@example.net', 552, '5.2.2'],
        ['defer@example.net', 451, '4.2.0'],
      ],
    );
    assert.equal(result.recipients[1]!.reply.raw, '550 5.1.1 The email account that you tried to reach does not exist');
    assert.match(result.recipients[2]!.reply.raw, /zen\.spamhaus\.org/);
    assert.equal(mx.messages.length, 1);
    assert.deepEqual(mx.messages[0]!.rcptTo, ['ok@example.net']);
  });

  test('all recipients refused: their RCPT replies, nothing sent, and the session is still reusable', async () => {
    const mx = await sink();
    const t = transport();
    const result = transaction(await t.send(attempt([at(mx)], ['bounce@example.net', 'defer-1-x@example.net'])));
    assert.deepEqual(
      result.recipients.map((r) => r.reply.code),
      [550, 451],
    );
    transaction(await t.send(attempt([at(mx)], ['defer-1-x@example.net'])));
    assert.equal(mx.messages.length, 1);
    assert.equal(mx.connections, 1, 'RSET cleared the refused transaction on the same connection');
  });

  test('a refused MAIL FROM answers for every recipient', async () => {
    const mx = await sink({
      mailFromBehaviour: (from) =>
        from.startsWith('blocked')
          ? { kind: 'reject', code: 550, message: '5.7.1 Sender rejected' }
          : { kind: 'accept' },
    });
    const t = transport();
    const refused = transaction(
      await t.send({
        ...attempt([at(mx)], ['ok1@example.net', 'ok2@example.net']),
        envelopeFrom: 'blocked@bounce.example.com',
      }),
    );
    assert.deepEqual(
      refused.recipients.map((r) => [r.reply.code, r.reply.enhanced, r.reply.raw]),
      Array(2).fill([550, '5.7.1', '550 5.7.1 Sender rejected']),
    );
    transaction(await t.send(attempt([at(mx)], ['ok3@example.net'])));
    assert.deepEqual(
      mx.messages.map((m) => m.rcptTo),
      [['ok3@example.net']],
    );
  });

  test('150 recipients sent by the caller as 100 + 50 all arrive', async () => {
    const mx = await sink();
    const t = transport();
    const all = rcpts(150);
    const results = await Promise.all([
      t.send(attempt([at(mx)], all.slice(0, 100))),
      t.send(attempt([at(mx)], all.slice(100))),
    ]);
    for (const r of results) assert.ok(transaction(r).recipients.every((x) => x.reply.code === 250));
    assert.deepEqual(mx.messages.flatMap((m) => m.rcptTo).sort(), [...all].sort());
  });

  test("the transport does not split: the 101st recipient in one call gets the server's 452 4.5.3", async () => {
    const mx = await sink();
    const t = transport();
    const result = transaction(await t.send(attempt([at(mx)], rcpts(101))));
    assert.deepEqual(
      result.recipients.slice(0, 100).map((r) => r.reply.code),
      Array(100).fill(250),
    );
    assert.deepEqual([result.recipients[100]!.reply.code, result.recipients[100]!.reply.enhanced], [452, '4.5.3']);
    assert.equal(mx.messages[0]!.rcptTo.length, 100);
  });

  test('a connection dropped mid-DATA makes the attempt unreachable; the next attempt delivers', async () => {
    const mx = await sink();
    const t = transport();
    const first = await t.send(attempt([at(mx)], ['drop-1-x@example.net']));
    assert.equal(first.kind, 'unreachable');
    assert.deepEqual(first.kind === 'unreachable' && first.hostsTried, [`127.0.0.1:${mx.port}`]);
    assert.equal(mx.messages.length, 0);
    transaction(await t.send(attempt([at(mx)], ['drop-1-x@example.net'])));
    assert.equal(mx.messages.length, 1);
  });

  test('a host refusing connections yields to the next destination', async () => {
    const mx = await sink();
    const down = await closedPort();
    const t = transport();
    const result = transaction(await t.send(attempt([{ host: '127.0.0.1', port: down }, at(mx)], ['ok@example.net'])));
    assert.equal(result.mxHost, `127.0.0.1:${mx.port}`);
    assert.equal(mx.messages.length, 1);
  });

  test('a host answering 421 at greeting yields to the next destination', async () => {
    const mx = await sink();
    const busy = net.createServer((socket) => socket.end('421 4.3.2 Too busy, try later\r\n'));
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => busy.close(() => resolve())) });
    const t = transport();
    const result = transaction(
      await t.send(
        attempt([{ host: '127.0.0.1', port: (busy.address() as net.AddressInfo).port }, at(mx)], ['ok@example.net']),
      ),
    );
    assert.equal(result.mxHost, `127.0.0.1:${mx.port}`);
  });

  test('every host down: unreachable, naming the hosts tried', async () => {
    const [a, b] = [await closedPort(), await closedPort()];
    const t = transport();
    const result = await t.send(
      attempt(
        [
          { host: '127.0.0.1', port: a },
          { host: '127.0.0.1', port: b },
        ],
        ['ok@example.net'],
      ),
    );
    assert.equal(result.kind, 'unreachable');
    assert.ok(result.kind === 'unreachable');
    assert.deepEqual(result.hostsTried, [`127.0.0.1:${a}`, `127.0.0.1:${b}`]);
    assert.match(result.error, /ECONNREFUSED/);
  });

  test('sequential messages to one host reuse one connection', async () => {
    const mx = await sink();
    const t = transport();
    for (let i = 0; i < 20; i++) transaction(await t.send(attempt([at(mx)], [`ok${i}@example.net`])));
    assert.equal(mx.messages.length, 20);
    assert.equal(mx.connections, 1);
    assert.equal(mx.connectionLog[0]!.transactions, 20);
  });

  test('concurrent sends stay within maxConnectionsPerHost and all arrive', async () => {
    const mx = await sink();
    const t = transport({ maxConnectionsPerHost: 5 });
    const results = await Promise.all(rcpts(50).map((r) => t.send(attempt([at(mx)], [r]))));
    assert.ok(results.every((r) => r.kind === 'transaction'));
    assert.equal(mx.messages.length, 50);
    assert.ok(mx.peakConnections <= 5, `peak ${mx.peakConnections} connections`);
    assert.ok(mx.connections <= 5, `${mx.connections} connections opened`);
  });

  test('maxMessagesPerConnection closes a session after that many transactions', async () => {
    const mx = await sink();
    const t = transport({ maxMessagesPerConnection: 3 });
    for (let i = 0; i < 7; i++) transaction(await t.send(attempt([at(mx)], [`ok${i}@example.net`])));
    assert.deepEqual(
      mx.connectionLog.map((c) => c.transactions),
      [3, 3, 1],
    );
  });

  test('a pooled connection the server dropped is replaced without losing the attempt', async () => {
    const mx = await sink();
    const t = transport();
    transaction(await t.send(attempt([at(mx)], ['ok1@example.net'])));
    mx.dropConnections();
    await mx.waitFor((_m, s) => s.openConnections === 0);
    transaction(await t.send(attempt([at(mx)], ['ok2@example.net'])));
    assert.equal(mx.messages.length, 2);
    assert.equal(mx.connections, 2);
  });

  test('a reused session that dies before answering MAIL FROM is retried on a fresh one', async () => {
    // The first connection drops at its second MAIL FROM without a word, as a server that timed
    // the idle session out at the moment it was reused.
    const mx = await sink({
      mailFromBehaviour: (_from, ctx) => (ctx.transactions === 1 ? { kind: 'drop' } : { kind: 'accept' }),
    });
    const t = transport();
    transaction(await t.send(attempt([at(mx)], ['ok1@example.net'])));
    transaction(await t.send(attempt([at(mx)], ['ok2@example.net'])));
    assert.deepEqual(
      mx.messages.map((m) => m.rcptTo[0]),
      ['ok1@example.net', 'ok2@example.net'],
    );
    assert.equal(mx.connections, 2);
  });

  test('a DATA reply slower than the configured timeout makes the attempt unreachable', async () => {
    const mx = await sink({ slowDataMs: 60_000 });
    const t = transport({ timeouts: { dataTermination: 100 } });
    const result = await t.send(attempt([at(mx)], ['slow@example.net']));
    assert.equal(result.kind, 'unreachable');
    assert.match(result.kind === 'unreachable' ? result.error : '', /timeout/i);
    await mx.waitFor((_m, s) => s.openConnections === 0); // the timed-out session was closed
    // The session is gone, and the next attempt gets a fresh one.
    transaction(await t.send(attempt([at(mx)], ['ok@example.net'])));
    assert.equal(mx.connections, 2);
  });

  test('idle connections close after the idle timeout', async () => {
    const mx = await sink();
    const t = transport({ timeouts: { idle: 50 } });
    transaction(await t.send(attempt([at(mx)], ['ok@example.net'])));
    await mx.waitFor((_m, s) => s.openConnections === 0, 2000);
  });

  test('close() closes the pooled connections and refuses further sends', async () => {
    const mx = await sink();
    const t = transport();
    await Promise.all(rcpts(3).map((r) => t.send(attempt([at(mx)], [r]))));
    assert.ok(mx.openConnections > 0);
    await t.close();
    await mx.waitFor((_m, s) => s.openConnections === 0);
    await assert.rejects(t.send(attempt([at(mx)], ['ok@example.net'])), /closed/);
  });
});

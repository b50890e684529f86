// npm run bench:smtp-slots — one client address (127.0.0.2) opens 500 idle connections to each
// relay port and 200 to the inbound MX, with the default per-address caps; then a client from
// 127.0.0.1 sends one message on each relay port and is greeted by the MX. In process, SQLite,
// listeners on loopback. Prints `name: value unit` lines: per listener how many idle connections
// were held (greeted 220), refused (421) or closed without a reply, and whether the good client
// was greeted and could send.
import net from 'node:net';
import tls from 'node:tls';
import { startInbound } from '../src/inbound/start-inbound.js';
import { createRelayHarness, relayCertificate, SmtpWire } from '../test/helpers/relay-harness.js';

const ATTACKER = '127.0.0.2';

async function flood(
  port: number,
  count: number,
  implicitTls: boolean,
): Promise<{ held: number; refused: number; closed: number; wires: SmtpWire[] }> {
  const wires: SmtpWire[] = [];
  for (let i = 0; i < count; i++) {
    const socket = implicitTls
      ? tls.connect({
          socket: net.connect({ host: '127.0.0.1', port, localAddress: ATTACKER }),
          rejectUnauthorized: false,
        })
      : net.connect({ host: '127.0.0.1', port, localAddress: ATTACKER });
    socket.on('error', () => undefined);
    wires.push(new SmtpWire(socket));
  }
  const replies = await Promise.all(
    wires.map((w) =>
      w.next(20_000).then(
        (r) => r.code,
        () => 0,
      ),
    ),
  );
  return {
    held: replies.filter((c) => c === 220).length,
    refused: replies.filter((c) => c === 421).length,
    closed: replies.filter((c) => c === 0).length,
    wires,
  };
}

const h = await createRelayHarness('sqlite');
const t = h.deps;
const mx = await startInbound(t, await relayCertificate());
const all: SmtpWire[] = [];
try {
  for (const [name, port, count, implicitTls] of [
    ['relay_starttls', h.submissionPort, 500, false],
    ['relay_implicit_tls', h.smtpsPort, 500, true],
    ['inbound_mx', mx.port, 200, false],
  ] as const) {
    const r = await flood(port, count, implicitTls);
    all.push(...r.wires);
    console.log(`${name}_idle_held: ${r.held} connections`);
    console.log(`${name}_idle_refused_421: ${r.refused} connections`);
    console.log(`${name}_idle_closed_without_reply: ${r.closed} connections`);
  }
  for (const implicitTls of [false, true]) {
    const started = performance.now();
    const ok = await h
      .client({ implicitTls })
      .sendMail({ from: 'app@acme.test', to: 'user@example.org', subject: 'good client', text: 'hello' })
      .then(
        (info) => /^250 /.test(info.response),
        () => false,
      );
    console.log(`good_client_${implicitTls ? 'implicit_tls' : 'starttls'}_sent: ${ok ? 1 : 0} messages`);
    console.log(
      `good_client_${implicitTls ? 'implicit_tls' : 'starttls'}_time: ${Math.round(performance.now() - started)} ms`,
    );
  }
  const good = new SmtpWire(net.connect({ host: '127.0.0.1', port: mx.port, localAddress: '127.0.0.1' }));
  all.push(good);
  console.log(`good_client_inbound_greeting: ${(await good.next()).code} code`);
} finally {
  for (const w of all) w.destroy();
  await mx.stop();
  await h.close();
}

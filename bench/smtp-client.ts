/**
 * SMTP client throughput: ~5 KB messages, one recipient each, 50 sends in flight, through the
 * SMTP transport to a loopback sink MX (STARTTLS on) that runs in a child process, so the client
 * has an event loop to itself. Prints `smtp_client: N msgs/s`.
 *
 *   npx tsx bench/smtp-client.ts [seconds=5] [maxConnectionsPerHost=10] [concurrency=50]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createSmtpTransport } from '../src/delivery/smtp-transport.js';
import type { DeliveryAttempt } from '../src/delivery/transport.js';
import { startSinkMx } from '../test/helpers/sink-mx.js';

type SinkRequest = 'count' | 'close';
type SinkReply = { port: number } | { count: number; cpuMs: number };

if (process.argv[2] === '--sink') await runSink();
else await runClient(Number(process.argv[2] ?? 5), Number(process.argv[3] ?? 10), Number(process.argv[4] ?? 50));

/** The child: a sink that keeps only a count, answering the parent's requests over IPC. */
async function runSink(): Promise<void> {
  const sink = await startSinkMx({ store: false });
  process.on('message', (request: SinkRequest) => {
    if (request === 'count')
      process.send?.({ count: sink.received, cpuMs: cpuMs(process.cpuUsage()) } satisfies SinkReply);
    else void sink.close().then(() => process.exit(0));
  });
  process.send?.({ port: sink.port } satisfies SinkReply);
}

async function runClient(seconds: number, maxConnectionsPerHost: number, concurrency: number): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--sink'], { execArgv: ['--import', 'tsx'] });
  const { port } = (await reply(child)) as { port: number };
  const transport = createSmtpTransport({
    heloName: 'bench.posthorn.test',
    maxConnectionsPerHost,
    log: pino({ level: 'silent' }),
  });
  const raw = message(5 * 1024);
  let delivered = 0;
  let failed = 0;
  let measuring = false;
  let stop = false;

  async function loop(i: number): Promise<void> {
    for (let n = 0; !stop; n++) {
      const attempt: DeliveryAttempt = {
        destinations: [{ host: '127.0.0.1', port }],
        envelopeFrom: 'bounces@bounce.bench.test',
        recipients: [`ok-${i}-${n}@example.net`],
        raw,
        attempt: 1,
      };
      const result = await transport.send(attempt);
      const ok = result.kind === 'transaction' && result.recipients[0]!.reply.code === 250;
      if (measuring && ok) delivered++;
      if (!ok) failed++;
    }
  }

  const loops = Array.from({ length: concurrency }, (_, i) => loop(i));
  await new Promise((resolve) => setTimeout(resolve, 1000)); // warm-up: sessions opened, TLS negotiated, JIT
  measuring = true;
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  measuring = false;
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const clientCpu = cpuMs(process.cpuUsage(cpuBefore)) / (elapsed * 1000);
  stop = true;
  await Promise.all(loops);
  await transport.close();
  child.send('count' satisfies SinkRequest);
  const { count, cpuMs: sinkCpuMs } = (await reply(child)) as { count: number; cpuMs: number };
  child.send('close' satisfies SinkRequest);

  console.log(`smtp_client: ${Math.round(delivered / elapsed)} msgs/s`);
  console.log(
    `  (${delivered} in ${elapsed.toFixed(2)} s; ${raw.length}-byte messages; concurrency ${concurrency}; maxConnectionsPerHost ${maxConnectionsPerHost}; failed ${failed}; sink received ${count} in all)`,
  );
  // Throughput swings with whatever else the two cores run; CPU per message is the steadier figure.
  const cpuPerMessageUs = (clientCpu * elapsed * 1e6) / Math.max(delivered, 1);
  console.log(
    `  client CPU ${(clientCpu * 100).toFixed(0)}% of a core while measuring = ${cpuPerMessageUs.toFixed(0)} µs per message (one core's ceiling ≈ ${Math.round(1e6 / cpuPerMessageUs)} msgs/s)`,
  );
  console.log(
    `  sink process ${(sinkCpuMs / 1000).toFixed(1)} s CPU in all ≈ ${((sinkCpuMs * 1000) / Math.max(count, 1)).toFixed(0)} µs per message`,
  );
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function reply(child: ChildProcess): Promise<SinkReply> {
  return new Promise((resolve) => child.once('message', (m) => resolve(m as SinkReply)));
}

/** A plausible message of about `size` bytes: headers, then 76-character base64-like lines. */
function message(size: number): Buffer {
  const head =
    'From: Bench <bench@bench.test>\r\nTo: someone@example.net\r\nSubject: Benchmark\r\nMessage-ID: <bench@bench.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n';
  const line = 'QmVuY2htYXJrIG1lc3NhZ2UgYm9keSBmb3IgdGhlIFNNVFAgY2xpZW50IHRocm91Z2hwdXQgdGVz\r\n';
  return Buffer.from(head + line.repeat(Math.ceil((size - head.length) / line.length)));
}

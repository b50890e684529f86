import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { makeReturnPath, returnPathSecret } from '../../src/delivery/return-path.js';
import { parseReport } from '../../src/feedback/parse-report.js';
import { startInbound } from '../../src/inbound/start-inbound.js';
import { relayCertificate, SmtpWire, type SmtpReply } from '../helpers/relay-harness.js';
import { buildArf, buildDsn, insertDelivered, type SentMessage } from '../helpers/report-builders.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { fuzzProperty, oddString, runFuzz } from './fuzz-run.js';

const FILE = 'test/fuzz/inbound-reports.test.ts';

// ---- generators --------------------------------------------------------------------------------

/** Where a report claims to come from and go to, and which message it names. */
interface ReportSeed {
  kind: 'dsn' | 'arf' | 'text';
  to: string;
  address: string;
  messageId: string;
  returnPath: string | undefined;
  action: string;
  status: string;
  feedbackType: string;
}

function textBounce(s: ReportSeed): Buffer {
  return Buffer.from(
    [
      'From: MAILER-DAEMON@mx.example.org',
      `To: ${s.to}`,
      'Subject: Mail delivery failed: returning message to sender',
      '',
      'This message was created automatically by mail delivery software.',
      '',
      'A message that you sent could not be delivered to one or more of its recipients. This is a permanent error. The following address(es) failed:',
      '',
      `  ${s.address}`,
      `    host mx.example.org [192.0.2.1]`,
      `    SMTP error from remote mail server after RCPT TO:<${s.address}>:`,
      `    550 ${s.status} User unknown`,
      '',
      '------ This is a copy of the message, including all the headers. ------',
      '',
      ...(s.returnPath ? [`Return-Path: <${s.returnPath}>`] : []),
      `Message-ID: ${s.messageId}`,
      'Subject: Your receipt',
      '',
    ].join('\r\n'),
  );
}

function build(s: ReportSeed): Buffer {
  if (s.kind === 'dsn')
    return buildDsn({
      to: s.to,
      recipients: [{ address: s.address, action: s.action, status: s.status, diagnostic: `550 ${s.status} no` }],
      messageId: s.messageId,
      ...(s.returnPath ? { returnPath: s.returnPath } : {}),
    });
  if (s.kind === 'arf')
    return buildArf({
      to: s.to,
      rcptTo: s.address,
      messageId: s.messageId,
      feedbackType: s.feedbackType,
      ...(s.returnPath ? { originalMailFrom: s.returnPath } : {}),
    });
  return textBounce(s);
}

/** Byte-level and MIME-level mutations of a report. */
type Mutation = (raw: string) => string;
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // Cut, duplicate or delete a range.
  fc.tuple(fc.nat(), fc.nat()).map(
    ([a, b]): Mutation =>
      (r) =>
        r.slice(0, a % (r.length + 1)) + r.slice((a % (r.length + 1)) + (b % 200)),
  ),
  fc.tuple(fc.nat(), fc.nat({ max: 400 })).map(([a, n]): Mutation => (r) => {
    const i = a % (r.length + 1);
    return r.slice(0, i) + r.slice(i, i + n) + r.slice(i);
  }),
  fc.nat().map(
    (a): Mutation =>
      (r) =>
        r.slice(0, a % (r.length + 1)),
  ),
  // Insert odd text (as UTF-8 bytes) somewhere.
  fc.tuple(fc.nat(), oddString(300)).map(([a, s]): Mutation => (r) => {
    const i = a % (r.length + 1);
    return r.slice(0, i) + Buffer.from(s, 'utf8').toString('latin1') + r.slice(i);
  }),
  // MIME structure: boundaries, types, encodings, nesting, line ends.
  fc.constantFrom<Mutation>(
    (r) => r.replace(/boundary="[^"]*"/, 'boundary=""'),
    (r) => r.replace(/boundary="([^"]*)"/, 'boundary="$1x"'),
    (r) => r.replace(/boundary="([^"]*)"/, 'boundary=$1'),
    (r) => r.replace(/boundary="[^"]*"/, `boundary="${'b'.repeat(5000)}"`),
    (r) => r.replace(/--(dsn|arf)-b--/, ''),
    (r) => r.replace('multipart/report', 'multipart/mixed'),
    (r) => r.replace('multipart/report', 'text/plain'),
    (r) => r.replace('message/delivery-status', 'message/global-delivery-status'),
    (r) => r.replace('text/rfc822-headers', 'message/rfc822'),
    (r) =>
      r.replace(
        /Content-Type: message\/(delivery-status|feedback-report)/,
        'Content-Type: message/$1\r\nContent-Transfer-Encoding: base64',
      ),
    (r) =>
      r.replace(
        /Content-Type: text\/plain; charset=us-ascii/,
        'Content-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: quoted-printable',
      ),
    (r) => r.replace(/\r\n/g, '\n'),
    (r) => r.replace(/\r\n/g, '\r'),
    (r) => r.replace(/\r\n\r\n/, '\r\n'),
    (r) => r.replace(/(Final-Recipient|Original-Rcpt-To): [^\r\n]*/, '$1: rfc822;'),
    (r) => r.replace(/Status: [^\r\n]*/, 'Status: 9.9.9.9'),
    (r) => r.replace(/Action: [^\r\n]*/, 'Action: '),
    (r) => r.replace(/Message-ID: [^\r\n]*/, 'Message-ID: <<<>>>'),
    (r) => r.replace(/Message-ID: ([^\r\n]*)/, 'Message-ID:\r\n $1'),
    (r) => r.replace(/(Final-Recipient: [^\r\n]*)/, (line) => Array(200).fill(line).join('\r\n')),
    (r) =>
      r.replace(
        '--dsn-b\r\nContent-Type: text/rfc822-headers',
        '--dsn-b\r\nContent-Type: multipart/mixed; boundary="in"\r\n\r\n--in\r\nContent-Type: message/rfc822\r\n\r\nContent-Type: multipart/report; boundary="dsn-b"\r\n\r\n--dsn-b\r\nContent-Type: text/rfc822-headers',
      ),
    (r) => `${'X-Pad: y\r\n'.repeat(2000)}${r}`,
    (r) =>
      `Content-Type: multipart/mixed; boundary="z"\r\n\r\n${'--z\r\nContent-Type: multipart/mixed; boundary="z"\r\n\r\n'.repeat(300)}${r}`,
    (r) => r.replace(/Diagnostic-Code: [^\r\n]*/, `Diagnostic-Code: smtp; ${'550 5.1.1 '.repeat(2000)}`),
  ),
);

/** A report from a seed, with 0 to 4 mutations applied in order. */
function mutated(seed: fc.Arbitrary<ReportSeed>): fc.Arbitrary<Buffer> {
  return fc.tuple(seed, fc.oneof(fc.constant([]), fc.array(mutation, { minLength: 1, maxLength: 4 }))).map(([s, ms]) =>
    Buffer.from(
      ms.reduce((r, m) => m(r), build(s).toString('latin1')),
      'latin1',
    ),
  );
}

const seedParts = {
  kind: fc.constantFrom<ReportSeed['kind']>('dsn', 'arf', 'text'),
  action: fc.constantFrom('failed', 'delayed', 'delivered', 'relayed', 'expanded', 'FAILED', ''),
  status: fc.constantFrom('5.1.1', '4.2.2', '5.7.1', '2.0.0', '5.0.0', '9.9.9', 'x'),
  feedbackType: fc.constantFrom('abuse', 'fraud', 'virus', 'other', 'not-spam', 'ABUSE', ''),
};

/** For the parser alone: any addresses and ids. */
const anySeed: fc.Arbitrary<ReportSeed> = fc.record({
  ...seedParts,
  to: fc.oneof(fc.constantFrom('b-rcp01-abc@bounce.acme.test', 'postmaster@bounce.acme.test'), oddString(60)),
  address: fc.oneof(fc.constantFrom('jane@example.org', 'JANE@EXAMPLE.ORG'), fc.emailAddress(), oddString(60)),
  messageId: fc.oneof(
    fc.constantFrom('<a@b>', 'a@b', '<>', ''),
    oddString(60).map((s) => `<${s}>`),
  ),
  returnPath: fc.option(fc.oneof(fc.constant('b-x-y@bounce.acme.test'), oddString(60)), { nil: undefined }),
});

describe('fuzz: the report parser', () => {
  const name = 'parseReport never throws on a mutated DSN, ARF or text bounce, and returns a well-formed report';
  test(name, async (t) => {
    const kinds = new Map<string, number>();
    const prop = fuzzProperty(mutated(anySeed), async (raw) => {
      const parsed = await parseReport(raw);
      assert.ok(['dsn', 'bounce', 'complaint', 'feedback', 'unknown'].includes(parsed.kind), parsed.kind);
      assert.ok(Array.isArray(parsed.recipients));
      if (parsed.kind === 'unknown') assert.equal(parsed.recipients.length, 0);
      for (const r of parsed.recipients) {
        assert.equal(typeof r.address, 'string');
        assert.ok(r.address.length > 0, 'a recipient has an address');
        assert.ok(r.status === null || typeof r.status === 'string');
      }
      assert.ok(
        parsed.originalMessageId === null || /^<[^<>\s]+>$/.test(parsed.originalMessageId),
        `Message-ID ${parsed.originalMessageId}`,
      );
      kinds.set(parsed.kind, (kinds.get(parsed.kind) ?? 0) + 1);
    });
    const { runs } = await runFuzz(FILE, name, prop);
    t.diagnostic(`${runs} generated reports: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  });
});

/** Reads a report's reply; RFC 5321 §4.2 text, enhanced code on refusals, and no internal failure (451 4.3.0). */
function assertWellFormed(reply: SmtpReply, what: string): void {
  assert.match(reply.text, /^[\t\x20-\x7e\n]*$/, `reply text is not ASCII: ${reply.code} ${reply.text} to ${what}`);
  assert.ok([2, 3, 4, 5].includes(Math.floor(reply.code / 100)), `reply code ${reply.code} to ${what}`);
  if (reply.code >= 400) {
    assert.match(
      reply.text,
      /^[45]\.\d{1,3}\.\d{1,3} /,
      `no enhanced status code in ${reply.code} ${reply.text} to ${what}`,
    );
    assert.ok(
      !(reply.code === 451 && reply.text.startsWith('4.3.0')),
      `internal failure ${reply.code} ${reply.text} to ${what}`,
    );
  }
}

for (const dialect of testDialects()) {
  describe(`fuzz: inbound MX over loopback (${dialect})`, () => {
    let t: TestDeps;
    let mx: { port: number; stop(): Promise<void> };
    let sender: Seeded;
    let secret: Buffer;
    let sent: SentMessage[];
    let victims: SentMessage;
    let wire: SmtpWire | null = null;
    const errors: string[] = [];
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => {
      rejections.push(reason);
    };

    before(async () => {
      process.on('unhandledRejection', onRejection);
      t = await createTestDeps(dialect, {
        env: { POSTHORN_LISTEN_HOST: '127.0.0.1', POSTHORN_INBOUND_PORT: '0', POSTHORN_INBOUND_RATE_LIMIT: '1000000' },
      });
      // Error-level logs are collected: a report whose processing throws is logged and left pending.
      t.log = pino(
        { level: 'error' },
        new Writable({
          write(chunk: Buffer, _enc, done) {
            errors.push(chunk.toString('utf8'));
            done();
          },
        }),
      );
      sender = await seedDomain(t, { domain: 'acme.test' });
      secret = await returnPathSecret(t);
      sent = [
        await insertDelivered(t, sender, ['jane@example.org', 'joe@example.org']),
        await insertDelivered(t, sender, ['ann@example.org']),
      ];
      // Only forged reports name these: a tokened report applied earlier cannot hide a change a forged one makes.
      victims = await insertDelivered(t, sender, ['vic@example.org', 'tim@example.org']);
      mx = await startInbound(t, await relayCertificate());
    });
    after(async () => {
      process.off('unhandledRejection', onRejection);
      wire?.destroy();
      await mx.stop();
      await t.close();
    });

    const ended = new WeakSet<SmtpWire>();
    async function session(): Promise<SmtpWire> {
      if (wire && !wire.closed && !ended.has(wire)) return wire;
      wire?.destroy();
      wire = await SmtpWire.plain(mx.port);
      assert.equal((await wire.next()).code, 220);
      assert.equal((await wire.cmd('EHLO mx.example.org')).code, 250);
      return wire;
    }
    async function cmd(w: SmtpWire, line: string): Promise<SmtpReply | null> {
      if (w.closed || ended.has(w)) return null;
      w.write(Buffer.from(`${line.replace(/[\r\n]/g, '')}\r\n`, 'utf8'));
      const reply = await w.next().catch(() => null);
      if (reply) assertWellFormed(reply, line.slice(0, 200));
      if (reply === null || reply.code === 421) {
        ended.add(w);
        w.destroy();
      }
      return reply;
    }

    /** What a report may change: recipients' status, suppressions, events, dedupe keys. */
    async function state(): Promise<{ statuses: string; suppressions: number; events: number; reports: number }> {
      const rows = await t.db.selectFrom('recipients').select(['id', 'status']).orderBy('id').execute();
      const n = async (table: 'suppressions' | 'events' | 'inbound_reports') =>
        Number(
          (
            await t.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<string | number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        statuses: rows.map((r) => `${r.id}:${r.status}`).join(','),
        suppressions: await n('suppressions'),
        events: await n('events'),
        reports: await n('inbound_reports'),
      };
    }

    async function waitProcessed(id: string): Promise<void> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const row = await t.db
          .selectFrom('inbound_reports')
          .select('state')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        if (row.state !== 'pending') return;
        if (errors.length > 0) throw new Error(`processing report ${id} failed: ${errors.join('\n').slice(0, 3000)}`);
        if (Date.now() > deadline) throw new Error(`report ${id} still pending after 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    /**
     * A report as the MX would get it. `forged`: nothing in it carries a valid return-path token (it
     * goes to postmaster or the complaint address, and any return path it quotes has a bad token).
     */
    function report(forged: boolean) {
      const address = forged
        ? fc.constantFrom('vic@example.org', 'tim@example.org', 'VIC@example.org', 'nobody@example.org')
        : fc.constantFrom(
            'jane@example.org',
            'joe@example.org',
            'ann@example.org',
            'JANE@example.org',
            'nobody@example.org',
          );
      const messageId = !forged
        ? fc.constantFrom(...sent.map((m) => m.messageId), '<x@elsewhere.test>')
        : // A forged report may quote a real message's Message-ID: every recipient sees it, so it must prove nothing (docs/inbound.md).
          fc.constantFrom(
            victims.messageId,
            '<msg_01JXXXXXXXXXXXXXXXXXXXXXXX@mail.posthorn.test>',
            '<x@elsewhere.test>',
          );
      const validPath = fc
        .constantFrom(...sent.flatMap((m) => [...m.recipients.values()]))
        .map((rid) => makeReturnPath(secret, rid, 'acme.test'));
      const victimPath = fc
        .constantFrom(...victims.recipients.values())
        .map((rid) => makeReturnPath(secret, rid, 'acme.test'));
      const forgedPath = victimPath.chain((p) =>
        fc.constantFrom(
          p.replace(/-[^-@]+@/, '-aaaaaaaaaaaaaaaa@'),
          p.replace('b-', 'b-0'),
          'b-rcp01jxxxxxxxxxxxxxxxxxxxxxxxx-abcdef@bounce.acme.test',
        ),
      );
      const rcpt = forged
        ? fc.constantFrom(
            'postmaster@bounce.acme.test',
            'POSTMASTER@bounce.acme.test',
            t.config.complaintAddress,
            `postmaster@${t.config.bounceHost}`,
          )
        : validPath;
      return fc
        .record({
          seed: fc.record({
            ...seedParts,
            to: rcpt,
            address,
            messageId,
            returnPath: fc.option(forged ? forgedPath : validPath, { nil: undefined }),
          }),
          rcpts: fc
            .tuple(rcpt, fc.array(fc.oneof(rcpt, forgedPath, fc.constant('someone@example.org')), { maxLength: 2 }))
            .map(([a, rest]) => [a, ...rest]),
          mailFrom: fc.constantFrom('<>', '<MAILER-DAEMON@mx.example.org>', '<fbl@isp.example.net>'),
        })
        .chain(({ seed, rcpts, mailFrom }) =>
          mutated(fc.constant(seed)).map((raw) => ({ raw, rcpts, mailFrom, seed })),
        );
    }

    /** Sends one report; returns the final reply (null when no recipient was taken or the session ended). */
    async function deliver(raw: Buffer, mailFrom: string, rcpts: string[]): Promise<SmtpReply | null> {
      const w = await session();
      if ((await cmd(w, `MAIL FROM:${mailFrom}`))?.code !== 250) return null;
      let taken = 0;
      for (const r of rcpts) if ((await cmd(w, `RCPT TO:<${r}>`))?.code === 250) taken++;
      let final: SmtpReply | null = null;
      if (taken > 0 && (await cmd(w, 'DATA'))?.code === 354) {
        const body = raw.toString('latin1').replace(/^\./gm, '..');
        w.write(Buffer.from(`${body.endsWith('\r\n') ? body : `${body}\r\n`}.\r\n`, 'latin1'));
        final = await w.next(30_000).catch(() => null);
        if (final) assertWellFormed(final, `DATA of ${raw.length} bytes`);
        if (final === null || final.code === 421) {
          ended.add(w);
          w.destroy();
        }
      }
      const rset = await cmd(w, 'RSET');
      if (rset) assert.ok(rset.code === 250 || rset.code === 421, `RSET: ${rset.code} ${rset.text}`);
      return final;
    }

    const name = `mutated reports get a well-formed reply, a stored one is processed without error, and a forged one changes nothing (${dialect})`;
    test(name, async (tc) => {
      const outcomes = new Map<string, number>();
      const prop = fuzzProperty(
        fc.boolean().chain((forged) => report(forged).map((r) => ({ ...r, forged }))),
        async ({ raw, rcpts, mailFrom, forged, seed }) => {
          const before = await state();
          const final = await deliver(raw, mailFrom, rcpts);
          const key = `${forged ? 'forged' : 'tokened'} ${seed.kind}: ${final ? final.code : 'no DATA'}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          if (final?.code === 250) {
            const id = /Report accepted as (rpt_[0-9A-Z]{26})/.exec(final.text)?.[1];
            assert.ok(id, `250 names the stored report: ${final.text}`);
            await waitProcessed(id);
            const now = await state();
            assert.equal(now.reports, before.reports + 1);
            if (forged) {
              // A report with no valid return-path token proves nothing: it changes no recipient,
              // suppression or event (docs/operations: unmatched reports are listed, not applied).
              assert.deepEqual(
                { ...now, reports: before.reports },
                before,
                `a forged report changed state: ${raw.toString('latin1').slice(0, 2000)}`,
              );
            }
            return;
          }
          // Refused (or never reached DATA): nothing stored, nothing changed.
          assert.deepEqual(
            await state(),
            before,
            `nothing stored for ${final ? `${final.code} ${final.text}` : 'a report that never reached DATA'}`,
          );
        },
      );
      const { runs } = await runFuzz(FILE, name, prop);
      assert.deepEqual(rejections, [], 'no unhandled rejection');
      assert.deepEqual(errors, [], 'no error logged');
      tc.diagnostic(
        `${runs} generated reports: ${[...outcomes]
          .sort()
          .map(([k, n]) => `${k} ×${n}`)
          .join(', ')}`,
      );
    });
  });
}

import { describe, test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { makeReturnPath, returnPathSecret } from '../../src/delivery/return-path.js';
import { storeReport } from '../../src/feedback/receive-report.js';
import { startInbound } from '../../src/inbound/start-inbound.js';
import { createDeliveryHarness, SENDER_DOMAIN } from '../helpers/delivery-harness.js';
import { relayCertificate, SmtpWire } from '../helpers/relay-harness.js';
import { buildArf, buildDsn, insertDelivered } from '../helpers/report-builders.js';
import { seedDomain } from '../helpers/seed.js';
import { createTestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

/** Listeners on loopback, a free port. */
const LOOPBACK = { POSTHORN_LISTEN_HOST: '127.0.0.1', POSTHORN_INBOUND_PORT: '0' };

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A raw client connected to `port`, through the greeting and EHLO; the EHLO reply is returned. */
async function connect(port: number): Promise<{ wire: SmtpWire; ehlo: string }> {
  const wire = await SmtpWire.plain(port);
  assert.equal((await wire.next()).code, 220);
  const ehlo = await wire.cmd('EHLO mx.example.org');
  assert.equal(ehlo.code, 250);
  return { wire, ehlo: ehlo.text };
}

/** Sends one message body after DATA (dot-stuffed) and returns the final reply. */
async function data(wire: SmtpWire, raw: Buffer): Promise<{ code: number; text: string }> {
  assert.equal((await wire.cmd('DATA')).code, 354);
  const body = raw.toString('latin1').replace(/^\./gm, '..');
  wire.write(`${body.endsWith('\r\n') ? body : `${body}\r\n`}.\r\n`);
  return wire.next();
}

for (const dialect of testDialects()) {
  describe(`inbound MX over loopback SMTP (${dialect})`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
    });

    async function setup(env: Record<string, string> = {}) {
      const t = await createTestDeps(dialect, { env: { ...LOOPBACK, ...env } });
      cleanup.push(() => t.close());
      const sender = await seedDomain(t, { domain: 'acme.test' });
      const secret = await returnPathSecret(t);
      const mx = await startInbound(t, await relayCertificate());
      cleanup.push(() => mx.stop());
      const wires: SmtpWire[] = [];
      cleanup.push(async () => wires.forEach((w) => w.destroy()));
      const open = async () => {
        const c = await connect(mx.port);
        wires.push(c.wire);
        return c;
      };
      return { t, sender, secret, mx, open };
    }

    test('a DSN from the null sender to a valid return path is stored before the 250 and applied', async () => {
      const { t, sender, secret, open } = await setup();
      const sent = await insertDelivered(t, sender, ['jane@example.org']);
      const path = makeReturnPath(secret, sent.recipients.get('jane@example.org')!, 'acme.test');
      const { wire, ehlo } = await open();
      assert.match(ehlo, /STARTTLS/, 'STARTTLS is offered');
      assert.match(ehlo, /SIZE \d+/);
      assert.doesNotMatch(ehlo, /AUTH/, 'no AUTH on an MX');
      assert.equal((await wire.cmd('MAIL FROM:<>')).code, 250, 'null sender accepted (RFC 5321 §4.5.5)');
      assert.equal((await wire.cmd(`RCPT TO:<${path}>`)).code, 250);
      const reply = await data(
        wire,
        buildDsn({ to: path, recipients: [{ address: 'jane@example.org', action: 'failed', status: '5.1.1' }] }),
      );
      assert.equal(reply.code, 250);
      const id = /Report accepted as (rpt_[0-9A-Z]{26})/.exec(reply.text)?.[1];
      assert.ok(id, reply.text);
      const row = await t.db
        .selectFrom('inbound_reports')
        .select(['mail_from', 'rcpt_to', 'remote_address'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...row, rcpt_to: JSON.parse(row.rcpt_to) },
        { mail_from: '', rcpt_to: [path], remote_address: '127.0.0.1' },
      );
      await waitFor(
        'the failed event',
        async () =>
          (await t.db.selectFrom('events').select('id').where('event', '=', 'failed').executeTakeFirst()) ?? undefined,
      );
      const sup = await t.db
        .selectFrom('suppressions')
        .select('reason')
        .where('address', '=', 'jane@example.org')
        .executeTakeFirstOrThrow();
      assert.equal(sup.reason, 'hard_bounce');
    });

    test('no relaying: other domains 550 5.7.1; unknown or forged local parts at our bounce domains 550 5.1.1; the complaint address, postmaster and the bounce host are ours', async () => {
      const { t, sender, secret, open } = await setup();
      const sent = await insertDelivered(t, sender, ['jane@example.org']);
      const rcp = sent.recipients.get('jane@example.org')!;
      const path = makeReturnPath(secret, rcp, 'acme.test');
      const { wire } = await open();
      assert.equal((await wire.cmd('MAIL FROM:<mailer-daemon@mx.example.org>')).code, 250);
      const relay = await wire.cmd('RCPT TO:<victim@gmail.example>');
      assert.equal(relay.code, 550);
      assert.match(relay.text, /^5\.7\.1 Relaying denied/);
      const unknownBounceDomain = await wire.cmd(
        `RCPT TO:<${path.replace('@bounce.acme.test', '@bounce.stranger.test')}>`,
      );
      assert.equal(unknownBounceDomain.code, 550);
      assert.match(unknownBounceDomain.text, /^5\.7\.1/);
      const forged = await wire.cmd(`RCPT TO:<${path.replace(/-[0-9a-z]{12}@/, '-zzzzzzzzzzzz@')}>`);
      assert.equal(forged.code, 550);
      assert.match(forged.text, /^5\.1\.1 .*token does not verify/);
      const nobody = await wire.cmd('RCPT TO:<postmaster-x@bounce.acme.test>');
      assert.equal(nobody.code, 550);
      assert.match(nobody.text, /^5\.1\.1 .*not a Posthorn return path/);
      // RFC 5321 §4.5.1: postmaster (any case) is taken at every domain the server delivers for.
      assert.equal((await wire.cmd('RCPT TO:<PostMaster@bounce.acme.test>')).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<postmaster@${t.config.bounceHost}>`)).code, 250);
      assert.equal(
        (await wire.cmd('RCPT TO:<postmaster@gmail.example>')).code,
        550,
        'but not at domains that are not ours',
      );
      assert.equal((await wire.cmd(`RCPT TO:<${t.config.complaintAddress.toUpperCase()}>`)).code, 250);
      const atBounceHost = path.replace('@bounce.acme.test', `@${t.config.bounceHost}`);
      assert.equal((await wire.cmd(`RCPT TO:<${atBounceHost}>`)).code, 250, 'the same token at the bounce host itself');
      await wire.cmd('RSET');
      // A complaint to the complaint address: matched through the token in Original-Mail-From.
      assert.equal((await wire.cmd('MAIL FROM:<fbl@isp.example.net>')).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<${t.config.complaintAddress}>`)).code, 250);
      assert.equal(
        (
          await data(
            wire,
            buildArf({ to: t.config.complaintAddress, originalMailFrom: path, rcptTo: 'jane@example.org' }),
          )
        ).code,
        250,
      );
      await waitFor(
        'the complained event',
        async () =>
          (await t.db.selectFrom('events').select('id').where('event', '=', 'complained').executeTakeFirst()) ??
          undefined,
      );
    });

    test('size: a SIZE over the limit is refused at MAIL, a report over it at the end of DATA (552 5.3.4), and nothing is stored', async () => {
      const { t, open } = await setup({ POSTHORN_INBOUND_MAX_SIZE: '4KB' });
      const { wire, ehlo } = await open();
      assert.match(ehlo, /SIZE 4096/);
      const big = await wire.cmd('MAIL FROM:<> SIZE=5000');
      assert.equal(big.code, 552);
      assert.equal((await wire.cmd('MAIL FROM:<>')).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<${t.config.complaintAddress}>`)).code, 250);
      const over = await data(wire, Buffer.from(`Subject: big\r\n\r\n${'x'.repeat(70).concat('\r\n').repeat(80)}`));
      assert.equal(over.code, 552);
      assert.match(over.text, /^5\.3\.4 /);
      assert.deepEqual(await t.db.selectFrom('inbound_reports').select('id').execute(), []);
    });

    test('rate limit: beyond POSTHORN_INBOUND_RATE_LIMIT transactions a minute from one IP, 421 4.7.0 and the connection closes', async () => {
      const { t, open } = await setup({ POSTHORN_INBOUND_RATE_LIMIT: '2' });
      const { wire } = await open();
      for (let i = 0; i < 2; i++) {
        assert.equal((await wire.cmd('MAIL FROM:<>')).code, 250);
        await wire.cmd('RSET');
      }
      const limited = await wire.cmd('MAIL FROM:<>');
      assert.equal(limited.code, 421);
      assert.match(limited.text, /^4\.7\.0 Too many reports from 127\.0\.0\.1/);
      await waitFor('the connection to close', async () => (wire.closed ? true : undefined));
      // A minute later (the clock is the deps' clock) the client is let in again.
      t.clock.advance(60_000);
      const again = await open();
      assert.equal((await again.wire.cmd('MAIL FROM:<>')).code, 250);
    });

    test('a database failure while storing is 451 4.3.0 (the sender keeps the report and retries)', async () => {
      const { t, open } = await setup();
      const { wire } = await open();
      assert.equal((await wire.cmd('MAIL FROM:<>')).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<${t.config.complaintAddress}>`)).code, 250);
      await t.db.destroy();
      const reply = await data(wire, buildArf({ to: t.config.complaintAddress, rcptTo: 'jane@example.org' }));
      assert.equal(reply.code, 451);
      assert.match(reply.text, /^4\.3\.0 .*not accepted/);
    });

    test('a report left pending by a crash is processed when the inbound role starts', async () => {
      const t = await createTestDeps(dialect, { env: LOOPBACK });
      cleanup.push(() => t.close());
      const sender = await seedDomain(t, { domain: 'acme.test' });
      const secret = await returnPathSecret(t);
      const sent = await insertDelivered(t, sender, ['jane@example.org']);
      const path = makeReturnPath(secret, sent.recipients.get('jane@example.org')!, 'acme.test');
      const id = await storeReport(t, {
        raw: buildDsn({ to: path, recipients: [{ address: 'jane@example.org', action: 'failed', status: '5.1.1' }] }),
        mailFrom: '',
        rcptTo: [path],
        remoteAddress: '192.0.2.1',
      });
      const mx = await startInbound(t, await relayCertificate());
      cleanup.push(() => mx.stop());
      await waitFor('the pending report to be processed', async () => {
        const row = await t.db
          .selectFrom('inbound_reports')
          .select('state')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        return row.state === 'processed' ? true : undefined;
      });
      assert.equal((await t.db.selectFrom('events').select('event').where('event', '=', 'failed').execute()).length, 1);
    });

    test('end to end: a message delivered to the sink MX, its DSN sent to the inbound MX at its return path → failed and suppressed', async () => {
      const h = await createDeliveryHarness(dialect, { env: LOOPBACK });
      cleanup.push(() => h.close());
      const mx = await startInbound(h.deps, await relayCertificate());
      cleanup.push(() => mx.stop());
      const res = await h.send({
        from: `hello@${SENDER_DOMAIN}`,
        to: 'gone@example.org',
        subject: 'Welcome',
        html: '<p>Hi</p>',
        tags: ['welcome'],
      });
      assert.equal(res.status, 202);
      await h.run();
      const [delivered] = h.received('gone@example.org');
      assert.ok(delivered, 'the sink received the message');
      const returnPath = delivered.mailFrom;
      const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(delivered.raw.toString('latin1'))?.[1];
      assert.equal(messageId, `<${res.body.id}@${h.deps.config.hostname}>`);
      assert.deepEqual(await h.timeline(res.body.id, 'gone@example.org'), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
      ]);

      const wire = await SmtpWire.plain(mx.port);
      cleanup.push(async () => wire.destroy());
      assert.equal((await wire.next()).code, 220);
      assert.equal((await wire.cmd('EHLO mx.example.org')).code, 250);
      assert.equal((await wire.cmd('MAIL FROM:<>')).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<${returnPath}>`)).code, 250);
      const dsn = buildDsn({
        to: returnPath,
        returnPath,
        messageId,
        recipients: [
          {
            address: 'gone@example.org',
            action: 'failed',
            status: '5.1.1',
            diagnostic: '550 5.1.1 The email account that you tried to reach does not exist',
          },
        ],
      });
      assert.equal((await data(wire, dsn)).code, 250);
      assert.equal((await wire.cmd('QUIT')).code, 221);

      const failed = await waitFor('the failed event', async () =>
        (await h.events(res.body.id, 'gone@example.org')).find((e) => e.event === 'failed'),
      );
      assert.equal(failed.details.bounce_class, 'hard');
      assert.equal(failed.details.source, 'dsn');
      const sup = await h.deps.db
        .selectFrom('suppressions')
        .select(['reason', 'message_id'])
        .where('address', '=', 'gone@example.org')
        .executeTakeFirstOrThrow();
      assert.deepEqual(sup, { reason: 'hard_bounce', message_id: res.body.id });
      // The API refuses the address now (docs/api.md, Suppression).
      const again = await h.send({
        from: `hello@${SENDER_DOMAIN}`,
        to: 'gone@example.org',
        subject: 'Again',
        html: '<p>Hi</p>',
      });
      assert.equal(again.status, 422);
      assert.equal(again.body.error?.type, 'recipient_suppressed');
    });
  });
}

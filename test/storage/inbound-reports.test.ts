import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { groupSubject, makeReturnPath, returnPathSecret } from '../../src/delivery/return-path.js';
import { processPendingReports, processReport } from '../../src/feedback/process-report.js';
import { receiveReport, storeReport } from '../../src/feedback/receive-report.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { buildArf, buildDsn, insertDelivered, type SentMessage } from '../helpers/report-builders.js';

const RCPT = 'jane@example.org';

for (const dialect of testDialects()) {
  describe(`inbound reports: matching, outcomes and dedupe (${dialect})`, () => {
    let t: TestDeps;
    let sender: Seeded;
    let secret: Buffer;
    let sent: SentMessage;
    /** The return path the delivery engine used for `sent`'s only recipient. */
    let returnPath: string;

    beforeEach(async () => {
      t = await createTestDeps(dialect);
      sender = await seedDomain(t, { domain: 'acme.test' });
      secret = await returnPathSecret(t);
      sent = await insertDelivered(t, sender, [RCPT]);
      returnPath = makeReturnPath(secret, sent.recipients.get(RCPT)!, 'acme.test');
    });
    afterEach(async () => t.close());

    const receive = (raw: Buffer, rcptTo: string[]) =>
      receiveReport(t, { raw, mailFrom: '', rcptTo, remoteAddress: '192.0.2.1' });
    const events = async (name?: string) => {
      let q = t.db.selectFrom('events').selectAll().where('message_id', '=', sent.id).where('event', '!=', 'delivered');
      if (name) q = q.where('event', '=', name);
      return (await q.orderBy('id').execute()).map((e) => ({
        ...e,
        details: JSON.parse(e.details) as Record<string, unknown>,
        tags: JSON.parse(e.tags) as string[],
      }));
    };
    const suppressions = () =>
      t.db
        .selectFrom('suppressions')
        .select(['address', 'reason', 'message_id'])
        .where('account_id', '=', sender.accountId)
        .execute();
    const recipientStatus = async () =>
      (
        await t.db
          .selectFrom('recipients')
          .select('status')
          .where('id', '=', sent.recipients.get(RCPT)!)
          .executeTakeFirstOrThrow()
      ).status;
    const reportRow = (id: string) =>
      t.db.selectFrom('inbound_reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    test('a hard DSN to the return path: failed with the bounce details, suppressed as hard_bounce, recipient failed, report processed', async () => {
      const raw = buildDsn({
        to: returnPath,
        recipients: [
          {
            address: RCPT,
            action: 'failed',
            status: '5.1.1',
            diagnostic: '550 5.1.1 <jane@example.org>: user unknown',
          },
        ],
      });
      const { reportId, result } = await receive(raw, [returnPath]);
      assert.equal(result?.match, 'matched');
      assert.equal(result?.via, 'token');
      const [failed, ...more] = await events();
      assert.equal(more.length, 0);
      assert.equal(failed?.event, 'failed');
      assert.equal(failed?.recipient, RCPT);
      assert.equal(failed?.from_address, 'hello@acme.test');
      assert.equal(failed?.subject, 'Your receipt');
      assert.deepEqual(failed?.tags, ['receipt']);
      assert.deepEqual(failed?.details, {
        bounce_class: 'hard',
        bounce_reason: 'user_unknown',
        status: '5.1.1',
        diagnostic: '550 5.1.1 <jane@example.org>: user unknown',
        source: 'dsn',
        report_id: reportId,
      });
      assert.deepEqual(await suppressions(), [{ address: RCPT, reason: 'hard_bounce', message_id: sent.id }]);
      assert.equal(await recipientStatus(), 'failed');
      const row = await reportRow(reportId);
      assert.equal(row.state, 'processed');
      assert.equal(Number(row.processed_at), t.clock.now());
      assert.equal(row.mail_from, '');
      assert.deepEqual(JSON.parse(row.rcpt_to), [returnPath]);
      const stored = JSON.parse(row.result as string) as {
        recipients: { applied: string; event: string; suppressed: boolean }[];
      };
      assert.deepEqual(
        stored.recipients.map((r) => [r.applied, r.event, r.suppressed]),
        [['event', 'failed', true]],
      );
      assert.equal(Buffer.from(row.raw, 'latin1').equals(raw), true, 'the raw report is kept byte for byte');
    });

    test('a policy block (5.7.1): failed with bounce_class block and no suppression', async () => {
      const raw = buildDsn({
        to: returnPath,
        recipients: [
          {
            address: RCPT,
            action: 'failed',
            status: '5.7.1',
            diagnostic: '554 5.7.1 Service unavailable; client host blocked using zen.spamhaus.org',
          },
        ],
      });
      await receive(raw, [returnPath]);
      const [failed] = await events('failed');
      assert.equal(failed?.details.bounce_class, 'block');
      assert.deepEqual(await suppressions(), []);
      assert.equal(await recipientStatus(), 'failed');
    });

    test('failed with a 4.x.x status (mailbox full, the remote gave up): failed soft, not suppressed', async () => {
      await receive(
        buildDsn({
          to: returnPath,
          recipients: [{ address: RCPT, action: 'failed', status: '4.2.2', diagnostic: '452 4.2.2 mailbox full' }],
        }),
        [returnPath],
      );
      const [failed] = await events('failed');
      assert.equal(failed?.details.bounce_class, 'soft');
      assert.deepEqual(await suppressions(), []);
    });

    test('action delayed: no event, no suppression, recipient unchanged; the result says why', async () => {
      const { reportId, result } = await receive(
        buildDsn({
          to: returnPath,
          recipients: [{ address: RCPT, action: 'delayed', status: '4.4.7', diagnostic: '421 4.4.7 try later' }],
        }),
        [returnPath],
      );
      assert.deepEqual(await events(), []);
      assert.deepEqual(await suppressions(), []);
      assert.equal(await recipientStatus(), 'delivered');
      assert.equal(result?.recipients[0]?.applied, 'none');
      assert.match(result?.recipients[0]?.why ?? '', /delayed/);
      assert.equal((await reportRow(reportId)).state, 'processed');
    });

    test('an ARF complaint to the complaint address, token in Original-Mail-From: complained, suppressed as complaint', async () => {
      const raw = buildArf({
        to: t.config.complaintAddress,
        originalMailFrom: returnPath,
        rcptTo: RCPT,
        messageId: sent.messageId,
      });
      const { reportId, result } = await receive(raw, [t.config.complaintAddress]);
      assert.equal(result?.via, 'token');
      const [complained, ...more] = await events();
      assert.equal(more.length, 0);
      assert.equal(complained?.event, 'complained');
      assert.deepEqual(complained?.details, {
        feedback_type: 'abuse',
        user_agent: 'ExampleFBL/1.0',
        report_id: reportId,
      });
      assert.deepEqual(await suppressions(), [{ address: RCPT, reason: 'complaint', message_id: sent.id }]);
      assert.equal(await recipientStatus(), 'complained');
    });

    test('the same report received twice gives one event; the second is recorded as a duplicate', async () => {
      const raw = buildDsn({ to: returnPath, recipients: [{ address: RCPT, action: 'failed', status: '5.1.1' }] });
      const first = await receive(raw, [returnPath]);
      const second = await receive(raw, [returnPath]);
      assert.notEqual(first.reportId, second.reportId);
      assert.equal((await events('failed')).length, 1);
      assert.equal(second.result?.recipients[0]?.applied, 'duplicate');
      const arf = buildArf({ to: t.config.complaintAddress, originalMailFrom: returnPath, rcptTo: RCPT });
      await receive(arf, [t.config.complaintAddress]);
      await receive(arf, [t.config.complaintAddress]);
      assert.equal((await events('complained')).length, 1);
    });

    test('one stored report processed by two processors at once is applied once', async () => {
      const id = await storeReport(t, {
        raw: buildDsn({ to: returnPath, recipients: [{ address: RCPT, action: 'failed', status: '5.1.1' }] }),
        mailFrom: '',
        rcptTo: [returnPath],
        remoteAddress: '192.0.2.1',
      });
      const results = await Promise.all([processReport(t, id, secret), processReport(t, id, secret)]);
      assert.equal(results.filter((r) => r !== null).length, 1);
      assert.equal((await events('failed')).length, 1);
    });

    test('a forged bounce (token that does not verify) changes nothing, even with our Message-ID in it', async () => {
      const forged = returnPath.replace(/-([0-9a-z]{12})@/, '-aaaaaaaaaaaa@');
      assert.notEqual(forged, returnPath);
      const raw = buildDsn({
        to: forged,
        recipients: [{ address: RCPT, action: 'failed', status: '5.1.1' }],
        messageId: sent.messageId,
      });
      const { reportId, result } = await receive(raw, [forged]);
      assert.equal(result?.match, 'forged');
      assert.match(result?.why ?? '', /does not verify/);
      assert.deepEqual(await events(), []);
      assert.deepEqual(await suppressions(), []);
      assert.equal(await recipientStatus(), 'delivered');
      assert.equal((await reportRow(reportId)).state, 'processed');
      // The same for a complaint whose Original-Mail-From carries the forged token.
      await receive(
        buildArf({ to: t.config.complaintAddress, originalMailFrom: forged, rcptTo: RCPT, messageId: sent.messageId }),
        [t.config.complaintAddress],
      );
      assert.deepEqual(await events(), []);
    });

    test('a report that matches nothing changes nothing and says why', async () => {
      const other = buildDsn({
        to: 'bounces@elsewhere.example',
        recipients: [{ address: RCPT, action: 'failed', status: '5.1.1' }],
        messageId: '<abc@elsewhere.example>',
      });
      const { result } = await receive(other, [t.config.complaintAddress]);
      assert.equal(result?.match, 'unmatched');
      assert.equal(result?.why, 'no return-path token');
      const unknownMessage = buildArf({
        to: t.config.complaintAddress,
        rcptTo: RCPT,
        messageId: `<msg_01JD0000000000000000000000@${t.config.hostname}>`,
      });
      assert.equal((await receive(unknownMessage, [t.config.complaintAddress])).result?.match, 'unmatched');
      const notReport = Buffer.from('From: someone@example.org\r\nTo: fbl@x\r\nSubject: hi\r\n\r\nhello\r\n');
      assert.equal((await receive(notReport, [t.config.complaintAddress])).result?.kind, 'unknown');
      assert.deepEqual(await events(), []);
      assert.deepEqual(await suppressions(), []);
    });

    test('no token at all: a DSN to postmaster or a complaint quoting our real Message-ID changes nothing and is stored unmatched', async () => {
      const postmaster = `postmaster@bounce.acme.test`;
      const dsn = buildDsn({
        to: postmaster,
        recipients: [{ address: RCPT, action: 'failed', status: '5.1.1' }],
        messageId: sent.messageId,
      });
      const bounced = await receive(dsn, [postmaster]);
      assert.equal(bounced.result?.match, 'unmatched');
      assert.equal(bounced.result?.via, null);
      assert.match(
        bounced.result?.why ?? '',
        new RegExp(
          `no return-path token \\(it quotes the Message-ID of ${sent.id}, which every recipient saw and which proves nothing\\)`,
        ),
      );
      const arf = buildArf({ to: t.config.complaintAddress, rcptTo: RCPT, messageId: sent.messageId });
      const complained = await receive(arf, [t.config.complaintAddress]);
      assert.equal(complained.result?.match, 'unmatched');
      // Redacted, as many feedback loops send it: still nothing, even though the message has one recipient.
      assert.equal(
        (
          await receive(buildArf({ to: t.config.complaintAddress, messageId: sent.messageId }), [
            t.config.complaintAddress,
          ])
        ).result?.match,
        'unmatched',
      );
      assert.deepEqual(await events(), []);
      assert.deepEqual(await suppressions(), []);
      assert.equal(await recipientStatus(), 'delivered');
      for (const id of [bounced.reportId, complained.reportId]) {
        const row = await reportRow(id);
        assert.equal(row.state, 'processed');
        assert.equal((JSON.parse(row.result as string) as { match: string }).match, 'unmatched');
      }
    });

    test('a legacy message-wide return path (msg_, shared by every recipient): each DSN recipient is matched by address, failed but never suppressed', async () => {
      const multi = await insertDelivered(t, sender, ['a@example.org', 'b@example.org', 'c@example.org']);
      const path = makeReturnPath(secret, multi.id, 'acme.test');
      const raw = buildDsn({
        to: path,
        recipients: [
          { address: 'B@Example.org', action: 'failed', status: '5.1.1' },
          { address: 'c@example.org', action: 'delayed', status: '4.4.1' },
          { address: 'stranger@example.org', action: 'failed', status: '5.1.1' },
        ],
      });
      const { result } = await receive(raw, [path]);
      assert.equal(result?.scope, 'shared');
      assert.deepEqual(result?.unmatched, ['stranger@example.org']);
      const rows = await t.db
        .selectFrom('events')
        .select(['event', 'recipient'])
        .where('message_id', '=', multi.id)
        .where('event', '!=', 'delivered')
        .execute();
      assert.deepEqual(rows, [{ event: 'failed', recipient: 'b@example.org' }]);
      assert.equal(result?.recipients[0]?.suppressed, false);
      assert.match(result?.recipients[0]?.why ?? '', /not suppressed: the return-path token was shared/);
      assert.deepEqual(await t.db.selectFrom('suppressions').select('address').execute(), []);
    });

    test("co-recipients: a group token reaches only its transaction's domain and never suppresses; a recipient token touches only its own recipient", async () => {
      const multi = await insertDelivered(t, sender, ['ann@example.org', 'bob@example.org', 'cy@other.example']);
      const ann = multi.recipients.get('ann@example.org')!;
      const group = makeReturnPath(secret, groupSubject(ann), 'acme.test');
      // Ann saw the group token (her copy's Return-Path) and forges a hard bounce and a complaint about Bob and Cy.
      const dsn = buildDsn({
        to: group,
        recipients: [
          { address: 'bob@example.org', action: 'failed', status: '5.1.1' },
          { address: 'cy@other.example', action: 'failed', status: '5.1.1' },
        ],
      });
      const bounced = await receive(dsn, [group]);
      assert.equal(bounced.result?.scope, 'shared');
      assert.deepEqual(
        bounced.result?.unmatched,
        ['cy@other.example'],
        'the group is the recipients at example.org only',
      );
      assert.deepEqual(
        bounced.result?.recipients.map((r) => [r.address, r.event, r.suppressed]),
        [['bob@example.org', 'failed', false]],
      );
      const arf = buildArf({ to: t.config.complaintAddress, originalMailFrom: group, rcptTo: 'bob@example.org' });
      const complained = await receive(arf, [t.config.complaintAddress]);
      assert.deepEqual(
        complained.result?.recipients.map((r) => [r.address, r.event, r.suppressed]),
        [['bob@example.org', 'complained', false]],
      );
      assert.deepEqual(
        await t.db.selectFrom('suppressions').select('address').execute(),
        [],
        'nobody is suppressed through a shared token',
      );
      const cy = await t.db
        .selectFrom('recipients')
        .select('status')
        .where('id', '=', multi.recipients.get('cy@other.example')!)
        .executeTakeFirstOrThrow();
      assert.equal(cy.status, 'delivered');
      // A recipient token names its recipient whatever address the report puts forward.
      const own = makeReturnPath(secret, sent.recipients.get(RCPT)!, 'acme.test');
      const aimed = await receive(
        buildDsn({ to: own, recipients: [{ address: 'bob@example.org', action: 'failed', status: '5.1.1' }] }),
        [own],
      );
      assert.equal(aimed.result?.scope, 'recipient');
      assert.deepEqual(
        aimed.result?.recipients.map((r) => r.address),
        [RCPT],
      );
      assert.deepEqual(
        (await t.db.selectFrom('suppressions').select('address').execute()).map((r) => r.address),
        [RCPT],
      );
    });

    test('crash between storing and processing: the pending pass processes the report', async () => {
      const raw = buildDsn({ to: returnPath, recipients: [{ address: RCPT, action: 'failed', status: '5.1.1' }] });
      const id = await storeReport(t, { raw, mailFrom: '', rcptTo: [returnPath], remoteAddress: '192.0.2.1' });
      assert.equal((await reportRow(id)).state, 'pending');
      // A report younger than the minimum age is left to whoever is processing it right now.
      assert.equal(await processPendingReports(t, secret, { minAgeMs: 60_000 }), 0);
      t.clock.advance(60_000);
      assert.equal(await processPendingReports(t, secret, { minAgeMs: 60_000 }), 1);
      assert.equal((await reportRow(id)).state, 'processed');
      assert.equal((await events('failed')).length, 1);
      assert.equal(await processPendingReports(t, secret), 0, 'nothing is left pending');
    });

    test('a report with a NUL byte is refused before anything is stored', async () => {
      await assert.rejects(
        storeReport(t, {
          raw: Buffer.from('To: x\r\n\r\na\0b'),
          mailFrom: '',
          rcptTo: [returnPath],
          remoteAddress: '192.0.2.1',
        }),
        /NUL/,
      );
      assert.equal((await t.db.selectFrom('inbound_reports').select('id').execute()).length, 0);
    });
  });
}

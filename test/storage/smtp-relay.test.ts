// The SMTP relay, on every test database: real clients (nodemailer, a raw socket) over
// loopback to both listeners, the one submit pipeline shared with the HTTP app, delivery to the
// scripted sink MX, and the fake clock moved instead of sleeping.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { createSmtpCredential, revokeSmtpCredential } from '../../src/credentials/smtp-credentials.js';
import { addSuppression } from '../../src/suppression/manage-suppressions.js';
import { findAccount } from '../../src/accounts/accounts.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { BRAND_DOMAIN, MX_DOMAIN, SENDER_DOMAIN } from '../helpers/delivery-harness.js';
import { createRelayHarness, type RelayHarness, type RelayHarnessOptions } from '../helpers/relay-harness.js';
import { testDialects } from '../helpers/test-db.js';

const at = (local: string) => `${local}@${MX_DOMAIN}`;
/** A binary attachment: every byte value, so any re-encoding shows. */
const ATTACHMENT = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) % 256));

type SmtpFailure = Error & { responseCode?: number; response?: string; code?: string };

/** Sends and expects a refusal; returns nodemailer's error. */
async function refused(send: Promise<unknown>): Promise<SmtpFailure> {
  try {
    await send;
  } catch (err) {
    return err as SmtpFailure;
  }
  assert.fail('the relay accepted what it should have refused');
}

/** The id in `250 2.0.0 Queued as msg_…`. */
function queuedId(response: string): string {
  const m = /^250 2\.0\.0 Queued as (msg_[0-9a-z]+)/i.exec(response);
  assert.ok(m, `a 250 reply naming the message: ${response}`);
  return m[1]!;
}

/** The header section of a raw message, lines unfolded. */
function headerLines(raw: Buffer): string[] {
  const end = raw.indexOf('\r\n\r\n');
  return raw
    .toString('latin1', 0, end)
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n');
}
const headerCount = (raw: Buffer, name: string) =>
  headerLines(raw).filter((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`)).length;

/** A raw RFC 5322 message with CRLF line ends. */
function rawMessage(headers: string[], body: string): string {
  return `${headers.join('\r\n')}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}`;
}

for (const dialect of testDialects()) {
  describe(`SMTP relay (${dialect})`, () => {
    let h: RelayHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });
    const harness = async (opts?: RelayHarnessOptions) => {
      h = await createRelayHarness(dialect, opts);
      return h;
    };

    /** The transport that keeps a Bcc header in the submitted bytes, as some clients do, so the relay has to remove it. */
    const keepingBcc = (t: Transporter<SMTPTransport.SentMessageInfo>) => {
      t.use('stream', (mail, done) => {
        mail.message.keepBcc = true;
        done();
      });
      return t;
    };

    const messageCount = async (hx: RelayHarness) =>
      Number(
        (
          await hx.deps.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const systemRejections = async (hx: RelayHarness) =>
      (
        await hx.deps.db
          .selectFrom('events')
          .select(['recipient', 'details'])
          .where('event', '=', 'rejected-by-system')
          .orderBy('recipient')
          .execute()
      ).map((r) => ({ recipient: r.recipient, details: JSON.parse(r.details) as Record<string, unknown> }));

    for (const implicitTls of [false, true]) {
      test(`nodemailer over ${implicitTls ? 'implicit TLS (RFC 8314)' : 'STARTTLS'}: text, html, an attachment, To/Cc/Bcc; each delivered once, DKIM-signed, Bcc and X-Posthorn-* gone`, async () => {
        const hx = await harness();
        const [to, cc, bcc] = [at('ok-to'), at('ok-cc'), at('ok-bcc')];
        const info = await keepingBcc(hx.client({ implicitTls })).sendMail({
          from: `"Acme Billing" <billing@${SENDER_DOMAIN}>`,
          to: `Pat <${to}>`,
          cc,
          bcc,
          subject: 'Your invoice — März',
          text: 'Invoice attached.\nThanks!',
          html: '<p>Invoice attached.</p><p>Thanks!</p>',
          attachments: [{ filename: 'invoice.bin', content: ATTACHMENT, contentType: 'application/octet-stream' }],
          headers: { 'X-Posthorn-Tags': 'invoice, smtp', 'X-Campaign': 'q4' },
        });
        assert.deepEqual([...info.accepted].sort(), [bcc, cc, to].sort());
        assert.deepEqual(info.rejected, []);
        const id = queuedId(info.response);
        await hx.run();

        for (const rcpt of [to, cc, bcc]) {
          const got = hx.received(rcpt);
          assert.equal(got.length, 1, `${rcpt} received the message once`);
          const mail = got[0]!;
          assert.ok(mail.rcptTo.includes(rcpt));
          const dkim = await hx.verifyDkim(mail.raw);
          assert.deepEqual(
            dkim.map((d) => [d.result, d.domain, d.selector]),
            [['pass', SENDER_DOMAIN, hx.sender.selector]],
            JSON.stringify(dkim),
          );
          assert.equal(headerCount(mail.raw, 'bcc'), 0, 'no Bcc header leaves the service');
          assert.equal(
            headerLines(mail.raw).filter((l) => /^x-posthorn-/i.test(l)).length,
            0,
            'X-Posthorn-* headers are removed',
          );
          assert.equal(headerCount(mail.raw, 'x-campaign'), 1, 'other headers pass through');
          for (const owned of ['from', 'message-id', 'date', 'subject', 'to', 'mime-version'])
            assert.equal(headerCount(mail.raw, owned), 1, `one ${owned}`);
          const parsed = await simpleParser(mail.raw);
          assert.equal(parsed.subject, 'Your invoice — März');
          assert.deepEqual(parsed.from?.value, [{ name: 'Acme Billing', address: `billing@${SENDER_DOMAIN}` }]);
          assert.equal(parsed.text?.trim(), 'Invoice attached.\nThanks!');
          assert.equal(parsed.html, '<p>Invoice attached.</p><p>Thanks!</p>');
          assert.equal(parsed.attachments.length, 1);
          assert.equal(parsed.attachments[0]!.filename, 'invoice.bin');
          assert.ok(parsed.attachments[0]!.content.equals(ATTACHMENT), 'attachment bytes intact');
          assert.equal(parsed.messageId, info.messageId, 'the submitted Message-ID is kept');
        }
        const events = await hx.apiEvents(id);
        for (const rcpt of [to, cc, bcc]) {
          assert.deepEqual(
            events.filter((e) => e.to === rcpt).map((e) => e.event),
            ['accepted-by-system', 'accepted-by-mta', 'delivered'],
            rcpt,
          );
        }
        for (const e of events) {
          assert.deepEqual(e.tags, ['invoice', 'smtp'], 'tags from X-Posthorn-Tags');
          assert.equal(e.message_id, id);
          assert.equal(e.subject, 'Your invoice — März');
        }
      });
    }

    test('GET /v1/events shows the same events for a message over SMTP as for the same message over HTTP', async () => {
      const hx = await harness();
      const rcpts = [at('ok-one'), at('ok-two'), at('ok-three')];
      const common = { subject: 'Same message', text: 'Hello there', html: '<p>Hello there</p>' };
      const http = await hx.send({ from: `hello@${SENDER_DOMAIN}`, to: rcpts, tags: ['parity'], ...common });
      assert.equal(http.status, 202, JSON.stringify(http.body));
      const smtp = await hx
        .client({ implicitTls: false })
        .sendMail({ from: `hello@${SENDER_DOMAIN}`, to: rcpts, headers: { 'X-Posthorn-Tags': 'parity' }, ...common });
      const smtpId = queuedId(smtp.response);
      await hx.run();
      const view = async (id: string) => {
        const events = await hx.apiEvents(id);
        return {
          perRecipient: Object.fromEntries(rcpts.map((r) => [r, events.filter((e) => e.to === r).map((e) => e.event)])),
          shared: [...new Set(events.map((e) => JSON.stringify([e.from, e.subject, e.tags])))],
        };
      };
      const overHttp = await view(http.body.id);
      const overSmtp = await view(smtpId);
      assert.deepEqual(overSmtp, overHttp);
      assert.deepEqual(overHttp.perRecipient[rcpts[0]!], ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.deepEqual(overHttp.shared, [JSON.stringify([`hello@${SENDER_DOMAIN}`, 'Same message', ['parity']])]);
    });

    test('EHLO: the host name, SIZE 10 MiB, 8BITMIME, SMTPUTF8, PIPELINING, ENHANCEDSTATUSCODES; AUTH only after TLS, before it 538 5.7.11', async () => {
      const hx = await harness();
      const { wire, greeting } = await hx.wire('plain');
      assert.equal(greeting.code, 220);
      assert.match(greeting.text, /^mail\.posthorn\.test /);
      const ehlo = await wire.cmd('EHLO client.posthorn.test');
      assert.equal(ehlo.code, 250);
      const lines = ehlo.text.split('\n');
      assert.match(lines[0]!, /^mail\.posthorn\.test\b/);
      for (const ext of ['PIPELINING', '8BITMIME', 'SMTPUTF8', 'ENHANCEDSTATUSCODES', 'STARTTLS', 'SIZE 10485760'])
        assert.ok(lines.includes(ext), `${ext} in ${ehlo.text}`);
      assert.ok(!lines.some((l) => l.startsWith('AUTH')), 'AUTH is not offered before TLS');
      const early = await wire.auth(hx.credential.username, hx.credential.password);
      assert.equal(early.code, 538);
      assert.match(early.text, /^5\.7\.11 /);
      const login = await wire.cmd('AUTH LOGIN');
      assert.equal(login.code, 538, 'LOGIN too');
      const mail = await wire.cmd(`MAIL FROM:<hello@${SENDER_DOMAIN}>`);
      assert.equal(mail.code, 530, 'no MAIL without AUTH');

      assert.equal((await wire.cmd('STARTTLS')).code, 220);
      await wire.upgrade();
      const secured = await wire.cmd('EHLO client.posthorn.test');
      assert.ok(secured.text.split('\n').includes('AUTH PLAIN LOGIN'), secured.text);
      assert.ok(!secured.text.split('\n').includes('STARTTLS'));
      assert.equal((await wire.auth(hx.credential.username, hx.credential.password)).code, 235);

      // nodemailer told not to use STARTTLS sees no AUTH offered, so it skips it and MAIL gets 530: nothing sent.
      const err = await refused(
        hx
          .client({ implicitTls: false, ignoreTLS: true })
          .sendMail({ from: `hello@${SENDER_DOMAIN}`, to: at('ok-x'), subject: 's', text: 't' }),
      );
      assert.ok(err.responseCode === 530 || err.responseCode === 538, `${err.code} ${err.responseCode} ${err.message}`);
      assert.equal(await messageCount(hx), 0);
    });

    test('a wrong password, the API key as password, an unknown user and a revoked login are refused with 535 5.7.8', async () => {
      // A throttle that never steps in here: five refusals per listener are what is under test.
      const hx = await harness({
        throttle: { slowAfter: 100, blockAfter: 100, windowMs: 60_000, blockMs: 60_000, maxDelayMs: 0 },
      });
      const other = await createSmtpCredential(hx.deps, SENDER_DOMAIN);
      await hx.client({ implicitTls: true, auth: { user: other.username, pass: other.password } }).verify();
      await revokeSmtpCredential(hx.deps, other.username);
      const cases: Array<[string, { user: string; pass: string }]> = [
        ['wrong password', { user: hx.credential.username, pass: `${hx.credential.password}x` }],
        ['API key as password', { user: hx.credential.username, pass: hx.sender.key }],
        ['API key as both', { user: hx.sender.key, pass: hx.sender.key }],
        ['unknown user', { user: 'ph_smtp_000000000000', pass: hx.credential.password }],
        ['revoked login', { user: other.username, pass: other.password }],
      ];
      const failuresBefore = (await hx.deps.metrics.smtpAuthFailures.get()).values[0]?.value ?? 0;
      for (const [name, auth] of cases) {
        for (const implicitTls of [false, true]) {
          const err = await refused(hx.client({ implicitTls, auth }).verify());
          assert.equal(err.responseCode, 535, `${name}: ${err.message}`);
          assert.match(err.response ?? '', /^535 5\.7\.8 /, name);
        }
      }
      // Each refusal counts once in posthorn_smtp_auth_failures_total (docs/observability.md).
      const failures = (await hx.deps.metrics.smtpAuthFailures.get()).values[0]?.value ?? 0;
      assert.equal(failures - failuresBefore, cases.length * 2);
      assert.equal(await hx.client({ implicitTls: true }).verify(), true, 'the harness login still works');
    });

    test('a login revoked in the middle of a session: the next message is refused', async () => {
      const hx = await harness();
      const wire = await hx.authedWire();
      await revokeSmtpCredential(hx.deps, hx.credential.username);
      assert.equal((await wire.cmd(`MAIL FROM:<hello@${SENDER_DOMAIN}>`)).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<${at('ok-r')}>`)).code, 250);
      assert.equal((await wire.cmd('DATA')).code, 354);
      wire.write(`${rawMessage([`From: hello@${SENDER_DOMAIN}`, 'Subject: after revoke'], 'Hi')}\r\n.\r\n`);
      const reply = await wire.next();
      assert.equal(reply.code, 535);
      assert.match(reply.text, /^5\.7\.8 /);
      assert.equal(await messageCount(hx), 0);
    });

    test('repeated AUTH failures from one address are refused with 421 until the block expires', async () => {
      const hx = await harness({
        throttle: { slowAfter: 1, blockAfter: 3, windowMs: 60_000, blockMs: 60_000, maxDelayMs: 2, baseDelayMs: 1 },
      });
      const { wire } = await hx.wire('implicit');
      await wire.cmd('EHLO client.posthorn.test');
      for (let i = 0; i < 3; i++) {
        const r = await wire.auth(hx.credential.username, `wrong-${i}`);
        assert.equal(r.code, 535, `failure ${i + 1}`);
      }
      const blocked = await wire.auth(hx.credential.username, hx.credential.password);
      assert.equal(blocked.code, 421, 'even the right password is refused while blocked');
      assert.match(blocked.text, /^4\.7\.0 /);
      const again = await hx.wire('implicit');
      assert.equal(again.greeting.code, 421, 'a new connection from the address is refused at once');
      assert.match(again.greeting.text, /try again in 60 s/);
      const starttls = await hx.wire('plain');
      assert.equal(starttls.greeting.code, 421, 'on the other listener too (one throttle)');

      hx.deps.clock.advance(60_001);
      const later = await hx.wire('implicit');
      assert.equal(later.greeting.code, 220, 'the block has expired');
      await later.wire.cmd('EHLO client.posthorn.test');
      assert.equal((await later.wire.auth(hx.credential.username, hx.credential.password)).code, 235);
    });

    test('a From on a domain not verified on the account: 550 5.7.1 and a rejected-by-system event per recipient, nothing stored', async () => {
      const hx = await harness();
      const err = await refused(
        hx
          .client({ implicitTls: true })
          .sendMail({ from: 'someone@gmail.com', to: [at('ok-a'), at('ok-b')], subject: 'Spoof', text: 'x' }),
      );
      assert.equal(err.responseCode, 550);
      assert.match(err.response ?? '', /^550 5\.7\.1 /);
      assert.equal(await messageCount(hx), 0);
      const rejections = await systemRejections(hx);
      assert.deepEqual(
        rejections.map((r) => [r.recipient, r.details.reason]),
        [
          [at('ok-a'), 'domain_unverified'],
          [at('ok-b'), 'domain_unverified'],
        ],
      );
      await hx.run();
      assert.equal(hx.sink?.messages.length, 0);
    });

    test('a From on another verified domain of the account: 250, From rewritten at the sink; Message-ID and Date added once when missing', async () => {
      const hx = await harness();
      const rcpt = at('ok-brand');
      const raw = rawMessage(
        [`From: "Brand News" <news@${BRAND_DOMAIN}>`, `To: ${rcpt}`, 'Subject: Brand', 'X-Posthorn-Tags: brand'],
        'Hello from the brand.\n',
      );
      const info = await hx
        .client({ implicitTls: false })
        .sendMail({ envelope: { from: `news@${BRAND_DOMAIN}`, to: [rcpt] }, raw });
      const id = queuedId(info.response);
      await hx.run();
      const [mail] = hx.received(rcpt);
      assert.ok(mail);
      const parsed = await simpleParser(mail.raw);
      assert.deepEqual(parsed.from?.value, [{ name: 'Brand News', address: `news@${SENDER_DOMAIN}` }]);
      for (const owned of ['from', 'message-id', 'date'])
        assert.equal(headerCount(mail.raw, owned), 1, `exactly one ${owned}`);
      assert.ok(!mail.raw.includes(BRAND_DOMAIN), 'the brand domain is gone from the delivered message');
      assert.deepEqual(
        (await hx.verifyDkim(mail.raw)).map((d) => [d.result, d.domain]),
        [['pass', SENDER_DOMAIN]],
      );
      assert.equal(parsed.text?.trim(), 'Hello from the brand.');
      const row = await hx.deps.db
        .selectFrom('messages')
        .select(['from_address', 'tags'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.from_address, `news@${SENDER_DOMAIN}`);
      assert.deepEqual(JSON.parse(row.tags), ['brand']);
    });

    test('a suppressed recipient among three: 550 5.1.1 at its RCPT, the other two delivered, one rejected-by-system event', async () => {
      const hx = await harness();
      const [a, s, b] = [at('ok-first'), at('ok-suppressed'), at('ok-last')];
      const { id: acme } = await findAccount(hx.deps, 'acme');
      await addSuppression(hx.deps, acme, { address: s, reason: 'manual' }, CLI_ACTOR);
      const info = await hx
        .client({ implicitTls: true })
        .sendMail({ from: `hello@${SENDER_DOMAIN}`, to: [a, s, b], subject: 'Three', text: 'x' });
      assert.deepEqual([...info.accepted].sort(), [a, b].sort());
      assert.deepEqual(info.rejected, [s]);
      const rcptErr = (info as unknown as { rejectedErrors?: SmtpFailure[] }).rejectedErrors?.[0];
      assert.equal(rcptErr?.responseCode, 550);
      assert.match(rcptErr?.response ?? '', /^550 5\.1\.1 /);
      const id = queuedId(info.response);
      await hx.run();
      assert.equal(hx.received(a).length, 1);
      assert.equal(hx.received(b).length, 1);
      assert.equal(hx.received(s).length, 0);
      const recipients = await hx.deps.db
        .selectFrom('recipients')
        .select('address')
        .where('message_id', '=', id)
        .orderBy('address')
        .execute();
      assert.deepEqual(
        recipients.map((r) => r.address),
        [a, b].sort(),
      );
      const rejections = await systemRejections(hx);
      assert.deepEqual(
        rejections.map((r) => [r.recipient, r.details.reason]),
        [[s, 'suppressed']],
      );
      assert.deepEqual(
        (await hx.apiEvents(id)).filter((e) => e.event === 'rejected-by-system'),
        [],
      );
    });

    test('the per-domain rate limit is shared: 3 sends over HTTP and 3 over SMTP in one instant get exactly one refusal', async () => {
      const hx = await harness();
      await hx.deps.db.updateTable('accounts').set({ rate_limit: 5 }).where('id', '=', hx.sender.accountId).execute();
      const body = { from: `hello@${SENDER_DOMAIN}`, to: at('ok-rate'), subject: 'Rate', text: 'x' };
      const t = hx.client({ implicitTls: true });
      const outcomes = await Promise.all([
        ...[0, 1, 2].map(async () => {
          const r = await hx.send(body);
          return r.status === 202 ? 'ok' : `http ${r.status}`;
        }),
        ...[0, 1, 2].map(() =>
          t.sendMail(body).then(
            () => 'ok',
            (err: SmtpFailure) => `smtp ${err.response ?? err.message}`,
          ),
        ),
      ]);
      const refusals = outcomes.filter((o) => o !== 'ok');
      assert.equal(refusals.length, 1, JSON.stringify(outcomes));
      assert.match(refusals[0]!, /^(http 429|smtp 451 4\.7\.1 .*Retry in \d+ s\.)$/);
      assert.equal(await messageCount(hx), 5);
      // One more over SMTP in the same instant is refused there, with the wait in the text.
      const err = await refused(t.sendMail(body));
      assert.equal(err.responseCode, 451);
      assert.match(err.response ?? '', /^451 4\.7\.1 .*Retry in 1 s\./);
      hx.deps.clock.advance(1000);
      await t.sendMail(body);
      assert.equal(await messageCount(hx), 6);
    });

    test('recipients per message: the 101st RCPT gets 452 4.5.3, the first 100 are sent', async () => {
      const hx = await harness();
      const wire = await hx.authedWire();
      assert.equal((await wire.cmd(`MAIL FROM:<hello@${SENDER_DOMAIN}>`)).code, 250);
      for (let i = 0; i < 100; i++)
        assert.equal((await wire.cmd(`RCPT TO:<${at(`ok-${i}`)}>`)).code, 250, `RCPT ${i + 1}`);
      const over = await wire.cmd(`RCPT TO:<${at('ok-100')}>`);
      assert.equal(over.code, 452);
      assert.match(over.text, /^4\.5\.3 /);
      assert.equal((await wire.cmd('DATA')).code, 354);
      wire.write(`${rawMessage([`From: hello@${SENDER_DOMAIN}`, 'Subject: Many'], 'Hi all')}\r\n.\r\n`);
      const done = await wire.next();
      const id = queuedId(`${done.code} ${done.text}`);
      const recipients = await hx.deps.db
        .selectFrom('recipients')
        .select('address')
        .where('message_id', '=', id)
        .execute();
      assert.equal(recipients.length, 100);
      assert.ok(!recipients.some((r) => r.address === at('ok-100')));
    });

    test('no open relay: MAIL, RCPT and DATA need AUTH (530), RCPT needs MAIL and DATA needs RCPT (503)', async () => {
      const hx = await harness();
      // Unauthenticated under TLS, on both listeners.
      for (const kind of ['implicit', 'plain'] as const) {
        const { wire } = await hx.wire(kind);
        await wire.cmd('EHLO client.posthorn.test');
        if (kind === 'plain') {
          assert.equal((await wire.cmd('STARTTLS')).code, 220);
          await wire.upgrade();
          await wire.cmd('EHLO client.posthorn.test');
        }
        assert.equal((await wire.cmd('MAIL FROM:<anyone@elsewhere.example>')).code, 530, kind);
        assert.equal((await wire.cmd(`RCPT TO:<${at('ok-open')}>`)).code, 530, kind);
        assert.equal((await wire.cmd('DATA')).code, 530, kind);
        const bad = await wire.auth(hx.credential.username, 'nope');
        assert.equal(bad.code, 535);
        assert.equal(
          (await wire.cmd('MAIL FROM:<anyone@elsewhere.example>')).code,
          530,
          `${kind}: still not after a failed AUTH`,
        );
      }
      const noAuth = await refused(
        hx
          .client({ implicitTls: true, auth: null })
          .sendMail({ from: 'anyone@elsewhere.example', to: at('ok-open'), subject: 's', text: 't' }),
      );
      assert.equal(noAuth.responseCode, 530);

      const wire = await hx.authedWire();
      assert.equal((await wire.cmd(`RCPT TO:<${at('ok-open')}>`)).code, 503, 'RCPT before MAIL');
      assert.equal((await wire.cmd('DATA')).code, 503, 'DATA before MAIL');
      assert.equal((await wire.cmd(`MAIL FROM:<hello@${SENDER_DOMAIN}>`)).code, 250);
      assert.equal((await wire.cmd('DATA')).code, 503, 'DATA before RCPT');
      assert.equal(await messageCount(hx), 0);
      await hx.run();
      assert.equal(hx.sink?.messages.length, 0);
    });

    test('an Idempotency-Key header: the same message twice is stored once and both 250s name the same message', async () => {
      const hx = await harness();
      const rcpt = at('ok-idem');
      const raw = rawMessage(
        [
          `From: hello@${SENDER_DOMAIN}`,
          `To: ${rcpt}`,
          'Subject: Once',
          'Idempotency-Key: order-4711',
          'Message-ID: <order-4711@acme.test>',
        ],
        'Only once.',
      );
      const t = hx.client({ implicitTls: true });
      const first = await t.sendMail({ envelope: { from: `hello@${SENDER_DOMAIN}`, to: [rcpt] }, raw });
      const second = await t.sendMail({ envelope: { from: `hello@${SENDER_DOMAIN}`, to: [rcpt] }, raw });
      assert.equal(queuedId(second.response), queuedId(first.response));
      assert.equal(await messageCount(hx), 1);
      // The same key with different bytes is refused, as over HTTP (422 idempotency_key_reused).
      const changed = raw.replace('Only once.', 'Twice?');
      const err = await refused(t.sendMail({ envelope: { from: `hello@${SENDER_DOMAIN}`, to: [rcpt] }, raw: changed }));
      assert.equal(err.responseCode, 554);
      await hx.run();
      const got = hx.received(rcpt);
      assert.equal(got.length, 1);
      assert.equal(headerCount(got[0]!.raw, 'idempotency-key'), 0, 'the key is not delivered');
    });

    test('a message over 10 MiB: 552 (announced size at MAIL, and actual size at the end of DATA)', async () => {
      const hx = await harness();
      const wire = await hx.authedWire();
      const announced = await wire.cmd(`MAIL FROM:<hello@${SENDER_DOMAIN}> SIZE=${10 * 1024 * 1024 + 1}`);
      assert.equal(announced.code, 552);
      assert.equal((await wire.cmd(`MAIL FROM:<hello@${SENDER_DOMAIN}>`)).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<${at('ok-big')}>`)).code, 250);
      assert.equal((await wire.cmd('DATA')).code, 354);
      const line = `${'x'.repeat(76)}\r\n`;
      const body = line.repeat(Math.ceil((10.2 * 1024 * 1024) / line.length));
      wire.write(`From: hello@${SENDER_DOMAIN}\r\nSubject: Big\r\n\r\n${body}.\r\n`);
      const reply = await wire.next(60_000);
      assert.equal(reply.code, 552, reply.text);
      assert.equal(await messageCount(hx), 0);
      assert.equal((await wire.cmd('NOOP')).code, 250, 'the session goes on');
    });

    test('250 is answered only after the commit: the message, its recipients and jobs are in the database when it arrives', async () => {
      const hx = await harness();
      await hx.worker.stop(5_000); // nothing may take the jobs away before they are looked at
      const rcpts = [at('ok-c1'), at('ok-c2')];
      const info = await hx
        .client({ implicitTls: false })
        .sendMail({ from: `hello@${SENDER_DOMAIN}`, to: rcpts, subject: 'Committed', text: 'x' });
      const id = queuedId(info.response);
      const message = await hx.deps.db
        .selectFrom('messages')
        .select(['id', 'mime'])
        .where('id', '=', id)
        .executeTakeFirst();
      assert.ok(message, 'the message row is committed');
      assert.ok(message.mime?.includes('Subject: Committed'), 'the submitted message is kept');
      const jobs = await hx.deps.db.selectFrom('jobs').select('kind').where('message_id', '=', id).execute();
      assert.deepEqual(
        jobs.map((j) => j.kind),
        ['deliver', 'deliver'],
      );
      const accepted = await hx.deps.db
        .selectFrom('events')
        .select('recipient')
        .where('message_id', '=', id)
        .where('event', '=', 'accepted-by-system')
        .orderBy('recipient')
        .execute();
      assert.deepEqual(
        accepted.map((e) => e.recipient),
        [...rcpts].sort(),
      );
    });
  });
}

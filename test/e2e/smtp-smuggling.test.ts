// Protocol safety of the relay, from a raw client over loopback: SMTP smuggling (an end
// of data other than CRLF.CRLF hiding a second transaction inside DATA, CVE-2023-51764 class),
// plaintext commands pipelined behind STARTTLS (CVE-2011-0411 class), and MAIL after STARTTLS
// without a new EHLO (RFC 3207 §4.2). Counts what reached the database and the sink MX.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MX_DOMAIN, SENDER_DOMAIN } from '../helpers/delivery-harness.js';
import { createRelayHarness, type RelayHarness, type SmtpWire } from '../helpers/relay-harness.js';
import { testDialects } from '../helpers/test-db.js';

const FROM = `hello@${SENDER_DOMAIN}`;
const VICTIM = `ok-victim@${MX_DOMAIN}`;
const SMUGGLER = `ok-smuggled@${MX_DOMAIN}`;

/** The smuggled transaction: what a lenient next hop would take for a second message. */
const SMUGGLED = `MAIL FROM:<ceo@${SENDER_DOMAIN}>\r\nRCPT TO:<${SMUGGLER}>\r\nDATA\r\nFrom: ceo@${SENDER_DOMAIN}\r\nSubject: smuggled\r\n\r\nPay now.\r\n`;

/** Fake ends of data, each followed by a second transaction inside the same DATA. */
const PAYLOADS: Array<[string, string]> = [
  ['LF.CRLF', '\n.\r\n'],
  ['CRLF.LF', '\r\n.\n'],
  ['CR.CRLF', '\r.\r\n'],
  ['LF.LF', '\n.\n'],
  ['CR.CR', '\r.\r'],
  ['CRLF.CR', '\r\n.\r'],
];

for (const dialect of testDialects()) {
  describe(`SMTP relay protocol safety (${dialect})`, () => {
    let h: RelayHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    const subjects = async (hx: RelayHarness) =>
      (await hx.deps.db.selectFrom('messages').select('subject').orderBy('created_at').orderBy('id').execute()).map(
        (m) => m.subject,
      );

    /** MAIL, RCPT, DATA on an authenticated session; returns once 354 came. */
    async function openData(wire: SmtpWire): Promise<void> {
      assert.equal((await wire.cmd(`MAIL FROM:<${FROM}>`)).code, 250);
      assert.equal((await wire.cmd(`RCPT TO:<${VICTIM}>`)).code, 250);
      assert.equal((await wire.cmd('DATA')).code, 354);
    }

    for (const [name, fakeEnd] of PAYLOADS) {
      test(`${name} inside DATA: one reply for the one DATA, nothing smuggled`, async () => {
        const hx = (h = await createRelayHarness(dialect));
        const wire = await hx.authedWire();
        await openData(wire);
        // Everything in one write, as an attacker would send it; only the final CRLF.CRLF ends DATA.
        wire.write(`From: ${FROM}\r\nSubject: innocent\r\n\r\nHello${fakeEnd}${SMUGGLED}.\r\n`);
        const reply = await wire.next();
        if (reply.code === 250) assert.match(reply.text, /^2\.0\.0 Queued as msg_/);
        else {
          assert.equal(reply.code, 550, reply.text);
          assert.match(reply.text, /^5\.6\.11 bare (LF|CR) not allowed/);
        }
        // Had the smuggled commands run, their replies (250, 250, 354, ...) would be queued ahead of this one.
        const help = await wire.cmd('HELP');
        assert.equal(help.code, 214, `the next reply is HELP's, not a smuggled command's (${help.code} ${help.text})`);
        assert.equal(wire.unread, 0);

        const stored = await hx.deps.db.selectFrom('messages').select(['subject', 'mime']).execute();
        assert.ok(stored.length <= 1, `at most one message: ${JSON.stringify(stored.map((m) => m.subject))}`);
        assert.ok(!stored.some((m) => m.subject === 'smuggled'));
        // A message taken in must not carry the fake end onwards: no CR or LF outside a CRLF pair.
        for (const m of stored)
          assert.doesNotMatch(m.mime ?? '', /\r(?!\n)|(?<!\r)\n/, 'a bare CR or LF would be forwarded');
        assert.equal(
          await hx.deps.db.selectFrom('recipients').select('id').where('address', '=', SMUGGLER).executeTakeFirst(),
          undefined,
        );
        // The session still works, and a proper message afterwards is exactly one more.
        await openData(wire);
        wire.write(`From: ${FROM}\r\nSubject: proper\r\n\r\nHello\r\n.\r\n`);
        assert.equal((await wire.next()).code, 250);
        assert.deepEqual(
          (await subjects(hx)).filter((s) => s !== 'innocent'),
          ['proper'],
        );
        await hx.run();
        assert.equal(hx.received(SMUGGLER).length, 0, 'the sink never saw the smuggled recipient');
        assert.equal(hx.sink?.messages.length, stored.length + 1, 'the sink got what was accepted, once each');
      });
    }

    test('commands pipelined behind STARTTLS in the same packet are discarded; MAIL right after TLS without EHLO is 503', async () => {
      const hx = (h = await createRelayHarness(dialect));
      const { wire, greeting } = await hx.wire('plain');
      assert.equal(greeting.code, 220);
      assert.equal((await wire.cmd('EHLO client.posthorn.test')).code, 250);
      // One write: if the EHLO or HELP ran inside TLS, a 250/214 would come before our own MAIL's reply.
      wire.write('STARTTLS\r\nEHLO injected.example\r\nHELP\r\n');
      assert.equal((await wire.next()).code, 220);
      await wire.upgrade();
      const mail = await wire.cmd(`MAIL FROM:<${FROM}>`);
      assert.equal(mail.code, 503, `MAIL before EHLO after TLS (RFC 3207 §4.2): ${mail.code} ${mail.text}`);
      assert.match(mail.text, /EHLO/);
      assert.equal(wire.unread, 0, 'no reply to the injected commands');
      const ehlo = await wire.cmd('EHLO client.posthorn.test');
      assert.equal(ehlo.code, 250);
      assert.equal((await wire.auth(hx.credential.username, hx.credential.password)).code, 235);
      await openData(wire);
      wire.write(`From: ${FROM}\r\nSubject: after tls\r\n\r\nHi\r\n.\r\n`);
      assert.equal((await wire.next()).code, 250);
      assert.deepEqual(await subjects(hx), ['after tls']);
    });

    test('AUTH pipelined behind STARTTLS in plaintext is not carried into the TLS session', async () => {
      const hx = (h = await createRelayHarness(dialect));
      const { wire } = await hx.wire('plain');
      await wire.cmd('EHLO client.posthorn.test');
      const plainAuth = `AUTH PLAIN ${Buffer.from(`\0${hx.credential.username}\0${hx.credential.password}`).toString('base64')}`;
      wire.write(`STARTTLS\r\nEHLO injected.example\r\n${plainAuth}\r\nMAIL FROM:<${FROM}>\r\n`);
      assert.equal((await wire.next()).code, 220);
      await wire.upgrade();
      assert.equal((await wire.cmd('EHLO client.posthorn.test')).code, 250, "the first reply in TLS is our own EHLO's");
      const mail = await wire.cmd(`MAIL FROM:<${FROM}>`);
      assert.equal(mail.code, 530, 'not authenticated: the plaintext AUTH was discarded');
      assert.equal(wire.unread, 0);
    });
  });
}

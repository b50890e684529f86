// Open and click tracking and one-click unsubscribe, end to end over the real
// pipeline, delivery engine (sink MX over loopback, real DKIM) and the HTTP routes (inject), on
// every test database.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { createSmtpCredential } from '../../src/credentials/smtp-credentials.js';
import { splitMessage } from '../../src/mime/split-message.js';
import { relayIntake } from '../../src/smtp/relay-intake.js';
import { deliveredTokens } from '../../src/sandbox/sandbox-links.js';
import { PREFETCH_WINDOW_MS } from '../../src/tracking/automated.js';
import { testDialects } from '../helpers/test-db.js';
import { createDeliveryHarness, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';

const FROM = `hello@${SENDER_DOMAIN}`;
const LINKS = [
  'https://shop.example/cart?item=1&qty=2#checkout',
  'http://example.net/ünïcode/日本?q=€',
  `https://example.net/very/long?${'param=value&'.repeat(300)}end`,
];
const HTML = `<html><body><p>Hi</p>${LINKS.map((u, i) => `<a href="${u.replace(/&/g, '&amp;')}">link ${i}</a>`).join(' ')}
<a href="mailto:help@acme.test">mail us</a></body></html>`;

for (const dialect of testDialects()) {
  describe(`tracking and unsubscribe (${dialect})`, () => {
    let h: DeliveryHarness;
    afterEach(() => h.close());

    const setDomain = (flags: { track_opens?: number; track_clicks?: number; unsubscribe?: number }) =>
      h.deps.db.updateTable('domains').set(flags).where('id', '=', h.sender.domainId).execute();
    const flagsOf = async (id: string) => {
      const m = await h.deps.db
        .selectFrom('messages')
        .select(['track_opens', 'track_clicks', 'unsubscribe'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return [m.track_opens, m.track_clicks, m.unsubscribe].map(Number);
    };
    const send = async (extra: Record<string, unknown> = {}, to: string | string[] = 'reader@example.org') => {
      const res = await h.send({ from: FROM, to, subject: 'Tracked', html: HTML, ...extra });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.id;
    };
    const get = (url: string, headers: Record<string, string> = {}) =>
      h.app.inject({ method: 'GET', url: new URL(url).pathname, headers });

    test('domain defaults, JSON overrides and X-Posthorn-* headers resolve into the message row; bad values are refused by name', async () => {
      h = await createDeliveryHarness(dialect);
      assert.deepEqual(await flagsOf(await send()), [0, 0, 0], 'off by default');
      await setDomain({ track_opens: 1, track_clicks: 1, unsubscribe: 1 });
      assert.deepEqual(await flagsOf(await send()), [1, 1, 1], 'the domain default');
      assert.deepEqual(
        await flagsOf(await send({ track_opens: false, unsubscribe: false })),
        [0, 1, 0],
        'JSON overrides',
      );
      await setDomain({ track_opens: 0, track_clicks: 0, unsubscribe: 0 });
      assert.deepEqual(await flagsOf(await send({ track_clicks: true })), [0, 1, 0]);
      for (const field of ['track_opens', 'track_clicks', 'unsubscribe']) {
        const bad = await h.send({ from: FROM, to: 'r@example.org', subject: 's', html: '<p>x</p>', [field]: 'yes' });
        assert.deepEqual([bad.status, bad.body.error?.type, bad.body.error?.field], [400, 'invalid_request', field]);
      }
      // List-Unsubscribe is the service's own once it sets it.
      const own = await h.send({
        from: FROM,
        to: 'r@example.org',
        subject: 's',
        html: '<p>x</p>',
        unsubscribe: true,
        headers: { 'List-Unsubscribe': '<https://x.test/u>' },
      });
      assert.deepEqual([own.status, own.body.error?.field], [400, 'headers.List-Unsubscribe']);
      assert.equal(
        (
          await h.send({
            from: FROM,
            to: 'r@example.org',
            subject: 's',
            html: '<p>x</p>',
            headers: { 'List-Unsubscribe': '<https://x.test/u>' },
          })
        ).status,
        202,
        'allowed while unsubscribe is off',
      );

      // The relay: the same pipeline, options as headers (removed before delivery).
      const cred = await createSmtpCredential(h.deps, SENDER_DOMAIN);
      const credentialId = (
        await h.deps.db
          .selectFrom('smtp_credentials')
          .select('id')
          .where('username', '=', cred.username)
          .executeTakeFirstOrThrow()
      ).id;
      const relay = (headers: string[]) =>
        h.pipeline.submit(
          relayIntake({
            credentialId,
            envelope: { mailFrom: FROM, rcptTo: ['r@example.org'] },
            raw: Buffer.from(
              [
                `From: ${FROM}`,
                'To: r@example.org',
                'Subject: relayed',
                ...headers,
                'Content-Type: text/html',
                '',
                '<a href="https://x.test/">x</a>',
                '',
              ].join('\r\n'),
            ),
          }),
        );
      const on = await relay([
        'X-Posthorn-Track-Opens: true',
        'X-Posthorn-Track-Clicks: 1',
        'X-Posthorn-Unsubscribe: yes',
      ]);
      assert.equal(on.kind, 'accepted');
      assert.deepEqual(await flagsOf(on.kind === 'accepted' ? on.body.id : ''), [1, 1, 1]);
      await setDomain({ track_opens: 1, track_clicks: 1, unsubscribe: 1 });
      const off = await relay([
        'X-Posthorn-Track-Opens: no',
        'X-Posthorn-Track-Clicks: false',
        'X-Posthorn-Unsubscribe: 0',
      ]);
      assert.deepEqual(await flagsOf(off.kind === 'accepted' ? off.body.id : ''), [0, 0, 0]);
      const bad = await relay(['X-Posthorn-Unsubscribe: maybe']);
      assert.deepEqual(bad.kind === 'refused' ? [bad.error.type, bad.error.field] : [], [
        'invalid_request',
        'X-Posthorn-Unsubscribe',
      ]);
      const theirs = await relay(['List-Unsubscribe: <mailto:u@acme.test>']);
      assert.deepEqual(theirs.kind === 'refused' ? theirs.error.field : null, 'List-Unsubscribe');
      await h.run();
      const relayed = h
        .received('r@example.org')
        .map((m) => m.raw.toString('latin1'))
        .find((r) => r.includes('Subject: relayed') && !/X-Posthorn-/i.test(r) && /List-Unsubscribe-Post/.test(r));
      assert.ok(relayed, 'the relayed, tracked message arrived without its X-Posthorn-* headers');
    });

    test('a tracked message: pixel, signed links and DKIM-covered List-Unsubscribe; each link redirects to its exact URL', async () => {
      h = await createDeliveryHarness(dialect);
      await setDomain({ track_opens: 1, track_clicks: 1, unsubscribe: 1 });
      const id = await send({}, ['reader@example.org', 'other@example.org']);
      await h.run();
      assert.equal(h.sink!.messages.length, 2, 'one transaction per recipient');
      const [mail] = h.received('reader@example.org');
      assert.ok(mail);
      assert.deepEqual(mail.rcptTo, ['reader@example.org']);
      const verdicts = await h.verifyDkim(mail.raw);
      assert.deepEqual(
        verdicts.map((v) => v.result),
        ['pass'],
      );
      const sig = splitMessage(mail.raw)
        .fields.find((f) => f.name === 'dkim-signature')!
        .text.replace(/\s+/g, '');
      const signed = /;h=([^;]+)/.exec(sig)![1]!.toLowerCase().split(':');
      assert.ok(
        signed.includes('list-unsubscribe') && signed.includes('list-unsubscribe-post'),
        `h= ${signed.join(':')}`,
      );
      const parsed = await simpleParser(mail.raw);
      const fields = splitMessage(mail.raw).fields;
      assert.equal(
        fields.find((f) => f.name === 'list-unsubscribe-post')?.text,
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      );
      assert.match(
        (fields.find((f) => f.name === 'list-unsubscribe')?.text ?? '').replace(/\r\n(?=[ \t])/g, ''),
        new RegExp(`^List-Unsubscribe: <${h.deps.config.publicUrl}/u/[A-Za-z0-9_-]{44}>$`),
      );
      const pub = h.deps.config.publicUrl;
      assert.match(String(parsed.html), new RegExp(`<img src="${pub}/t/o/[A-Za-z0-9_-]+" width="1" height="1"`));
      assert.match(String(parsed.html), /href="mailto:help@acme\.test"/, 'mailto is left alone');
      assert.match(
        parsed.text ?? '',
        /https:\/\/shop\.example\/cart\?item=1&qty=2#checkout/,
        'the text part keeps the original links',
      );
      const tokens = deliveredTokens(mail.raw);
      assert.equal(tokens.clicks.length, LINKS.length);
      for (const [i, token] of tokens.clicks.entries()) {
        const res = await get(`${pub}/t/c/${token}`, { 'user-agent': 'Browser/1.0' });
        assert.equal(res.statusCode, 302);
        const original = LINKS[i]!;
        assert.equal(
          res.headers.location,
          original.replace(/[^\x21-\x7e]+/g, (s) => encodeURI(s)),
        );
        assert.equal(decodeURI(String(res.headers.location)), original);
      }
      const clicks = (await h.events(id, 'reader@example.org')).filter((e) => e.event === 'clicked');
      assert.deepEqual(
        clicks.map((e) => e.details.url),
        LINKS,
        'clicked carries the exact original URL',
      );
      assert.equal(clicks[0]!.details.user_agent, 'Browser/1.0');
      // The other recipient's copy has tokens of its own.
      assert.notDeepEqual(deliveredTokens(h.received('other@example.org')[0]!.raw).open, tokens.open);

      // Tampered, unsigned and garbage tokens: no Location, nothing recorded.
      const t = tokens.clicks[0]!;
      for (const bad of [
        `${t.slice(0, 10)}${t[10] === 'a' ? 'b' : 'a'}${t.slice(11)}`,
        t.slice(0, -2),
        'aHR0cHM6Ly9ldmlsLnRlc3Qv',
        'https%3A%2F%2Fevil.test',
        '',
      ]) {
        const res = await h.app.inject({ method: 'GET', url: `/t/c/${bad}` });
        assert.ok(res.statusCode === 404 || res.statusCode === 400, `${bad}: ${res.statusCode}`);
        assert.equal(res.headers.location, undefined);
      }
      assert.equal(
        (await h.events(id, 'reader@example.org')).filter((e) => e.event === 'clicked').length,
        LINKS.length,
      );
    });

    test('opens: the GIF always, no-store; Apple MPP and early opens flagged automated; a bad token records nothing', async () => {
      h = await createDeliveryHarness(dialect);
      await setDomain({ track_opens: 1 });
      const id = await send();
      await h.run();
      const { open } = deliveredTokens(h.received('reader@example.org')[0]!.raw);
      assert.ok(open);
      const pixel = await h.app.inject({
        method: 'GET',
        url: `/t/o/${open}`,
        headers: { 'user-agent': 'Mozilla/5.0' },
      });
      assert.deepEqual(
        [pixel.statusCode, pixel.headers['content-type'], pixel.rawPayload.subarray(0, 6).toString()],
        [200, 'image/gif', 'GIF89a'],
      );
      assert.match(String(pixel.headers['cache-control']), /no-store/);
      const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
      await h.app.inject({ method: 'GET', url: `/t/o/${open}`, headers: { 'user-agent': browser } });
      h.deps.clock.advance(PREFETCH_WINDOW_MS);
      await h.app.inject({ method: 'GET', url: `/t/o/${open}`, headers: { 'user-agent': browser } });
      const bad = await h.app.inject({ method: 'GET', url: `/t/o/${open.slice(0, -3)}AAA` });
      assert.deepEqual([bad.statusCode, bad.headers['content-type']], [200, 'image/gif']);
      const opens = (await h.events(id)).filter((e) => e.event === 'opened').map((e) => e.details);
      assert.deepEqual(
        opens.map((d) => [d.user_agent, d.automated, d.automated_reason]),
        [
          ['Mozilla/5.0', true, 'apple_mail_privacy_protection'],
          [browser, true, 'seconds_after_delivery'],
          [browser, false, undefined],
        ],
      );
      assert.ok(typeof opens[0]!.ip === 'string');
    });

    test('unsubscribe: GET shows a form and changes nothing; two one-click POSTs make one event and a suppression', async () => {
      h = await createDeliveryHarness(dialect);
      await setDomain({ unsubscribe: 1 });
      const id = await send();
      await h.run();
      const mail = h.received('reader@example.org')[0]!;
      assert.doesNotMatch(
        mail.raw.toString('latin1'),
        /\/t\/o\/|\/t\/c\//,
        'no pixel, no rewritten links when only unsubscribe is on',
      );
      const { unsubscribe } = deliveredTokens(mail.raw);
      assert.ok(unsubscribe);
      const page = await h.app.inject({ method: 'GET', url: `/u/${unsubscribe}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<form method="post">/);
      assert.match(page.body, /reader@example\.org/);
      const suppression = () =>
        h.deps.db
          .selectFrom('suppressions')
          .select('reason')
          .where('address', '=', 'reader@example.org')
          .executeTakeFirst();
      assert.equal(await suppression(), undefined, 'GET changes nothing');
      assert.equal((await h.events(id)).filter((e) => e.event === 'unsubscribed').length, 0);
      const post = () =>
        h.app.inject({
          method: 'POST',
          url: `/u/${unsubscribe}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        });
      const first = await post();
      const second = await post();
      assert.deepEqual([first.statusCode, second.statusCode], [200, 200]);
      const events = (await h.events(id)).filter((e) => e.event === 'unsubscribed');
      assert.equal(events.length, 1, 'idempotent');
      assert.deepEqual([events[0]!.recipient, events[0]!.details.method], ['reader@example.org', 'one-click']);
      assert.deepEqual(await suppression(), { reason: 'unsubscribed' });
      const again = await h.send({ from: FROM, to: 'reader@example.org', subject: 'again', html: '<p>x</p>' });
      assert.deepEqual([again.status, again.body.error?.type], [422, 'recipient_suppressed']);
      const badPost = await h.app.inject({
        method: 'POST',
        url: `/u/${unsubscribe.slice(0, -1)}`,
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(badPost.statusCode, 400);
      assert.match(badPost.body, /not valid/);
    });

    test('an untracked message is unchanged: no pixel, no header, recipients of a domain share one transaction', async () => {
      h = await createDeliveryHarness(dialect);
      const id = await send({}, ['a@example.org', 'b@example.org', 'c@example.org']);
      await h.run();
      assert.equal(h.sink!.messages.length, 1);
      assert.deepEqual([...h.sink!.messages[0]!.rcptTo].sort(), ['a@example.org', 'b@example.org', 'c@example.org']);
      const raw = h.sink!.messages[0]!.raw.toString('latin1');
      assert.doesNotMatch(raw, /List-Unsubscribe|\/t\/o\/|\/t\/c\//i);
      const parsed = await simpleParser(h.sink!.messages[0]!.raw);
      assert.equal(String(parsed.html).trim(), HTML.trim());
      assert.deepEqual(
        (await h.events(id, 'a@example.org')).map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered'],
      );
    });
  });
}

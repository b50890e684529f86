// A message sent with a template, delivered to a sink MX over loopback (docs/templates.md): what
// arrives is the rendered message, it parses, its DKIM signature verifies, no header was added
// through a variable, and tracking applies to the rendered html as to any html message.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { testDialects } from '../helpers/test-db.js';
import { createDeliveryHarness, MX_DOMAIN, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { installExampleTemplates } from '../../src/templates/install-examples.js';
import { EXAMPLE_TEMPLATES } from '../../src/templates/examples/index.js';
import { CLI_ACTOR } from '../../src/core/actor.js';

for (const dialect of testDialects()) {
  describe(`templated mail at a sink MX (${dialect})`, () => {
    let hx: DeliveryHarness;
    before(async () => {
      hx = await createDeliveryHarness(dialect);
      await installExampleTemplates(hx.deps, hx.sender.accountId, CLI_ACTOR);
    });
    after(() => hx.close());

    test('the starter receipt, rendered with hostile values: parsed by mailparser, DKIM passes, nothing injected', async () => {
      const to = `templated@${MX_DOMAIN}`;
      const receipt = EXAMPLE_TEMPLATES.find((t) => t.name === 'receipt')!;
      const sample = structuredClone(receipt.sample) as { customer: { name: string }; receipt: { number: string } };
      sample.customer.name = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
      sample.receipt.number = '10042\r\nBcc: victim@example.org';
      const res = await hx.send({
        from: `billing@${SENDER_DOMAIN}`,
        to,
        template: { name: 'receipt', variables: sample },
        track_opens: true,
        track_clicks: true,
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      await hx.run();
      const [mail] = hx.received(to);
      assert.ok(mail, 'delivered');
      assert.deepEqual(mail.rcptTo, [to]);

      const dkim = await hx.verifyDkim(mail.raw);
      assert.deepEqual(
        dkim.map((d) => [d.result, d.domain]),
        [['pass', SENDER_DOMAIN]],
        JSON.stringify(dkim),
      );

      const parsed = await simpleParser(mail.raw);
      assert.equal(parsed.subject, 'Your Acme receipt #10042 Bcc: victim@example.org');
      assert.equal(parsed.headers.get('bcc'), undefined, 'no Bcc header came in through a variable');
      assert.equal(parsed.cc, undefined);
      const html = String(parsed.html);
      assert.doesNotMatch(html, /<script>|<img src=x|onerror=alert/, 'no markup from a variable');
      assert.match(
        html,
        /Hi &lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;&gt;&lt;img src&#x3D;x onerror&#x3D;alert\(2\)&gt;/,
      );
      assert.match(html, /Pro plan, November 2026/);
      assert.match(html, /\$52\.36/);
      // Tracking applied to the rendered html: its links go through the click redirect, and an open pixel is added.
      assert.doesNotMatch(html, /href="https:\/\/app\.acme\.example\/receipts\/10042"/);
      assert.match(html, /<img[^>]+width="1"/);
      assert.match(parsed.text ?? '', /Extra seats × 3: \$15\.00/);
      assert.match(parsed.text ?? '', /Hi <script>alert\(1\)<\/script>/, 'the text part is plain');

      const events = await hx.events(res.body.id);
      assert.deepEqual(
        events.filter((e) => e.event === 'accepted-by-system').map((e) => e.details.template),
        [{ name: 'receipt', version: 1 }],
      );
      assert.ok(events.some((e) => e.event === 'delivered'));
    });
  });
}

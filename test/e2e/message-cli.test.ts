// `posthorn message show ID` as a real child process beside a real delivery engine: the same
// object as GET /v1/messages/{id} (--json), and readable text with each recipient's status.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { createDeliveryHarness, MX_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';

for (const dialect of testDialects()) {
  describe(`posthorn message show (${dialect})`, () => {
    let h: DeliveryHarness;
    let api: ApiHarness;
    let cli: (...args: string[]) => Promise<CliResult>;
    before(async () => {
      h = await createDeliveryHarness(dialect, { env: { POSTHORN_MAX_QUEUE_LIFETIME: '1h' } });
      api = await startApiHarness(dialect, { deps: h.deps });
      const env = { ...h.deps.testDb.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' };
      cli = (...args) => runCli(args, env);
    });
    after(async () => {
      await api.close();
      await h.close();
    });

    test('prints what the API answers: --json is its object, the text names each status and the 451', async () => {
      const deferred = `defer-1-cli@${MX_DOMAIN}`;
      const fine = `ok-cli@${MX_DOMAIN}`;
      const sent = await h.send({
        from: `Acme <hello@${h.sender.domain}>`,
        to: [deferred, fine],
        subject: 'From the CLI',
        text: 'hello',
        tags: ['cli'],
      });
      assert.equal(sent.status, 202);
      await h.run();
      const id = sent.body.id;
      const viaApi = await api.client(h.sender.key).GET('/v1/messages/{id}', { params: { path: { id } } });
      assert.equal(viaApi.response.status, 200);

      const json = await cli('message', 'show', id, '--json');
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(json.json, viaApi.data);

      const text = await cli('message', 'show', id.slice(4).toLowerCase());
      assert.equal(text.code, 0, text.stderr);
      const lines = text.stdout.split('\n');
      assert.match(lines[0]!, new RegExp(`^${id}  ${h.sender.domain}  created `));
      assert.ok(lines.includes('subject:    From the CLI'), text.stdout);
      assert.ok(lines.includes('tags:       cli'), text.stdout);
      const line = (address: string) => lines.find((l) => l.trimStart().startsWith(address)) ?? '';
      assert.match(
        line(deferred),
        /deferred .*last reply: 451 4\.3\.0 Temporary failure, try again later {2}next attempt /,
      );
      assert.match(line(fine), /delivered .*delivered: 250 /);
      assert.ok(
        lines.some((l) => /accepted-by-mta +defer-1-cli@/.test(l)),
        text.stdout,
      );
    });

    test('an unknown or malformed id: exit 1 with one line naming it', async () => {
      const unknown = await cli('message', 'show', 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H');
      assert.equal(unknown.code, 1);
      assert.equal(unknown.stdout, '');
      assert.equal(unknown.stderr, 'posthorn: no message msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H\n');
      const bad = await cli('message', 'show', 'nope', '--json');
      assert.equal(bad.code, 1);
      assert.match(bad.json.error, /^id must be a message id/);
      const missing = await cli('message', 'show');
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /message show needs ID/);
    });
  });
}

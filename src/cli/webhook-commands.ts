import { CLI_ACTOR } from '../core/actor.js';
import { findDomain } from '../domains/add-domain.js';
import { removeWebhook } from '../webhooks/remove-webhook.js';
import { replayWebhook } from '../webhooks/replay-webhook.js';
import { rotateWebhookSecret } from '../webhooks/rotate-webhook-secret.js';
import { setWebhook } from '../webhooks/set-webhook.js';
import { showWebhook, type WebhookView } from '../webhooks/show-webhook.js';
import { testWebhook } from '../webhooks/test-webhook.js';
import { CommandError } from './command-error.js';
import { withDeps, type Command } from './command.js';

// Each command finds the domain by name (the operator at the shell sees every account) and calls
// the same webhook function as the HTTP API (src/http/routes/webhook.ts), as the CLI actor.

/** `webhook set DOMAIN URL`: creates the endpoint (secret shown once) or changes its URL, re-enabling it. */
export const webhookSet: Command = {
  words: 'webhook set',
  args: ['DOMAIN', 'URL'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await setWebhook(deps, await findDomain(deps, args[0]!), args[1]!, CLI_ACTOR);
      const lines = [`webhook of ${out.domain}: ${out.url}`];
      if (out.secret !== null) {
        lines.push(
          'signing secret (shown only once and cannot be read back; verify the webhook-signature header with it):',
          `secret: ${out.secret}`,
        );
      } else {
        lines.push(
          'the signing secret is unchanged (it was shown when the webhook was created; make a new one with: posthorn webhook rotate ' +
            `${out.domain})`,
        );
      }
      if (out.reenabled)
        lines.push('the webhook was disabled and is active again; deliveries that waited are sent now');
      return { json: out, text: lines.join('\n') };
    }),
};

/** `webhook rotate DOMAIN`: a new secret, shown once; the old one signs beside it for the overlap. */
export const webhookRotate: Command = {
  words: 'webhook rotate',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await rotateWebhookSecret(deps, await findDomain(deps, args[0]!), CLI_ACTOR);
      return {
        json: out,
        text:
          `new signing secret for the webhook of ${out.domain} (shown only once):\nsecret: ${out.secret}\n` +
          `the previous secret keeps signing beside it until ${out.previous_secret_expires_at}; switch the receiver before then`,
      };
    }),
};

/** `webhook show DOMAIN`: URL, status, secrets' ages (never values), pending count and the last attempts. */
export const webhookShow: Command = {
  words: 'webhook show',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const view = await showWebhook(deps, await findDomain(deps, args[0]!));
      return { json: view, text: formatWebhook(view) };
    }),
};

/** `webhook remove DOMAIN`: the endpoint goes, with its pending deliveries and delivery log. */
export const webhookRemove: Command = {
  words: 'webhook remove',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await removeWebhook(deps, await findDomain(deps, args[0]!), CLI_ACTOR);
      return {
        json: out,
        text: `removed the webhook of ${out.domain}; ${out.dropped_pending} pending deliveries were dropped and will not be sent`,
      };
    }),
};

/** `webhook test DOMAIN`: one signed `webhook.test` POST now; prints what the receiver answered. */
export const webhookTest: Command = {
  words: 'webhook test',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await testWebhook(deps, await findDomain(deps, args[0]!), CLI_ACTOR);
      const answer =
        out.status === null
          ? `no response after ${out.duration_ms} ms: ${out.response}`
          : `HTTP ${out.status} in ${out.duration_ms} ms${out.response ? `: ${JSON.stringify(out.response.slice(0, 200))}` : ''}`;
      const ok = out.status !== null && out.status >= 200 && out.status < 300;
      return {
        json: out,
        text: `test POST ${out.id} to the webhook of ${out.domain}: ${answer}`,
        ...(ok ? {} : { failure: `the webhook of ${out.domain} did not answer the test with 2xx: ${answer}` }),
      };
    }),
};

/** `webhook replay DOMAIN --start T --end T [--event NAME]`: the window's stored events are queued again with their ids. */
export const webhookReplay: Command = {
  words: 'webhook replay',
  args: ['DOMAIN'],
  options: ['start', 'end', 'event'],
  run: ({ config, args, options }) => {
    if (options.start === undefined || options.end === undefined)
      throw new CommandError('webhook replay needs --start TIME and --end TIME (ISO 8601, as GET /v1/events takes)');
    const window = {
      start: options.start,
      end: options.end,
      ...(options.event !== undefined ? { event: options.event } : {}),
    };
    return withDeps(config, async (deps) => {
      const out = await replayWebhook(deps, await findDomain(deps, args[0]!), window, CLI_ACTOR);
      return {
        json: out,
        text: `queued ${out.queued} events of ${out.domain} to its webhook again, with their original ids (webhook-id)`,
      };
    });
  },
};

function formatWebhook(v: WebhookView): string {
  const status =
    v.status === 'active'
      ? `active${v.failing_since ? ` (failing since ${v.failing_since})` : ''}`
      : `disabled at ${v.disabled_at}: ${v.disabled_reason} (re-enable with: posthorn webhook set ${v.domain} URL)`;
  const lines = [
    `domain:   ${v.domain}`,
    `url:      ${v.url}`,
    `status:   ${status}`,
    ...v.secrets.map(
      (s, i) =>
        `secret ${i + 1}: created ${s.created_at} (${s.age_seconds} s ago)${s.expires_at ? `, signs until ${s.expires_at}` : ', current'}`,
    ),
    `pending:  ${v.pending}`,
    `failed:   ${v.failed} (given up after the last retry)`,
  ];
  if (v.last_attempts.length === 0) return [...lines, 'attempts: none yet'].join('\n');
  lines.push('last attempts (newest first):');
  for (const a of v.last_attempts) {
    const outcome = a.status !== null ? `HTTP ${a.status} in ${a.duration_ms} ms` : `no response: ${a.error}`;
    const snippet = a.response_snippet ? `  ${JSON.stringify(a.response_snippet.slice(0, 80))}` : '';
    lines.push(`  ${a.attempted_at}  ${a.event_id} ${a.event} #${a.attempt}  ${outcome}${snippet}`);
  }
  return lines.join('\n');
}

import type { Deps } from '../deps.js';
import { makeReturnPath, readReturnPath } from '../delivery/return-path.js';
import { PREFETCH_WINDOW_MS } from '../tracking/automated.js';
import { recordClick, recordOpen } from '../tracking/record.js';
import { receiveReport } from '../feedback/receive-report.js';
import { recordUnsubscribe } from '../tracking/unsubscribe-record.js';
import { buildSandboxComplaint } from './sandbox-complaint.js';
import { deliveredTokens, type DeliveredTokens } from './sandbox-links.js';
import { readSandboxRaw } from './sandbox-raw.js';

/** What a trigger acts on: one delivered recipient of one sandbox mailbox row. */
export interface TriggerContext {
  deps: Deps;
  trackingSecret: Buffer;
  /** The message as the sandbox received it: signed, tracking URLs in place. */
  raw: Buffer;
  /** The envelope sender it was delivered with (the signed return path). */
  mailFrom: string;
  /**
   * The return path naming this recipient alone. A real feedback loop quotes `mailFrom`, which is
   * shared by the transaction's co-recipients and so never suppresses (docs/inbound.md); the sandbox's
   * loop is Posthorn itself and knows which recipient complained.
   */
  recipientReturnPath: string;
  recipient: { id: string; address: string; messageId: string };
  tokens: DeliveredTokens;
  /** A dedupe key for one step of this trigger, so a run repeated after a crash records nothing twice. */
  onceKey(step: string): string;
}

/** A special sandbox recipient that acts after its `delivered` event (docs/tracking.md, Sandbox). */
export interface SandboxTrigger {
  prefix: string;
  what: string;
  /** How long after `delivered` it acts. */
  delayMs: number;
  run(ctx: TriggerContext): Promise<void>;
}

/** The user agent of the sandbox's reader: a plain browser, so its opens are not taken for a proxy's. */
export const SANDBOX_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) Posthorn-Sandbox/1.0';

async function open(ctx: TriggerContext): Promise<void> {
  if (ctx.tokens.open === null) {
    ctx.deps.log.info(
      { recipient: ctx.recipient.address },
      'sandbox open@/click@: the message has no open pixel (open tracking off or no html)',
    );
    return;
  }
  await recordOpen(ctx.deps, ctx.trackingSecret, {
    token: ctx.tokens.open,
    userAgent: SANDBOX_USER_AGENT,
    ip: null,
    onceKey: ctx.onceKey('open'),
  });
}

/**
 * The trigger table. Each runs the same functions as the HTTP routes, with the token taken from
 * the delivered message; `complain@` builds the ARF report a mailbox provider's feedback loop
 * would send and hands it to the inbound MX's own `receiveReport`, so parsing, matching by the
 * signed return path, dedupe and suppression are the real ones.
 */
export const SANDBOX_TRIGGERS: readonly SandboxTrigger[] = [
  {
    prefix: 'open',
    what: 'delivered, then opened (after the prefetch window, so not flagged automated)',
    delayMs: PREFETCH_WINDOW_MS,
    run: open,
  },
  {
    prefix: 'click',
    what: 'delivered, opened, then the first tracked link clicked',
    delayMs: PREFETCH_WINDOW_MS,
    async run(ctx) {
      await open(ctx);
      const first = ctx.tokens.clicks[0];
      if (first === undefined) {
        ctx.deps.log.info(
          { recipient: ctx.recipient.address },
          'sandbox click@: the message has no tracked link (click tracking off or no http(s) link)',
        );
        return;
      }
      await recordClick(ctx.deps, ctx.trackingSecret, {
        token: first,
        userAgent: SANDBOX_USER_AGENT,
        ip: null,
        onceKey: ctx.onceKey('click'),
      });
    },
  },
  {
    prefix: 'unsubscribe',
    what: 'delivered, then unsubscribed with the one-click POST (RFC 8058): suppressed',
    delayMs: 0,
    async run(ctx) {
      if (ctx.tokens.unsubscribe === null) {
        ctx.deps.log.info(
          { recipient: ctx.recipient.address },
          'sandbox unsubscribe@: the message has no List-Unsubscribe (unsubscribe off)',
        );
        return;
      }
      // Idempotent by itself (`unsubscribed:<recipient id>`), so no extra key is needed.
      await recordUnsubscribe(ctx.deps, ctx.trackingSecret, {
        token: ctx.tokens.unsubscribe,
        userAgent: SANDBOX_USER_AGENT,
        method: 'one-click',
      });
    },
  },
  {
    prefix: 'complain',
    what: 'delivered, then reported as spam through an ARF feedback-loop report (RFC 5965): complained, suppressed',
    delayMs: 0,
    async run(ctx) {
      const { deps } = ctx;
      const raw = buildSandboxComplaint({
        original: ctx.raw,
        envelopeFrom: ctx.recipientReturnPath,
        recipient: ctx.recipient.address,
        complaintAddress: deps.config.complaintAddress,
        now: deps.clock.now(),
      });
      // A second run after a crash stores a second report; applying it is deduplicated (`complained:<recipient id>`).
      await receiveReport(deps, {
        raw,
        mailFrom: '',
        rcptTo: [deps.config.complaintAddress],
        remoteAddress: '127.0.0.1',
      });
    },
  },
];

/** The local part's trigger (before any `+tag`), if it has one. */
export function triggerFor(address: string): SandboxTrigger | undefined {
  const local = (address.split('@')[0] ?? '').split('+')[0]?.toLowerCase() ?? '';
  return SANDBOX_TRIGGERS.find((t) => t.prefix === local);
}

const ROWS_PER_RUN = 50;

/** The recipients row of a delivered sandbox address, found through the signed return path. */
async function findRecipient(deps: Deps, returnPathSecret: Buffer, mailFrom: string, address: string) {
  const subject = readReturnPath(returnPathSecret, mailFrom);
  if (subject === null) return null;
  let q = deps.db.selectFrom('recipients').select(['id', 'address', 'message_id', 'status']);
  if (subject.startsWith('rcp_')) q = q.where('id', '=', subject);
  else if (subject.startsWith('grp_')) {
    // A group token names the transaction's first recipient; its message holds the others.
    const anchor = await deps.db
      .selectFrom('recipients')
      .select('message_id')
      .where('id', '=', `rcp_${subject.slice(4)}`)
      .executeTakeFirst();
    if (!anchor) return null;
    q = q.where('message_id', '=', anchor.message_id).where('address', '=', address);
  } else q = q.where('message_id', '=', subject).where('address', '=', address);
  return (await q.executeTakeFirst()) ?? null;
}

/**
 * One pass over the mailbox rows with pending triggers: each trigger acts once its recipient's
 * `delivered` event is committed and its delay has passed; the row's mark is cleared when all of
 * them acted. Returns how many triggers acted. A trigger that throws stays pending for the next pass.
 */
export async function runSandboxTriggers(
  deps: Deps,
  secrets: { trackingSecret: Buffer; returnPathSecret: Buffer },
): Promise<number> {
  const rows = await deps.db
    .selectFrom('sandbox_messages')
    .select(['id', 'mail_from', 'recipients', 'raw'])
    .where('triggers_pending', '=', 1)
    .orderBy('created_at')
    .limit(ROWS_PER_RUN)
    .execute();
  let acted = 0;
  for (const row of rows) {
    let waiting = false;
    const raw = await readSandboxRaw(deps.db, row);
    const tokens = deliveredTokens(raw);
    for (const address of JSON.parse(row.recipients) as string[]) {
      const trigger = triggerFor(address);
      if (!trigger) continue;
      const r = await findRecipient(deps, secrets.returnPathSecret, row.mail_from, address);
      if (r === null || r.status === 'failed' || r.status === 'rejected') continue;
      const delivered =
        r.status === 'delivered'
          ? await deps.db
              .selectFrom('events')
              .select('occurred_at')
              .where('message_id', '=', r.message_id)
              .where('recipient', '=', r.address)
              .where('event', '=', 'delivered')
              .executeTakeFirst()
          : undefined;
      if (!delivered || deps.clock.now() < Number(delivered.occurred_at) + trigger.delayMs) {
        waiting = true;
        continue;
      }
      try {
        await trigger.run({
          deps,
          trackingSecret: secrets.trackingSecret,
          raw,
          mailFrom: row.mail_from,
          tokens,
          recipientReturnPath: makeReturnPath(
            secrets.returnPathSecret,
            r.id,
            row.mail_from.slice(row.mail_from.toLowerCase().indexOf('@bounce.') + '@bounce.'.length),
          ),
          recipient: { id: r.id, address: r.address, messageId: r.message_id },
          onceKey: (step) => `sandbox:${row.id}:${r.id}:${step}`,
        });
        acted++;
      } catch (err) {
        deps.log.error(
          { err, recipient: address, trigger: trigger.prefix },
          'sandbox trigger failed; it is tried again',
        );
        waiting = true;
      }
    }
    if (!waiting)
      await deps.db.updateTable('sandbox_messages').set({ triggers_pending: 0 }).where('id', '=', row.id).execute();
  }
  return acted;
}

/** Runs the triggers every `intervalMs` (the delivery role, in sandbox mode), one pass at a time. */
export function startSandboxTriggers(
  deps: Deps,
  secrets: { trackingSecret: Buffer; returnPathSecret: Buffer },
  intervalMs = 500,
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = (): void => {
    if (running) return;
    running = runSandboxTriggers(deps, secrets)
      .then(
        () => undefined,
        (err: unknown) => deps.log.error({ err }, 'sandbox triggers failed'),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

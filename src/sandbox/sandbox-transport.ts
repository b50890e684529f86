import type { Deps } from '../deps.js';
import { parseSmtpReply, type SmtpReply } from '../core/smtp-reply.js';
import type { AttemptResult, DeliveryAttempt, RecipientReply, Transport } from '../delivery/transport.js';
import { yieldToLoop } from '../offload/offload-pool.js';
import { triggerFor } from './sandbox-triggers.js';
import { SANDBOX_PART_BYTES } from './sandbox-raw.js';
import { sqliteWriter } from '../storage/open-database.js';

/** The ordinary answer, written whole as a server sends it, so events show it as they would a real one. */
const DELIVERED = parseSmtpReply('250 2.0.0 OK: queued (sandbox)');

/**
 * What the sandbox answers for a recipient, chosen by the local part (before any `+tag`), so a
 * user can watch every outcome without the internet (README, Quick start). Replies are
 * the ones real servers send, so they go through the same classification as real mail.
 * Recipients that act after delivery (open@, click@, unsubscribe@, complain@) are SANDBOX_TRIGGERS
 * (sandbox-triggers.ts); they get the ordinary 250.
 */
export const SANDBOX_BEHAVIOURS: { prefix: string; reply: (attempt: number) => SmtpReply; what: string }[] = [
  {
    prefix: 'bounce',
    what: 'hard bounce: failed, address suppressed',
    reply: () => parseSmtpReply('550 5.1.1 The email account that you tried to reach does not exist (sandbox)'),
  },
  {
    prefix: 'block',
    what: 'policy block: failed with bounce_class block, not suppressed',
    reply: () => parseSmtpReply('550 5.7.1 Service unavailable; client host blocked using a blocklist (sandbox)'),
  },
  {
    prefix: 'defer',
    what: 'deferred once, then delivered on the retry',
    reply: (attempt) =>
      attempt <= 1 ? parseSmtpReply('451 4.3.0 Temporary failure, try again later (sandbox)') : DELIVERED,
  },
];

function replyFor(address: string, attempt: number): SmtpReply {
  const local = (address.split('@')[0] ?? '').split('+')[0]?.toLowerCase() ?? '';
  return SANDBOX_BEHAVIOURS.find((b) => local === b.prefix)?.reply(attempt) ?? DELIVERED;
}

/** A Transport that keeps accepted mail in the sandbox mailbox (table sandbox_messages) instead of sending it. */
export function createSandboxTransport(deps: Pick<Deps, 'db' | 'clock' | 'ids'>): Transport {
  return {
    async send(attempt: DeliveryAttempt): Promise<AttemptResult> {
      const recipients: RecipientReply[] = attempt.recipients.map((address) => ({
        address,
        reply: replyFor(address, attempt.attempt),
      }));
      const accepted = recipients.filter((r) => r.reply.code === 250).map((r) => r.address);
      if (accepted.length > 0) {
        const now = deps.clock.now();
        const messageId =
          /^Message-ID:\s*<([^@>]+)@/im.exec(attempt.raw.subarray(0, 8192).toString('latin1'))?.[1] ?? '';
        const row = {
          id: deps.ids.next('msg', now).replace(/^msg_/, 'sbx_'),
          message_id: messageId,
          mail_from: attempt.envelopeFrom,
          recipients: JSON.stringify(accepted),
          created_at: now,
          triggers_pending: accepted.some((a) => triggerFor(a) !== undefined) ? 1 : 0,
        };
        const raw = attempt.raw;
        if (raw.length <= SANDBOX_PART_BYTES)
          await deps.db
            .insertInto('sandbox_messages')
            .values({ ...row, raw })
            .execute();
        else {
          const parts: { sandbox_message_id: string; seq: number; bytes: Buffer }[] = [];
          for (let seq = 0, at = 0; at < raw.length; seq++, at += SANDBOX_PART_BYTES)
            // Views of the signed bytes, not copies.
            parts.push({ sandbox_message_id: row.id, seq, bytes: raw.subarray(at, at + SANDBOX_PART_BYTES) });
          const head = deps.db.insertInto('sandbox_messages').values({ ...row, raw: Buffer.alloc(0) });
          const writer = sqliteWriter(deps.db);
          if (writer !== undefined) {
            // The server's SQLite writer thread (docs/architecture.md): the row and its parts in one
            // message and one transaction, so the write lock is not held across round trips.
            const statements = [head, ...parts.map((p) => deps.db.insertInto('sandbox_message_parts').values(p))];
            // Bytes handed over (DeliveryAttempt.rawHandedOver, transport.ts) are moved to the
            // thread: a copy of megabytes on the event loop saved.
            const own = attempt.rawHandedOver === true ? [raw.buffer as ArrayBuffer] : [];
            await writer.transaction(
              statements.map((q) => q.compile()).map((c) => [c.sql, c.parameters] as const),
              { handOver: own },
            );
          } else
            // 1 MiB slices with a turn of the event loop between them, in one transaction so the row
            // and its parts commit together: on a SQLite connection of the event loop's own (a CLI
            // command) one statement writing tens of MB would hold every request (docs/security.md,
            // "Connections and memory"). Read back with readSandboxRaw.
            await deps.db.transaction().execute(async (trx) => {
              await trx.executeQuery(head.compile());
              for (const part of parts) {
                await yieldToLoop();
                await trx.insertInto('sandbox_message_parts').values(part).execute();
              }
            });
        }
      }
      return { kind: 'transaction', mxHost: 'sandbox', tls: null, recipients };
    },
    close: async () => undefined,
  };
}

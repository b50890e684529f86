import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { OFFLOAD_MIN_BYTES } from '../offload/offload-pool.js';
import type { JobTable } from '../storage/database.js';
import type { MessageDraft } from '../mime/message-draft.js';
import { parseMetadata } from '../events/event-record.js';
import { isPersonalized, type TrackingFlags } from '../tracking/render.js';

/** A message with what signing and events need, loaded once per claimed batch. */
export interface LoadedMessage {
  id: string;
  accountId: string;
  domainId: string;
  domain: string;
  from: string;
  subject: string;
  tags: string[];
  /** The message's metadata, carried into its outcome events. */
  metadata: Record<string, string>;
  /** The SMTP relay's submitted MIME, when there is one; else the draft is rendered. */
  mime: string | null;
  draft: MessageDraft | null;
  /**
   * Characters of a large message's MIME or draft (over OFFLOAD_MIN_BYTES), whose body is not
   * loaded with the batch (`mime` and `draft` are null): deliver-group.ts reads it when it is its
   * turn and renders it off the event loop. 0 for a message loaded whole.
   */
  deferredSize: number;
  /** Open and click tracking and the unsubscribe fields, as resolved at submit (docs/tracking.md). */
  tracking: TrackingFlags;
  /** True for the sandbox domain's messages: they never leave the machine, whatever the mode. */
  sandbox: boolean;
  /** The keys as stored: sealed when POSTHORN_SECRETS_KEY is set (deliver-group.ts opens them). */
  dkim: { selector: string; privateKeyPem: string; ed25519: { selector: string; privateKeyPem: string } | null };
}

/**
 * The unit of delivery: one message to the recipients of one domain (at most 100, as RFC 5321
 * §4.5.3.1.8 has every server take), or to one recipient when the message carries per-recipient
 * tracking or unsubscribe URLs.
 */
export interface DeliveryGroup {
  message: LoadedMessage;
  recipientDomain: string;
  /** `status` as loaded: 'queued' until the engine has taken the recipient's message once. */
  items: { job: JobTable; recipientId: string; address: string; status: string }[];
}

const MAX_PER_TRANSACTION = 100;

/** Loads messages and recipients of claimed jobs in two queries and groups them by message and recipient domain. */
export async function loadClaimed(
  deps: Pick<Deps, 'db'>,
  jobs: JobTable[],
): Promise<{ groups: DeliveryGroup[]; orphans: JobTable[] }> {
  if (jobs.length === 0) return { groups: [], orphans: [] };
  const messageIds = [...new Set(jobs.map((j) => j.message_id))];
  const [messages, recipients] = await Promise.all([
    deps.db
      .selectFrom('messages as m')
      .innerJoin('domains as d', 'd.id', 'm.domain_id')
      // A claim of 200 jobs must not pull 200 large bodies into memory at once: those are read one by one later.
      .select([
        'm.id',
        'm.account_id',
        'm.domain_id',
        'd.name as domain',
        'm.from_address',
        'm.subject',
        'm.tags',
        'm.metadata',
        // `size` (bytes of whichever is stored) decides, not length(): SQLite's length() reads the whole value.
        sql<string | null>`case when m.size > ${sql.lit(OFFLOAD_MIN_BYTES)} then null else m.mime end`.as('mime'),
        sql<string | null>`case when m.size > ${sql.lit(OFFLOAD_MIN_BYTES)} then null else m.content end`.as('content'),
        sql<number | null>`case when m.mime is null and m.content is null then null else m.size end`.as('size'),
        'm.track_opens',
        'm.track_clicks',
        'm.unsubscribe',
        'd.sandbox',
        'd.dkim_selector',
        'd.dkim_private_key',
        'd.ed25519_selector',
        'd.ed25519_private_key',
      ])
      .where('m.id', 'in', messageIds)
      .execute(),
    deps.db
      .selectFrom('recipients')
      .select(['id', 'address', 'domain', 'status'])
      .where(
        'id',
        'in',
        jobs.map((j) => j.recipient_id),
      )
      .execute(),
  ]);
  const byMessage = new Map(messages.map((m) => [m.id, m]));
  const byRecipient = new Map(recipients.map((r) => [r.id, r]));
  const groups = new Map<string, DeliveryGroup>();
  const orphans: JobTable[] = [];
  for (const job of jobs) {
    const m = byMessage.get(job.message_id);
    const r = byRecipient.get(job.recipient_id);
    // A body purged by retention can no longer be sent (bodies are kept 30 days by default, retries
    // last 72 h).
    if (!m || !r || m.size === null) {
      orphans.push(job);
      continue;
    }
    const tracking: TrackingFlags = {
      opens: m.track_opens === 1,
      clicks: m.track_clicks === 1,
      unsubscribe: m.unsubscribe === 1,
    };
    // Per-recipient URLs make each recipient's copy different: one transaction each. Untracked
    // mail keeps sharing a transaction per domain, which is most of delivery's speed.
    let key = isPersonalized(tracking) ? `${m.id}|${r.id}` : `${m.id}|${r.domain}|0`;
    for (let n = 0; (groups.get(key)?.items.length ?? 0) >= MAX_PER_TRANSACTION; n++)
      key = `${m.id}|${r.domain}|${n + 1}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        recipientDomain: r.domain,
        items: [],
        message: {
          id: m.id,
          accountId: m.account_id,
          domainId: m.domain_id,
          domain: m.domain,
          from: m.from_address,
          subject: m.subject,
          tags: JSON.parse(m.tags) as string[],
          metadata: parseMetadata(m.metadata),
          sandbox: m.sandbox === 1,
          mime: m.mime,
          draft: m.content === null ? null : (JSON.parse(m.content) as MessageDraft),
          tracking,
          deferredSize: m.mime === null && m.content === null ? Number(m.size) : 0,
          dkim: {
            selector: m.dkim_selector,
            privateKeyPem: m.dkim_private_key,
            ed25519:
              m.ed25519_selector && m.ed25519_private_key
                ? { selector: m.ed25519_selector, privateKeyPem: m.ed25519_private_key }
                : null,
          },
        },
      };
      groups.set(key, g);
    }
    g.items.push({ job, recipientId: r.id, address: r.address, status: r.status });
  }
  return { groups: [...groups.values()], orphans };
}

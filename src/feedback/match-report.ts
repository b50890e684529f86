import type { Kysely } from 'kysely';
import { readReturnPath } from '../delivery/return-path.js';
import type { Database } from '../storage/database.js';
import type { ParsedReport, ReportRecipient } from './types.js';
import { parseMetadata } from '../events/event-record.js';

/** The message a report is about, as events need it. */
export interface MatchedMessage {
  id: string;
  accountId: string;
  domainId: string;
  from: string;
  subject: string;
  tags: string[];
  metadata: Record<string, string>;
}

/** One of the message's recipients, with the report's line about it. */
export interface MatchedRecipient {
  id: string;
  address: string;
  report: ReportRecipient;
}

/**
 * `recipient`: the token names one recipient (its own transaction), so only that recipient can have
 * seen it. `shared`: a group or message token, seen by every recipient of the transaction, so one of
 * them could have written the report about another: it records events but never suppresses.
 */
export type TokenScope = 'recipient' | 'shared';

export type ReportMatch =
  | {
      kind: 'matched';
      via: 'token';
      scope: TokenScope;
      message: MatchedMessage;
      recipients: MatchedRecipient[];
      unmatched: string[];
    }
  | { kind: 'forged'; why: string }
  | { kind: 'unmatched'; why: string };

/** What matching needs besides the report: the return-path secret, and the names Posthorn's addresses use. */
export interface MatchContext {
  db: Kysely<Database>;
  secret: Buffer;
  hostname: string;
  bounceHost: string;
}

/**
 * Reads an address as a return path: `shaped` when it looks like one of ours (`b-…` at
 * `bounce.<something>` or at the bounce host), `id` when its token also verifies. The HMAC covers
 * the token alone (return-path.ts), so an address at the bounce host is checked as if it were at
 * `bounce.<domain>`: the same local part is valid at both.
 */
export function readToken(secret: Buffer, bounceHost: string, address: string): { shaped: boolean; id: string | null } {
  const at = address.lastIndexOf('@');
  if (at <= 0) return { shaped: false, id: null };
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).toLowerCase();
  if (!/^b-/i.test(local) || !(domain.startsWith('bounce.') || domain === bounceHost.toLowerCase()))
    return { shaped: false, id: null };
  return { shaped: true, id: readReturnPath(secret, `${local}@bounce.${domain}`) };
}

/** `<msg_…@{hostname}>` → the `msg_` id; any other Message-ID is not ours (mime/message-draft.ts). */
export function messageIdOf(messageId: string | null, hostname: string): string | null {
  const m = /^<(msg_[0-9a-z]{26})@([^<>\s]+)>$/i.exec(messageId ?? '');
  if (!m || (m[2] as string).toLowerCase() !== hostname.toLowerCase()) return null;
  return `msg_${(m[1] as string).slice(4).toUpperCase()}`;
}

const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The line a report has about `address`; a redacted complaint (no recipient named) stands for the whole report. */
function placeholder(parsed: ParsedReport, address: string): ReportRecipient | null {
  if (parsed.kind !== 'complaint') return null;
  return {
    address,
    action: null,
    status: null,
    class: 'complaint',
    reason: null,
    diagnostic: parsed.feedback ? `feedback-type: ${parsed.feedback.type}` : null,
  };
}

/**
 * Matches a parsed report to its message and recipients, by the signed return path only: the
 * envelope recipients it came to, then the report's To and the original's envelope sender. A report
 * without a token that verifies changes nothing. A token-shaped address that fails verification,
 * with no verified one beside it, is a forged bounce. No token at all is unmatched, whatever
 * Message-ID the report quotes: every recipient of a message sees its Message-ID, so quoting it
 * proves nothing about who bounced or complained (docs/inbound.md).
 *
 * Then per recipient: a recipient token names its recipient. A group token (`grp_`, a transaction
 * with several recipients) stands for the message's recipients at its first recipient's domain, a
 * legacy message token (`msg_`) for all of the message's recipients; each report line is matched to
 * one of those by address (case-insensitive), else the only one of them. Those tokens are `shared`.
 */
export async function matchReport(
  ctx: MatchContext,
  parsed: ParsedReport,
  envelopeRcpts: readonly string[],
): Promise<ReportMatch> {
  if (parsed.kind === 'unknown') return { kind: 'unmatched', why: 'not a bounce or complaint report' };
  const candidates = [...envelopeRcpts, parsed.returnPath, parsed.originalEnvelopeFrom].filter(
    (a): a is string => typeof a === 'string' && a !== '',
  );
  const tokens = candidates
    .map((a) => ({ address: a, ...readToken(ctx.secret, ctx.bounceHost, a) }))
    .filter((t) => t.shaped);
  const verified = tokens.find((t) => t.id !== null);
  if (tokens.length > 0 && !verified) {
    return {
      kind: 'forged',
      why: `return-path token does not verify: ${[...new Set(tokens.map((t) => t.address))].join(', ')}`,
    };
  }
  if (!verified?.id) {
    const quoted = messageIdOf(parsed.originalMessageId, ctx.hostname);
    return {
      kind: 'unmatched',
      why: `no return-path token${quoted ? ` (it quotes the Message-ID of ${quoted}, which every recipient saw and which proves nothing)` : ''}`,
    };
  }
  const subject = verified.id;

  if (subject.startsWith('rcp_')) {
    const rcp = await ctx.db
      .selectFrom('recipients')
      .select(['id', 'address', 'message_id'])
      .where('id', '=', subject)
      .executeTakeFirst();
    if (!rcp) return { kind: 'unmatched', why: `recipient ${subject} of the return path is not in the database` };
    const message = await loadMessage(ctx.db, rcp.message_id);
    if (!message) return { kind: 'unmatched', why: `message ${rcp.message_id} is not in the database` };
    // The token names the recipient; the report's line about it is the one with its address, else the first.
    const report =
      parsed.recipients.find((r) => sameAddress(r.address, rcp.address)) ??
      parsed.recipients[0] ??
      placeholder(parsed, rcp.address);
    if (!report) return { kind: 'unmatched', why: 'the report names no recipient' };
    const unmatched = parsed.recipients.filter((r) => r !== report).map((r) => r.address);
    return {
      kind: 'matched',
      via: 'token',
      scope: 'recipient',
      message,
      recipients: [{ id: rcp.id, address: rcp.address, report }],
      unmatched,
    };
  }

  let messageId = subject;
  let domain: string | null = null;
  if (subject.startsWith('grp_')) {
    const anchor = await ctx.db
      .selectFrom('recipients')
      .select(['message_id', 'domain'])
      .where('id', '=', `rcp_${subject.slice(4)}`)
      .executeTakeFirst();
    if (!anchor)
      return {
        kind: 'unmatched',
        why: `recipient rcp_${subject.slice(4)} of the group return path is not in the database`,
      };
    messageId = anchor.message_id;
    domain = anchor.domain;
  }
  const message = await loadMessage(ctx.db, messageId);
  if (!message) return { kind: 'unmatched', why: `message ${messageId} is not in the database` };
  let q = ctx.db.selectFrom('recipients').select(['id', 'address']).where('message_id', '=', messageId);
  if (domain !== null) q = q.where('domain', '=', domain);
  const all = await q.orderBy('id').execute();
  const lines =
    parsed.recipients.length > 0
      ? parsed.recipients
      : all.length === 1
        ? [placeholder(parsed, all[0]!.address)].filter((r) => r !== null)
        : [];
  const recipients: MatchedRecipient[] = [];
  const unmatched: string[] = [];
  for (const report of lines) {
    const rcp = all.find((r) => sameAddress(r.address, report.address)) ?? (all.length === 1 ? all[0] : undefined);
    if (!rcp || recipients.some((m) => m.id === rcp.id)) unmatched.push(report.address);
    else recipients.push({ id: rcp.id, address: rcp.address, report });
  }
  const scope = domain === null ? messageId : `${messageId} at ${domain}`;
  if (recipients.length === 0)
    return {
      kind: 'unmatched',
      why: `no recipient of ${scope} matches ${lines.map((r) => r.address).join(', ') || 'the report'}`,
    };
  return { kind: 'matched', via: 'token', scope: 'shared', message, recipients, unmatched };
}

async function loadMessage(db: Kysely<Database>, id: string): Promise<MatchedMessage | null> {
  const row = await db
    .selectFrom('messages')
    .select(['id', 'account_id', 'domain_id', 'from_address', 'subject', 'tags', 'metadata'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  let tags: string[] = [];
  try {
    const parsed = JSON.parse(row.tags) as unknown;
    if (Array.isArray(parsed)) tags = parsed.filter((t): t is string => typeof t === 'string');
  } catch {
    // A damaged tags value must not stop a bounce from counting; the event carries no tags then.
  }
  return {
    id: row.id,
    accountId: row.account_id,
    domainId: row.domain_id,
    from: row.from_address,
    subject: row.subject,
    tags,
    // Read as leniently as tags: a damaged value gives an event without metadata, never a lost bounce.
    metadata: parseMetadata(row.metadata),
  };
}

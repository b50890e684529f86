import type { Kysely } from 'kysely';
import { readReturnPath } from '../delivery/return-path.js';
import type { Database } from '../storage/database.js';
import type { ParsedReport, ReportRecipient } from './types.js';

/** The message a report is about, as events need it. */
export interface MatchedMessage {
  id: string;
  accountId: string;
  domainId: string;
  from: string;
  subject: string;
  tags: string[];
}

/** One of the message's recipients, with the report's line about it. */
export interface MatchedRecipient {
  id: string;
  address: string;
  report: ReportRecipient;
}

export type ReportMatch =
  | { kind: 'matched'; via: 'token' | 'message_id'; message: MatchedMessage; recipients: MatchedRecipient[]; unmatched: string[] }
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
  if (!/^b-/i.test(local) || !(domain.startsWith('bounce.') || domain === bounceHost.toLowerCase())) return { shaped: false, id: null };
  return { shaped: true, id: readReturnPath(secret, `${local}@bounce.${domain}`) };
}

/** `<msg_…@{hostname}>` → the `msg_` id; any other Message-ID is not ours (send/message-draft.ts). */
export function messageIdOf(messageId: string | null, hostname: string): string | null {
  const m = /^<(msg_[0-9a-z]{26})@([^<>\s]+)>$/i.exec(messageId ?? '');
  if (!m || (m[2] as string).toLowerCase() !== hostname.toLowerCase()) return null;
  return `msg_${(m[1] as string).slice(4).toUpperCase()}`;
}

const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The line a report has about `address`; a redacted complaint (no recipient named) stands for the whole report. */
function placeholder(parsed: ParsedReport, address: string): ReportRecipient | null {
  if (parsed.kind !== 'complaint') return null;
  return { address, action: null, status: null, class: 'complaint', diagnostic: parsed.feedback ? `feedback-type: ${parsed.feedback.type}` : null };
}

/**
 * Matches a parsed report to its message and recipients (issue 04 §2). First the signed return
 * path: the envelope recipients it came to, then the report's To and the original's envelope
 * sender. A token-shaped address that fails verification, with no verified one beside it, is a
 * forged bounce: nothing matches and there is no fall-back to the Message-ID, which anyone who saw
 * the message can quote. With no token at all (a feedback loop's report to the complaint address),
 * the original Message-ID `<msg_…@{hostname}>`. Then per recipient: the token's recipient, else the
 * message's recipient with the report's address (case-insensitive), else the only recipient.
 */
export async function matchReport(ctx: MatchContext, parsed: ParsedReport, envelopeRcpts: readonly string[]): Promise<ReportMatch> {
  if (parsed.kind === 'unknown') return { kind: 'unmatched', why: 'not a bounce or complaint report' };
  const candidates = [...envelopeRcpts, parsed.returnPath, parsed.originalEnvelopeFrom].filter((a): a is string => typeof a === 'string' && a !== '');
  const tokens = candidates.map((a) => ({ address: a, ...readToken(ctx.secret, ctx.bounceHost, a) })).filter((t) => t.shaped);
  const verified = tokens.find((t) => t.id !== null);
  if (tokens.length > 0 && !verified) {
    return { kind: 'forged', why: `return-path token does not verify: ${[...new Set(tokens.map((t) => t.address))].join(', ')}` };
  }
  const subject = verified?.id ?? messageIdOf(parsed.originalMessageId, ctx.hostname);
  if (subject === null) {
    return { kind: 'unmatched', why: parsed.originalMessageId ? `no return-path token, and Message-ID ${parsed.originalMessageId} is not one of ours` : 'no return-path token and no original Message-ID' };
  }
  const via = verified ? 'token' : 'message_id';

  if (subject.startsWith('rcp_')) {
    const rcp = await ctx.db.selectFrom('recipients').select(['id', 'address', 'message_id']).where('id', '=', subject).executeTakeFirst();
    if (!rcp) return { kind: 'unmatched', why: `recipient ${subject} of the return path is not in the database` };
    const message = await loadMessage(ctx.db, rcp.message_id);
    if (!message) return { kind: 'unmatched', why: `message ${rcp.message_id} is not in the database` };
    // The token names the recipient; the report's line about it is the one with its address, else the first.
    const report = parsed.recipients.find((r) => sameAddress(r.address, rcp.address)) ?? parsed.recipients[0] ?? placeholder(parsed, rcp.address);
    if (!report) return { kind: 'unmatched', why: 'the report names no recipient' };
    const unmatched = parsed.recipients.filter((r) => r !== report).map((r) => r.address);
    return { kind: 'matched', via, message, recipients: [{ id: rcp.id, address: rcp.address, report }], unmatched };
  }

  const message = await loadMessage(ctx.db, subject);
  if (!message) return { kind: 'unmatched', why: `message ${subject} is not in the database` };
  const all = await ctx.db.selectFrom('recipients').select(['id', 'address']).where('message_id', '=', subject).orderBy('id').execute();
  const lines = parsed.recipients.length > 0 ? parsed.recipients : all.length === 1 ? [placeholder(parsed, all[0]!.address)].filter((r) => r !== null) : [];
  const recipients: MatchedRecipient[] = [];
  const unmatched: string[] = [];
  for (const report of lines) {
    const rcp = all.find((r) => sameAddress(r.address, report.address)) ?? (all.length === 1 ? all[0] : undefined);
    if (!rcp || recipients.some((m) => m.id === rcp.id)) unmatched.push(report.address);
    else recipients.push({ id: rcp.id, address: rcp.address, report });
  }
  if (recipients.length === 0) return { kind: 'unmatched', why: `no recipient of ${subject} matches ${lines.map((r) => r.address).join(', ') || 'the report'}` };
  return { kind: 'matched', via, message, recipients, unmatched };
}

async function loadMessage(db: Kysely<Database>, id: string): Promise<MatchedMessage | null> {
  const row = await db.selectFrom('messages').select(['id', 'account_id', 'domain_id', 'from_address', 'subject', 'tags']).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  let tags: string[] = [];
  try {
    const parsed = JSON.parse(row.tags) as unknown;
    if (Array.isArray(parsed)) tags = parsed.filter((t): t is string => typeof t === 'string');
  } catch {
    // A damaged tags value must not stop a bounce from counting; the event carries no tags then.
  }
  return { id: row.id, accountId: row.account_id, domainId: row.domain_id, from: row.from_address, subject: row.subject, tags };
}

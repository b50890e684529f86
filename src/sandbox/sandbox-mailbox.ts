import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../core/time-id-cursor.js';
import { RefusedError } from '../core/refused-error.js';
import { decodeEncodedWords } from '../mime/header-text.js';
import { bodyText, header, parseHeaders, parseMime, type MimePart } from '../mime/parse-mime.js';
import { readSandboxRaw, SANDBOX_HEAD_BYTES } from './sandbox-raw.js';

/** A kept message as the mailbox lists it: its envelope and the headers a reader scans. */
export interface SandboxMessageSummary {
  id: string;
  message_id: string;
  mail_from: string;
  to: string[];
  from: string;
  subject: string;
  received_at: string;
}

/** One kept message with the bodies a reader shows: the HTML part and the plain-text part, when present. */
export interface SandboxMessageView extends SandboxMessageSummary {
  size: number;
  html: string | null;
  text: string | null;
}

const iso = (ms: number): string => new Date(Number(ms)).toISOString();

/** The headers of a message head, read from the bytes as UTF-8 (how nearly all mail is written). */
function headFields(head: Buffer): { from: string; subject: string } {
  const text = head.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const fields = parseHeaders(end === -1 ? text : text.slice(0, end));
  return {
    from: decodeEncodedWords(header(fields, 'from') ?? ''),
    subject: decodeEncodedWords(header(fields, 'subject') ?? ''),
  };
}

/**
 * The sandbox mailbox is the sandbox's own (docs/dashboard.md, Sandbox mailbox): outside sandbox
 * mode there is none, and the routes say so rather than show what an earlier sandbox start kept.
 */
function needSandbox(deps: Pick<Deps, 'config'>): void {
  if (!deps.config.sandbox)
    throw new RefusedError('not_found', 'there is no sandbox mailbox: this server is not in sandbox mode');
}

/**
 * The kept messages of the account's domains, newest first, a page at a time. A kept message
 * belongs to the account whose message it is (its Message-ID names the message, see
 * sandbox-transport.ts); only the head of each is read, from the row or its first part.
 */
export async function listSandboxMessages(
  deps: Pick<Deps, 'db' | 'config'>,
  accountId: string,
  page: { limit: number; cursor?: string },
): Promise<{ messages: SandboxMessageSummary[]; next_cursor: string | null }> {
  needSandbox(deps);
  return listKeptMessages(deps, accountId, page);
}

/**
 * The kept messages of one account, or of every account (`accountId` null: the operator's
 * `posthorn sandbox list`, which also shows what an earlier sandbox start kept), newest first.
 */
export async function listKeptMessages(
  deps: Pick<Deps, 'db'>,
  accountId: string | null,
  page: { limit: number; cursor?: string },
): Promise<{ messages: SandboxMessageSummary[]; next_cursor: string | null }> {
  const headBytes = sql.lit(SANDBOX_HEAD_BYTES);
  let q = deps.db
    .selectFrom('sandbox_messages as s')
    .select(['s.id', 's.message_id', 's.mail_from', 's.recipients', 's.created_at'])
    .select(sql<Buffer | null>`substr(s.raw, 1, ${headBytes})`.as('head'))
    .select((eb) =>
      eb
        .selectFrom('sandbox_message_parts as p')
        .select(sql<Buffer>`substr(p.bytes, 1, ${headBytes})`.as('head'))
        .whereRef('p.sandbox_message_id', '=', 's.id')
        .where('p.seq', '=', 0)
        .as('first_part'),
    );
  if (accountId !== null)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('messages as m')
          .select('m.id')
          .whereRef('m.id', '=', 's.message_id')
          .where('m.account_id', '=', accountId),
      ),
    );
  if (page.cursor !== undefined) {
    const after = decodeTimeIdCursor(page.cursor, 'sbx');
    q = q.where((eb) =>
      eb.or([
        eb('s.created_at', '<', after.at),
        eb.and([eb('s.created_at', '=', after.at), eb('s.id', '<', after.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return {
    messages: shown.map((r) => {
      // An empty raw (the message is in parts) reads as NULL or empty, depending on the database.
      const head = (r.head?.length ? r.head : r.first_part) ?? Buffer.alloc(0);
      return {
        id: r.id,
        message_id: r.message_id,
        mail_from: r.mail_from,
        to: JSON.parse(r.recipients) as string[],
        ...headFields(head),
        received_at: iso(r.created_at),
      };
    }),
    next_cursor: more && last ? encodeTimeIdCursor(Number(last.created_at), last.id) : null,
  };
}

/** A kept message of the account and its whole bytes, as signed; 404 naming `id` otherwise. */
export async function readSandboxMessage(
  deps: Pick<Deps, 'db' | 'config'>,
  accountId: string,
  id: string,
): Promise<{ summary: SandboxMessageSummary; raw: Buffer }> {
  needSandbox(deps);
  const row = await deps.db
    .selectFrom('sandbox_messages as s')
    .innerJoin('messages as m', 'm.id', 's.message_id')
    .where('m.account_id', '=', accountId)
    .where('s.id', '=', id)
    .select(['s.id', 's.message_id', 's.mail_from', 's.recipients', 's.created_at', 's.raw'])
    .executeTakeFirst();
  if (!row) throw new RefusedError('not_found', `no sandbox message ${id} in this account`, { field: 'id' });
  const raw = await readSandboxRaw(deps.db, row);
  return {
    summary: {
      id: row.id,
      message_id: row.message_id,
      mail_from: row.mail_from,
      to: JSON.parse(row.recipients) as string[],
      ...headFields(raw.subarray(0, SANDBOX_HEAD_BYTES)),
      received_at: iso(row.created_at),
    },
    raw,
  };
}

/** The first leaf of `type` outside attachments, depth first (the order a mail reader picks the body in). */
function firstBody(part: MimePart, type: string): MimePart | null {
  const disposition = header(part.headers, 'content-disposition') ?? '';
  if (/^\s*attachment/i.test(disposition)) return null;
  if (part.parts.length === 0 || !part.type.startsWith('multipart/')) return part.type === type ? part : null;
  for (const child of part.parts) {
    const found = firstBody(child, type);
    if (found) return found;
  }
  return null;
}

/** A kept message with its HTML and plain-text bodies decoded, for the dashboard's reader. */
export async function viewSandboxMessage(
  deps: Pick<Deps, 'db' | 'config'>,
  accountId: string,
  id: string,
): Promise<SandboxMessageView> {
  const { summary, raw } = await readSandboxMessage(deps, accountId, id);
  const root = parseMime(raw);
  const html = firstBody(root, 'text/html');
  const text = firstBody(root, 'text/plain');
  return {
    ...summary,
    size: raw.length,
    html: html ? bodyText(html) : null,
    text: text ? bodyText(text) : null,
  };
}

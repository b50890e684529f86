import type { Deps } from '../deps.js';
import { findAccount } from '../accounts/accounts.js';

/** How many notices one listing shows, newest first. */
export const NOTICE_LIST_LIMIT = 100;

/** One notice as the CLI, GET /v1/notices and the dashboard show it. */
export interface NoticeView {
  id: string;
  kind: string;
  domain: string | null;
  message: string;
  details: Record<string, unknown>;
  created_at: string;
}

/**
 * The newest notices of an account (domain warnings, complaint-rate warnings, disabled webhooks),
 * optionally of one of its domains. They also go to the domain's webhook, except
 * `webhook.disabled`, which could not reach it: this is where an operator sees that one.
 */
export async function listNotices(
  deps: Pick<Deps, 'db'>,
  accountName: string,
  domainName?: string,
): Promise<NoticeView[]> {
  const account = await findAccount(deps, accountName);
  return listAccountNotices(deps, account.id, domainName);
}

/** The same listing for an account known by id (GET /v1/notices, where the caller names the account). */
export async function listAccountNotices(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  domainName?: string,
): Promise<NoticeView[]> {
  let q = deps.db
    .selectFrom('notices')
    .leftJoin('domains', 'domains.id', 'notices.domain_id')
    .select([
      'notices.id',
      'notices.kind',
      'domains.name as domain',
      'notices.message',
      'notices.details',
      'notices.created_at',
    ])
    .where('notices.account_id', '=', accountId);
  if (domainName !== undefined) q = q.where('domains.name', '=', domainName.trim().toLowerCase().replace(/\.$/, ''));
  const rows = await q
    .orderBy('notices.created_at', 'desc')
    .orderBy('notices.id', 'desc')
    .limit(NOTICE_LIST_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    domain: r.domain,
    message: r.message,
    details: parseDetails(r.details),
    created_at: new Date(Number(r.created_at)).toISOString(),
  }));
}

/** The stored JSON details; anything but an object reads as `{}`. */
function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../deps.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import type { Database } from '../storage/database.js';

/**
 * Whose queue a caller works on (docs/delivery.md, Who may do what): an account token or
 * dashboard session its own account's messages, the CLI (the operator on the server) every
 * account's, or one account's with `--account`.
 */
export type QueueScope = { accountId: string } | { any: true };

/** A recipient domain as the queue and holds compare it: lower case, no trailing dot; refused when not a domain name. */
export function queueDomain(value: string, field = 'domain'): string {
  const d = value.trim().toLowerCase().replace(/\.$/, '');
  // RFC 1035 §2.3.1 labels (LDH, 1 to 63 characters), at least two of them, 253 characters in all.
  if (d.length > 253 || !/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/.test(d))
    throw new RefusedError(
      'invalid',
      `${field} must be a domain name such as example.com, got ${JSON.stringify(value.slice(0, 64))}`,
      {
        field,
      },
    );
  return d;
}

/**
 * A provider name as the delivery metrics and the queue label it: one of `names` (the
 * configuration's, delivery/providers.ts `providerNames`); refused otherwise, naming them.
 */
export function queueProvider(value: string, names: readonly string[], field = 'provider'): string {
  const p = value.trim().toLowerCase();
  if (!names.includes(p))
    throw new RefusedError(
      'invalid',
      `${field} must be one of ${names.join(', ')}, got ${JSON.stringify(value.slice(0, 64))}`,
      {
        field,
      },
    );
  return p;
}

/**
 * Records a queue operation in the audit log of each account it concerned (docs/management.md,
 * Audit log): an operator's hold over every account is written to every account's log, so each
 * account can see why its mail waited.
 */
export async function auditQueue(
  trx: Kysely<Database> | Transaction<Database>,
  deps: Pick<Deps, 'ids' | 'clock'>,
  accountIds: readonly string[] | 'all',
  actor: Actor,
  action: string,
  target: string,
): Promise<void> {
  const ids =
    accountIds === 'all'
      ? (await trx.selectFrom('accounts').select('id').execute()).map((a) => a.id)
      : [...new Set(accountIds)];
  for (const accountId of ids) await recordAudit(trx, deps, { accountId, actor, action, target });
}

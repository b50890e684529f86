import type { Deps } from '../deps.js';
import { SANDBOX } from '../core/sandbox-names.js';

/** What a production start found of an earlier sandbox start in the same data dir (or database). */
export interface RetiredSandbox {
  domains: string[];
  apiKeysRevoked: number;
  smtpLoginsRevoked: number;
  /** Sessions of the demo dashboard login ended. */
  sessionsEnded: number;
  /** The sandbox domain's jobs still queued: delivered into the local sandbox mailbox, never out. */
  queued: number;
}

/**
 * A production start in a data dir a sandbox start made (the README's path, from the quick start
 * to "Running for real" in the same folder) disables the sandbox's credentials on the spot: the
 * sandbox domain's API keys and SMTP logins are revoked, and the bootstrap marker goes, so a later
 * sandbox start makes and prints new ones. Nothing the operator made is touched: the sandbox domain
 * (a `.test` name, RFC 6761 §6.2, never verifiable in DNS) was only ever usable in the sandbox.
 * Disabling rather than refusing to start keeps the README's path working in one step; the
 * authentication checks refuse sandbox credentials outside sandbox mode anyway, so this makes the
 * stored state say so too. Returns null when there was nothing to disable.
 */
export async function retireSandbox(deps: Pick<Deps, 'db' | 'clock' | 'log'>): Promise<RetiredSandbox | null> {
  const retired = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const domains = await trx.selectFrom('domains').select(['id', 'name']).where('sandbox', '=', 1).execute();
    await trx.deleteFrom('settings').where('key', '=', SANDBOX.setting).execute();
    // The demo dashboard login's sessions end (sign-in refuses it outside sandbox mode anyway).
    const sessions = await trx
      .deleteFrom('user_sessions')
      .where('user_id', 'in', trx.selectFrom('users').select('id').where('sandbox', '=', 1))
      .executeTakeFirst();
    if (domains.length === 0) return null;
    const ids = domains.map((d) => d.id);
    const keys = await trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('domain_id', 'in', ids)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const logins = await trx
      .updateTable('smtp_credentials')
      .set({ revoked_at: now })
      .where('domain_id', 'in', ids)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const queued = await trx
      .selectFrom('jobs')
      .innerJoin('messages', 'messages.id', 'jobs.message_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('messages.domain_id', 'in', ids)
      .executeTakeFirst();
    return {
      domains: domains.map((d) => d.name),
      apiKeysRevoked: Number(keys.numUpdatedRows),
      smtpLoginsRevoked: Number(logins.numUpdatedRows),
      sessionsEnded: Number(sessions.numDeletedRows),
      queued: Number(queued?.n ?? 0),
    };
  });
  if (
    retired === null ||
    retired.apiKeysRevoked + retired.smtpLoginsRevoked + retired.sessionsEnded + retired.queued === 0
  )
    return null;
  deps.log.warn(
    retired,
    'this data dir was used by the sandbox: a production server never honours its credentials, so the sandbox ' +
      "domain's API keys and SMTP logins are revoked now, and its queued mail goes to the local sandbox mailbox, never to the internet " +
      '(a later sandbox start, POSTHORN_SANDBOX=1, prints new ones)',
  );
  return retired;
}

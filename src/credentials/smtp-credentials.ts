import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { recordAudit } from '../audit/audit-log.js';
import { resolveDomain, type DomainRef } from '../domains/add-domain.js';
import type { DomainTable } from '../storage/database.js';
import { CONTEXT_COLUMNS, lastUsedIsStale, toAuthContext, type AuthContext } from './authenticate.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { withTransaction } from '../storage/with-transaction.js';

/** A freshly made SMTP login: the password is returned once and only its hash is stored. */
export interface CreatedSmtpCredential {
  id: string;
  domain: string;
  username: string;
  password: string;
}

/** One credential as listings show it: never the hash. */
export interface SmtpCredentialEntry {
  username: string;
  created_at: string;
  /** The last successful relay AUTH, to the minute (authenticateSmtp). */
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * Usernames are `ph_smtp_<12 hex>`: recognisable as a Posthorn relay login next to `ph_<8 hex>_…`
 * API keys, free of the domain name (so a domain's logins do not reveal each other) and 48 random
 * bits, so a clash with the UNIQUE column is a once-in-a-lifetime retry.
 */
const USERNAME_PREFIX = 'ph_smtp_';

/**
 * The hash unknown and revoked usernames are verified against, so such a login costs the same
 * scrypt run as a wrong password for a real one and timing does not tell which usernames exist.
 * Its password was random and thrown away; nothing authenticates through it.
 */
const DUMMY_HASH = 'scrypt$32768$8$1$15SSoWrDIviZfgcVDujYnw$Gjh52c-MerJUOV3lyFWYbiK5XUA8C8aFzizQ20C7j3E';

/**
 * Makes a new relay login for a domain (`posthorn smtp-credential create`, POST
 * /v1/domains/{domain}/smtp-credentials). A domain may have several; they are independent of its
 * API key (README, The SMTP relay). The password is 256 random bits, base64url (43 characters),
 * hashed with scrypt off the event loop before it is stored. `actor` is who asked, for the audit
 * log (`smtp_credential.create`); only provisioning (the sandbox bootstrap, tests) leaves it out.
 */
export async function createSmtpCredential(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  ref: DomainRef,
  opts: { actor?: Actor } = {},
): Promise<CreatedSmtpCredential> {
  const domain = await resolveDomain(deps, ref);
  // A `phs_` prefix, as API keys have `ph_`: secret scanners can spot a leaked password, and it
  // never starts with `-`, which command-line clients (swaks, curl) would take for an option.
  const password = `phs_${deps.ids.random(32).toString('base64url')}`;
  const passwordHash = await hashPassword(password);
  for (let attempt = 0; ; attempt++) {
    const now = deps.clock.now();
    const id = deps.ids.next('cred', now);
    const username = `${USERNAME_PREFIX}${deps.ids.random(6).toString('hex')}`;
    try {
      await withTransaction(deps.db, async (trx) => {
        await trx
          .insertInto('smtp_credentials')
          .values({
            id,
            domain_id: domain.id,
            username,
            password_hash: passwordHash,
            created_at: now,
            revoked_at: null,
            last_used_at: null,
          })
          .execute();
        if (opts.actor)
          await recordAudit(trx, deps, {
            accountId: domain.account_id,
            actor: opts.actor,
            action: 'smtp_credential.create',
            target: `${domain.name} (${username})`,
          });
      });
      return { id, domain: domain.name, username, password };
    } catch (err) {
      // Only a username clash is worth another try; a second failure is not a clash.
      if (attempt >= 1) throw err;
    }
  }
}

/**
 * Revokes one login at once (its next AUTH is refused, and a session it opened is refused at its
 * next message: smtpContext), leaving the domain's other logins and its API key alone. With
 * `domain` (the API), only that domain's logins are found: another domain's is `not_found`, so a
 * caller cannot touch, or learn of, a login outside the domain it names. Audited as
 * `smtp_credential.revoke` when `actor` is given.
 */
export async function revokeSmtpCredential(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  username: string,
  opts: { domain?: DomainTable; actor?: Actor } = {},
): Promise<{ username: string; revoked: true }> {
  const row = await deps.db
    .selectFrom('smtp_credentials as c')
    .innerJoin('domains as d', 'd.id', 'c.domain_id')
    .select(['c.id', 'c.revoked_at', 'd.account_id', 'd.name'])
    .where('c.username', '=', username)
    .$if(opts.domain !== undefined, (q) => q.where('c.domain_id', '=', opts.domain!.id))
    .executeTakeFirst();
  const subject = { kind: 'smtp_credential', name: username } as const;
  const notFound = new RefusedError('not_found', `no SMTP credential named "${username}"`, {
    field: 'username',
    subject,
  });
  if (!row) throw notFound;
  const alreadyRevoked = new RefusedError('conflict', `SMTP credential ${username} is already revoked`, { subject });
  if (row.revoked_at !== null) throw alreadyRevoked;
  await deps.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('smtp_credentials')
      .set({ revoked_at: deps.clock.now() })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // Revoked by someone else since the read above.
    if (Number(result.numUpdatedRows) === 0) throw alreadyRevoked;
    if (opts.actor)
      await recordAudit(trx, deps, {
        accountId: row.account_id,
        actor: opts.actor,
        action: 'smtp_credential.revoke',
        target: `${row.name} (${username})`,
      });
  });
  return { username, revoked: true };
}

/** The domain's logins, oldest first, revoked ones included; usernames and dates only. */
export async function listSmtpCredentials(
  deps: Pick<Deps, 'db'>,
  ref: DomainRef,
): Promise<{ domain: string; credentials: SmtpCredentialEntry[] }> {
  const domain = await resolveDomain(deps, ref);
  const rows = await deps.db
    .selectFrom('smtp_credentials')
    .select(['username', 'created_at', 'last_used_at', 'revoked_at'])
    .where('domain_id', '=', domain.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const iso = (ms: number | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());
  return {
    domain: domain.name,
    credentials: rows.map((r) => ({
      username: r.username,
      created_at: iso(r.created_at)!,
      last_used_at: iso(r.last_used_at),
      revoked_at: iso(r.revoked_at),
    })),
  };
}

/**
 * Resolves an SMTP AUTH username and password to the same AuthContext an API key gives, with
 * `keyId` the credential's id, so the submit pipeline takes either. Unknown, revoked and wrong
 * are all `null`, and all cost one scrypt run. Not cached: a revoked login fails at once.
 * Outside sandbox mode a login of the sandbox domain is refused like an unknown one, and a deleted
 * domain's always. A success records `last_used_at`, at most once a minute (lastUsedIsStale).
 */
export async function authenticateSmtp(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  username: string,
  password: string,
): Promise<AuthContext | null> {
  const row = await deps.db
    .selectFrom('smtp_credentials as c')
    .innerJoin('domains as d', 'd.id', 'c.domain_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['c.id as cred_id', 'c.password_hash', 'c.last_used_at', ...CONTEXT_COLUMNS])
    .where('c.username', '=', username)
    .where('c.revoked_at', 'is', null)
    .where('d.deleted_at', 'is', null)
    .$if(!deps.config.sandbox, (q) => q.where('d.sandbox', '=', 0))
    .executeTakeFirst();
  const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
  if (!row || !ok) return null;
  const now = deps.clock.now();
  if (lastUsedIsStale(row.last_used_at, now))
    await deps.db.updateTable('smtp_credentials').set({ last_used_at: now }).where('id', '=', row.cred_id).execute();
  return toAuthContext(row.cred_id, row);
}

/**
 * The AuthContext of a credential that authenticated earlier in the session, read again when the
 * message is submitted: a credential revoked (or a domain changed) mid-session is seen at once.
 */
export async function smtpContext(
  deps: Pick<Deps, 'db' | 'config'>,
  credentialId: string,
): Promise<AuthContext | null> {
  const row = await deps.db
    .selectFrom('smtp_credentials as c')
    .innerJoin('domains as d', 'd.id', 'c.domain_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['c.id as cred_id', ...CONTEXT_COLUMNS])
    .where('c.id', '=', credentialId)
    .where('c.revoked_at', 'is', null)
    .where('d.deleted_at', 'is', null)
    .$if(!deps.config.sandbox, (q) => q.where('d.sandbox', '=', 0))
    .executeTakeFirst();
  return row ? toAuthContext(row.cred_id, row) : null;
}

import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { findDomain } from '../domains/add-domain.js';
import { CONTEXT_COLUMNS, toAuthContext, type AuthContext } from './authenticate.js';
import { hashPassword, verifyPassword } from './password-hash.js';

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
 * Makes a new relay login for `domainName` (`posthorn smtp-credential create`). A domain may have
 * several; they are independent of its API key (README, The SMTP relay). The password is 256 random
 * bits, base64url (43 characters), hashed with scrypt off the event loop before it is stored.
 */
export async function createSmtpCredential(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  domainName: string,
): Promise<CreatedSmtpCredential> {
  const domain = await findDomain(deps, domainName);
  // A `phs_` prefix, as API keys have `ph_`: secret scanners can spot a leaked password, and it
  // never starts with `-`, which command-line clients (swaks, curl) would take for an option.
  const password = `phs_${deps.ids.random(32).toString('base64url')}`;
  const passwordHash = await hashPassword(password);
  for (let attempt = 0; ; attempt++) {
    const now = deps.clock.now();
    const id = deps.ids.next('cred', now);
    const username = `${USERNAME_PREFIX}${deps.ids.random(6).toString('hex')}`;
    try {
      await deps.db
        .insertInto('smtp_credentials')
        .values({ id, domain_id: domain.id, username, password_hash: passwordHash, created_at: now, revoked_at: null })
        .execute();
      return { id, domain: domain.name, username, password };
    } catch (err) {
      // Only a username clash is worth another try; a second failure is not a clash.
      if (attempt >= 1) throw err;
    }
  }
}

/** Revokes one login at once, leaving the domain's other logins and its API key alone. */
export async function revokeSmtpCredential(
  deps: Pick<Deps, 'db' | 'clock'>,
  username: string,
): Promise<{ username: string; revoked: true }> {
  const result = await deps.db
    .updateTable('smtp_credentials')
    .set({ revoked_at: deps.clock.now() })
    .where('username', '=', username)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const row = await deps.db
      .selectFrom('smtp_credentials')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirst();
    const subject = { kind: 'smtp_credential', name: username } as const;
    throw row
      ? new RefusedError('conflict', `SMTP credential ${username} is already revoked`, { subject })
      : new RefusedError('not_found', `no SMTP credential named "${username}"`, { field: 'username', subject });
  }
  return { username, revoked: true };
}

/** The domain's logins, oldest first, revoked ones included; usernames and dates only. */
export async function listSmtpCredentials(
  deps: Pick<Deps, 'db'>,
  domainName: string,
): Promise<{ domain: string; credentials: SmtpCredentialEntry[] }> {
  const domain = await findDomain(deps, domainName);
  const rows = await deps.db
    .selectFrom('smtp_credentials')
    .select(['username', 'created_at', 'revoked_at'])
    .where('domain_id', '=', domain.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return {
    domain: domain.name,
    credentials: rows.map((r) => ({
      username: r.username,
      created_at: new Date(Number(r.created_at)).toISOString(),
      revoked_at: r.revoked_at === null ? null : new Date(Number(r.revoked_at)).toISOString(),
    })),
  };
}

/**
 * Resolves an SMTP AUTH username and password to the same AuthContext an API key gives, with
 * `keyId` the credential's id, so the submit pipeline takes either. Unknown, revoked and wrong
 * are all `null`, and all cost one scrypt run. Not cached: a revoked login fails at once.
 * Outside sandbox mode a login of the sandbox domain is refused like an unknown one.
 */
export async function authenticateSmtp(
  deps: Pick<Deps, 'db' | 'config'>,
  username: string,
  password: string,
): Promise<AuthContext | null> {
  const row = await deps.db
    .selectFrom('smtp_credentials as c')
    .innerJoin('domains as d', 'd.id', 'c.domain_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['c.id as cred_id', 'c.password_hash', ...CONTEXT_COLUMNS])
    .where('c.username', '=', username)
    .where('c.revoked_at', 'is', null)
    .$if(!deps.config.sandbox, (q) => q.where('d.sandbox', '=', 0))
    .executeTakeFirst();
  const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
  if (!row || !ok) return null;
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
    .$if(!deps.config.sandbox, (q) => q.where('d.sandbox', '=', 0))
    .executeTakeFirst();
  return row ? toAuthContext(row.cred_id, row) : null;
}

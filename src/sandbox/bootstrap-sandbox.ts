import type { Deps } from '../deps.js';
import { createAccount } from '../accounts/accounts.js';
import { replaceApiKey } from '../credentials/issue-api-key.js';
import { createSmtpCredential } from '../credentials/smtp-credentials.js';
import type { RelayPorts } from '../smtp/start-relay.js';
import { addDomain } from '../domains/add-domain.js';
import { SANDBOX } from '../core/sandbox-names.js';
import { CLI_ACTOR } from '../core/actor.js';
import { hashPassword } from '../credentials/password-hash.js';
import { createUser, generatePassword } from '../users/users.js';

/** What the sandbox's first start hands the newcomer, once (README, Quick start). */
export interface SandboxWelcome {
  apiBaseUrl: string;
  key: string;
  from: string;
  domain: string;
  account: string;
  /** The self-signed certificate to trust (curl --cacert), or null when the operator supplied one. */
  caCertPath: string | null;
  /** The SMTP relay login (README, The SMTP relay), and the relay's ports when the smtp role runs. */
  smtpCredential: { username: string; password: string };
  smtp: RelayPorts | null;
  /** The dashboard login of the demo account (docs/management.md, Users and sign-in). */
  login: { email: string; password: string };
}

/**
 * First sandbox start: the demo account, its sandbox domain (verified without DNS) and an API key,
 * all in one transaction with the `sandbox.bootstrapped` marker, so a crash part-way leaves nothing
 * and the next start does it again. Returns null when it was done before.
 */
export async function bootstrapSandbox(
  deps: Deps,
): Promise<Omit<SandboxWelcome, 'apiBaseUrl' | 'caCertPath' | 'smtp'> | null> {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const marked = await trx
      .insertInto('settings')
      .values({ key: SANDBOX.setting, value: new Date(now).toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!marked) return null;
    const tx = { ...deps, db: trx };
    // Reuse what an operator may have made by hand under the same names.
    const account =
      (await trx.selectFrom('accounts').select('id').where('name', '=', SANDBOX.account).executeTakeFirst()) ??
      (await createAccount(tx, SANDBOX.account));
    const domain =
      (await trx
        .selectFrom('domains')
        .select('id')
        .where('name', '=', SANDBOX.domain)
        .where('deleted_at', 'is', null)
        .executeTakeFirst()) ?? (await addDomain(tx, SANDBOX.account, SANDBOX.domain, { sandbox: true }));
    // Tracking and unsubscribe on, so the sandbox shows the whole lifecycle (docs/tracking.md,
    // Sandbox).
    await trx
      .updateTable('domains')
      .set({ track_opens: 1, track_clicks: 1, unsubscribe: 1 })
      .where('id', '=', domain.id)
      .execute();
    const { key } = await replaceApiKey(trx, deps.ids, now, domain.id);
    const smtp = await createSmtpCredential(tx, SANDBOX.domain);
    const login = await sandboxLogin(tx);
    deps.log.info({ account: SANDBOX.account, accountId: account.id, domain: SANDBOX.domain }, 'sandbox bootstrapped');
    return {
      key,
      from: SANDBOX.from,
      domain: SANDBOX.domain,
      account: SANDBOX.account,
      smtpCredential: { username: smtp.username, password: smtp.password },
      login,
    };
  });
}

/**
 * The demo account's dashboard user, marked `sandbox` so that only a sandbox-mode server lets it
 * sign in (users/sessions.ts). One left by an earlier sandbox start (retired by a production
 * start in between) gets a new password and loses its sessions, as the sandbox key is replaced.
 */
async function sandboxLogin(deps: Deps): Promise<{ email: string; password: string }> {
  const existing = await deps.db.selectFrom('users').select('id').where('email', '=', SANDBOX.login).executeTakeFirst();
  if (!existing) {
    const made = await createUser(deps, SANDBOX.account, {
      email: SANDBOX.login,
      role: 'admin',
      actor: CLI_ACTOR,
      sandbox: true,
    });
    return { email: made.email, password: made.password! };
  }
  const password = generatePassword(deps);
  await deps.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password), sandbox: 1 })
    .where('id', '=', existing.id)
    .execute();
  await deps.db.deleteFrom('user_sessions').where('user_id', '=', existing.id).execute();
  return { email: SANDBOX.login, password };
}

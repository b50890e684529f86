import type { Session } from '../api';

/** Settings: who is signed in; users, account tokens and two-factor sign-in as the API offers them. */
export function Settings({ session }: { session: Session }) {
  return (
    <section>
      <h1>Settings</h1>
      <div class="card">
        <h2>Signed in</h2>
        {session.kind === 'token' ? (
          <p>
            With an account token, kept for this browser tab only. Its role decides what you may change: a viewer
            token's changes are refused.
          </p>
        ) : (
          <dl class="facts">
            <dt>Email</dt>
            <dd>{session.email}</dd>
            <dt>Account</dt>
            <dd>{session.account}</dd>
            <dt>Role</dt>
            <dd>{session.role}</dd>
            <dt>Two-factor sign-in</dt>
            <dd>{session.totp_enabled ? 'on' : 'off'}</dd>
          </dl>
        )}
      </div>
      <div class="card">
        <h2>Users and two-factor sign-in</h2>
        <p class="notice">
          Not yet available in the dashboard of this version. Manage users with{' '}
          <code>posthorn user create EMAIL --account NAME</code>.
        </p>
      </div>
      <div class="card">
        <h2>Account tokens</h2>
        <p class="notice">
          Not yet available in the dashboard of this version (the API has no token routes yet). Create and revoke tokens
          with <code>posthorn token create --account NAME [--name LABEL] [--role admin|viewer]</code>.
        </p>
      </div>
    </section>
  );
}

/** A screen whose API routes this server does not have yet: says so, rather than a broken page. */
export function NotYet({ title, route }: { title: string; route: string }) {
  return (
    <section>
      <h1>{title}</h1>
      <div class="card">
        <p class="notice">
          Not yet available: this server has no <code>{route}</code> route yet, and the dashboard calls only the public
          API. The screen appears once it does.
        </p>
      </div>
    </section>
  );
}

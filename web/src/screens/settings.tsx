import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { api, loadSession, type ApiError, type Session } from '../api';
import { CopyButton, Empty, ErrorText, Field, Loading, ShownOnce, must, useAction, useLoad, when } from '../ui';

type Role = 'admin' | 'viewer';
const PAGE = 20;

/**
 * Settings (docs/dashboard.md): who is signed in, two-factor sign-in for the signed-in user, and,
 * for the account, its users and account tokens. Only an admin sees the controls that change the
 * account; a viewer reads the lists, which never hold a secret.
 */
export function Settings({ session, canWrite }: { session: Session; canWrite: boolean }) {
  // Two-factor sign-in changes `totp_enabled`: the facts are read again from GET /v1/session then.
  const [me, setMe] = useState(session);
  useEffect(() => setMe(session), [session]);
  const refresh = async (): Promise<void> => {
    const s = await loadSession();
    if (s !== null) setMe(s);
  };
  return (
    <section>
      <h1>Settings</h1>
      <SignedIn me={me} />
      {me.kind === 'session' ? (
        <TwoFactor enabled={me.totp_enabled} onChanged={refresh} />
      ) : (
        <section class="card" aria-labelledby="totp-h">
          <h2 id="totp-h">Two-factor sign-in</h2>
          <p class="muted">
            Two-factor sign-in protects a user's password sign-in. This tab uses an account token, which has none: sign
            in with your email and password to turn it on for yourself.
          </p>
        </section>
      )}
      <Users me={me} canWrite={canWrite} />
      <Tokens me={me} canWrite={canWrite} />
    </section>
  );
}

function SignedIn({ me }: { me: Session }) {
  return (
    <section class="card" aria-labelledby="signed-in-h">
      <h2 id="signed-in-h">Signed in</h2>
      <dl class="facts">
        {me.kind === 'token' ? (
          <>
            <dt>With</dt>
            <dd>
              the account token <strong>{me.token_name}</strong>, kept for this browser tab only
            </dd>
          </>
        ) : (
          <>
            <dt>Email</dt>
            <dd>{me.email}</dd>
          </>
        )}
        <dt>Account</dt>
        <dd>{me.account}</dd>
        <dt>Role</dt>
        <dd>
          {me.role} <span class="muted">({me.role === 'admin' ? 'may change everything' : 'may only read'})</span>
        </dd>
        {me.kind === 'session' ? (
          <>
            <dt>Two-factor sign-in</dt>
            <dd>{me.totp_enabled ? 'on' : 'off'}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** Cursor paging as the API gives it: a stack of the cursors that led to the page shown. */
function usePages(): { cursor: string | undefined; first: boolean; next: (c: string) => void; back: () => void } {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors[cursors.length - 1],
    first: cursors.length === 0,
    next: (c) => setCursors((cs) => [...cs, c]),
    back: () => setCursors((cs) => cs.slice(0, -1)),
  };
}

function Pager({
  pages,
  nextCursor,
  label,
}: {
  pages: ReturnType<typeof usePages>;
  nextCursor: string | null | undefined;
  label: string;
}) {
  if (pages.first && !nextCursor) return null;
  return (
    <p class="pager">
      <button type="button" disabled={pages.first} onClick={pages.back} aria-label={`Previous page of ${label}`}>
        Previous
      </button>
      <button
        type="button"
        disabled={!nextCursor}
        onClick={() => nextCursor && pages.next(nextCursor)}
        aria-label={`Next page of ${label}`}
      >
        Next
      </button>
    </p>
  );
}

/** A labelled role choice, with the API's error for `role` under it. */
function RoleSelect({ value, onChange, error }: { value: Role; onChange: (r: Role) => void; error: ApiError | null }) {
  const id = useId();
  const invalid = error?.field === 'role';
  return (
    <div class="field">
      <label for={id}>Role</label>
      <select
        id={id}
        name="role"
        value={value}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value as Role)}
      >
        <option value="viewer">viewer — reads only, never sees a secret</option>
        <option value="admin">admin — may change everything</option>
      </select>
      <ErrorText error={error} field="role" id={`${id}-error`} />
    </div>
  );
}

/** An action that needs a second click to confirm, in place: `question` and a Yes/Cancel pair. */
function Confirm(props: {
  open: boolean;
  question: string;
  yes: string;
  busy: boolean;
  onYes: () => void;
  onCancel: () => void;
}) {
  if (!props.open) return null;
  return (
    <div class="confirm" role="group" aria-label="Confirm">
      <p>{props.question}</p>
      <p class="buttons">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onYes}>
          {props.yes}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}

function Users({ me, canWrite }: { me: Session; canWrite: boolean }) {
  const pages = usePages();
  const list = useLoad(
    async () =>
      must(
        await api.GET('/v1/users', {
          params: { query: { limit: PAGE, ...(pages.cursor ? { cursor: pages.cursor } : {}) } },
        }),
      ),
    [pages.cursor],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [password, setPassword] = useState('');
  const [made, setMade] = useState<{ email: string; password?: string } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const add = useAction();
  const remove = useAction();
  const users = list.data?.users;
  return (
    <section class="card" id="users" aria-labelledby="users-h">
      <h2 id="users-h">Users</h2>
      <p class="muted">
        The people who sign in to this account's dashboard. Removing a user ends their sessions at once.
      </p>
      {list.loading && users === undefined ? <Loading /> : null}
      <ErrorText error={list.error} />
      {users !== undefined && users.length === 0 ? (
        <Empty>
          No users yet.{' '}
          {canWrite ? 'Add one below.' : 'An admin adds them here, or on the server with posthorn user create.'}
        </Empty>
      ) : null}
      {users !== undefined && users.length > 0 ? (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Two-factor</th>
                <th scope="col">Added</th>
                <th scope="col">Last sign-in</th>
                {canWrite ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.email}>
                  <td>
                    {u.email}
                    {me.kind === 'session' && u.email === me.email ? <span class="muted"> (you)</span> : null}
                  </td>
                  <td>{u.role}</td>
                  <td>{u.totp_enabled ? 'on' : 'off'}</td>
                  <td>{when(u.created_at)}</td>
                  <td>{when(u.last_sign_in_at)}</td>
                  {canWrite ? (
                    <td>
                      <button
                        type="button"
                        class="small danger"
                        aria-label={`Remove ${u.email}`}
                        disabled={remove.busy}
                        onClick={() => {
                          remove.clear();
                          setRemoving(u.email);
                        }}
                      >
                        Remove
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="users" />
      <Confirm
        open={removing !== null}
        question={
          me.kind === 'session' && removing === me.email
            ? `Remove yourself (${removing})? You are signed out at once.`
            : `Remove ${removing}? Their sessions end at once and they can no longer sign in.`
        }
        yes={`Yes, remove ${removing}`}
        busy={remove.busy}
        onCancel={() => setRemoving(null)}
        onYes={() =>
          remove.run(async () => {
            const r = await api.DELETE('/v1/users/{email}', { params: { path: { email: removing! } } });
            if (r.error !== undefined) must(r);
            if (made?.email === removing) setMade(null);
            setRemoving(null);
            list.reload();
          })
        }
      />
      <ErrorText error={remove.error} />
      {made !== null && made.password !== undefined ? (
        <ShownOnce title={`Password for ${made.email}`} value={made.password} />
      ) : null}
      {made !== null && made.password === undefined ? (
        <p role="status">Added {made.email}. They sign in with the password you chose.</p>
      ) : null}
      {canWrite ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void add.run(async () => {
              const body = { email: email.trim(), role, ...(password !== '' ? { password } : {}) };
              const r = must(await api.POST('/v1/users', { body }));
              setMade(r.password !== undefined ? { email: r.email, password: r.password } : { email: r.email });
              setEmail('');
              setPassword('');
              list.reload();
            });
          }}
        >
          <h3>Add a user</h3>
          <Field
            label="Email"
            name="email"
            type="email"
            value={email}
            onInput={setEmail}
            error={add.error}
            autoComplete="off"
            required
          />
          <RoleSelect value={role} onChange={setRole} error={add.error} />
          <Field
            label="Password (optional)"
            name="password"
            type="password"
            value={password}
            onInput={setPassword}
            error={add.error}
            autoComplete="new-password"
            hint="Leave it empty and a password is generated and shown once. A chosen one needs 12 characters or more and must not be a common password."
          />
          {add.error && !['email', 'role', 'password'].includes(add.error.field ?? '') ? (
            <ErrorText error={add.error} />
          ) : null}
          <button type="submit" class="primary" disabled={add.busy}>
            {add.busy ? 'Adding…' : 'Add user'}
          </button>
        </form>
      ) : null}
    </section>
  );
}

function Tokens({ me, canWrite }: { me: Session; canWrite: boolean }) {
  const pages = usePages();
  const list = useLoad(
    async () =>
      must(
        await api.GET('/v1/tokens', {
          params: { query: { limit: PAGE, ...(pages.cursor ? { cursor: pages.cursor } : {}) } },
        }),
      ),
    [pages.cursor],
  );
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const create = useAction();
  const revoke = useAction();
  const tokens = list.data?.tokens;
  const mine = (n: string | null): boolean => me.kind === 'token' && n === me.token_name;
  return (
    <section class="card" id="tokens" aria-labelledby="tokens-h">
      <h2 id="tokens-h">Account tokens</h2>
      <p class="muted">
        Bearer tokens for scripts and integrations: every management route, as far as the token's role allows. Give each
        integration its own, named for who uses it: the audit log shows the name.
      </p>
      {list.loading && tokens === undefined ? <Loading /> : null}
      <ErrorText error={list.error} />
      {tokens !== undefined && tokens.length === 0 ? (
        <Empty>
          No account token yet.{' '}
          {canWrite ? 'Create one below for a script or an integration.' : 'An admin creates them here.'}
        </Empty>
      ) : null}
      {tokens !== undefined && tokens.length > 0 ? (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Token</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                {canWrite ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.prefix}>
                  <td>
                    {t.name}
                    {mine(t.name) ? <span class="muted"> (this tab)</span> : null}
                  </td>
                  <td>{t.role}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>{when(t.created_at)}</td>
                  <td>{when(t.last_used_at)}</td>
                  {canWrite ? (
                    <td>
                      <button
                        type="button"
                        class="small danger"
                        aria-label={`Revoke ${t.name}`}
                        disabled={revoke.busy}
                        onClick={() => {
                          revoke.clear();
                          setRevoking(t.name);
                        }}
                      >
                        Revoke
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="account tokens" />
      <Confirm
        open={revoking !== null}
        question={
          mine(revoking)
            ? `Revoke ${revoking}? This tab signs in with it and is signed out at once.`
            : `Revoke ${revoking}? Anything using it is refused from its next request.`
        }
        yes={`Yes, revoke ${revoking}`}
        busy={revoke.busy}
        onCancel={() => setRevoking(null)}
        onYes={() =>
          revoke.run(async () => {
            const r = await api.DELETE('/v1/tokens/{name}', { params: { path: { name: revoking! } } });
            if (r.error !== undefined) must(r);
            if (made?.name === revoking) setMade(null);
            setRevoking(null);
            list.reload();
          })
        }
      />
      <ErrorText error={revoke.error} />
      {made !== null ? <ShownOnce title={`Account token ${made.name}`} value={made.token} /> : null}
      {canWrite ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void create.run(async () => {
              const r = must(
                await api.POST('/v1/tokens', { body: { role, ...(name.trim() !== '' ? { name: name.trim() } : {}) } }),
              );
              setMade({ name: r.name, token: r.token });
              setName('');
              list.reload();
            });
          }}
        >
          <h3>Create an account token</h3>
          <Field
            label="Name (optional)"
            name="name"
            value={name}
            onInput={setName}
            error={create.error}
            autoComplete="off"
            placeholder="deploy-bot"
            hint="Unique among the live tokens; the token's prefix when left empty."
          />
          <RoleSelect value={role} onChange={setRole} error={create.error} />
          {create.error && !['name', 'role'].includes(create.error.field ?? '') ? (
            <ErrorText error={create.error} />
          ) : null}
          <button type="submit" class="primary" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create token'}
          </button>
        </form>
      ) : null}
    </section>
  );
}

type Enrolment = { uri: string; secret: string; qr_code: string };

/**
 * Two-factor sign-in (TOTP, RFC 6238) for the signed-in user: enrol with the QR code the API
 * renders (an SVG `data:` URL, which the dashboard's CSP allows for images), confirm with a code,
 * keep the recovery codes shown once; turn it off with a code or a recovery code.
 */
function TwoFactor({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<void> }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const start = useAction();
  const confirm = useAction();
  const off = useAction();
  return (
    <section class="card" id="two-factor" aria-labelledby="totp-h">
      <h2 id="totp-h">Two-factor sign-in</h2>
      <p class="muted">
        With it on, signing in needs a 6-digit code from an authenticator app as well as your password.
      </p>
      {recovery !== null ? <RecoveryCodes codes={recovery} onDone={() => setRecovery(null)} /> : null}
      {enabled && recovery === null ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void off.run(async () => {
              const r = await api.DELETE('/v1/session/totp', { body: { code: code.trim() } });
              if (r.error !== undefined) must(r);
              setCode('');
              await onChanged();
            });
          }}
        >
          <p>
            Two-factor sign-in is <strong>on</strong>.
          </p>
          <Field
            label="Code to turn it off"
            name="code"
            value={code}
            onInput={setCode}
            error={off.error}
            autoComplete="one-time-code"
            hint="The current 6-digit code from the app, or one of your recovery codes."
            required
          />
          {off.error && off.error.field !== 'code' ? <ErrorText error={off.error} /> : null}
          <button type="submit" class="danger" disabled={off.busy}>
            Turn off two-factor sign-in
          </button>
        </form>
      ) : null}
      {!enabled && enrolment === null ? (
        <>
          <p>
            Two-factor sign-in is <strong>off</strong>.
          </p>
          <button
            type="button"
            class="primary"
            disabled={start.busy}
            onClick={() =>
              start.run(async () => {
                setEnrolment(must(await api.POST('/v1/session/totp')));
                setCode('');
              })
            }
          >
            Turn on two-factor sign-in
          </button>
          <ErrorText error={start.error} />
        </>
      ) : null}
      {!enabled && enrolment !== null ? (
        <form
          class="enrol"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm.run(async () => {
              const r = must(await api.POST('/v1/session/totp/confirm', { body: { code: code.trim() } }));
              setRecovery(r.recovery_codes);
              setEnrolment(null);
              setCode('');
              await onChanged();
            });
          }}
        >
          <h3>1. Scan this code with your authenticator app</h3>
          <img class="qr" src={enrolment.qr_code} width={200} height={200} alt="QR code of your two-factor secret" />
          <p>
            Or type this secret into the app:{' '}
            <code class="wrap" data-secret="totp">
              {enrolment.secret}
            </code>{' '}
            <CopyButton text={enrolment.secret} label="Copy secret" />
          </p>
          <p>
            <a href={enrolment.uri} class="otpauth">
              Open in an authenticator app on this device
            </a>
          </p>
          <h3>2. Enter the code it shows</h3>
          <Field
            label="6-digit code"
            name="code"
            value={code}
            onInput={setCode}
            error={confirm.error}
            autoComplete="one-time-code"
            required
          />
          {confirm.error && confirm.error.field !== 'code' ? <ErrorText error={confirm.error} /> : null}
          <p class="buttons">
            <button type="submit" class="primary" disabled={confirm.busy}>
              Confirm and turn on
            </button>
            <button
              type="button"
              onClick={() => {
                setEnrolment(null);
                confirm.clear();
              }}
            >
              Cancel
            </button>
          </p>
        </form>
      ) : null}
    </section>
  );
}

/** The ten recovery codes, shown once: copy them or download them as a text file. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Posthorn recovery codes: each signs in once in place of a 6-digit code.\n\n${codes.join('\n')}\n`;
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: 'text/plain' })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <div class="shown-once" role="status">
      <p>
        <strong>Two-factor sign-in is on.</strong> Your recovery codes — shown once: keep them somewhere safe. Each one
        signs you in once if you lose the app.
      </p>
      <ol class="recovery mono" data-secret="recovery">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <p class="buttons">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <a class="button small" href={href} download="posthorn-recovery-codes.txt">
          Download codes
        </a>
        <button type="button" class="small" onClick={onDone}>
          I have kept them
        </button>
      </p>
    </div>
  );
}

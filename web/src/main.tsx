import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import './styles.css';
import { loadSession, signIn, signInWithToken, signOut, type ApiError, type Session } from './api';
import { navigate, onLinkClick, usePath } from './router';
import { ErrorText, Field, Loading } from './ui';
import { Transactional } from './screens/transactional';
import { DomainScreen } from './screens/domain';
import { Events, MessageScreen } from './screens/events';
import { Usage } from './screens/usage';
import { AuditLog } from './screens/audit';
import { Settings } from './screens/settings';
import { Notices } from './screens/notices';
import { Suppressions } from './screens/suppressions';
import { TemplateScreen, Templates } from './screens/templates';
import { SandboxMailbox, SandboxMessageScreen } from './screens/sandbox';

const NAV: [string, string][] = [
  ['/transactional', 'Transactional'],
  ['/events', 'Events'],
  ['/suppressions', 'Suppressions'],
  ['/templates', 'Templates'],
  ['/usage', 'Usage'],
  ['/notices', 'Notices'],
  ['/audit', 'Audit log'],
  ['/settings', 'Settings'],
];

/** Only in sandbox mode (docs/dashboard.md, Sandbox mailbox). */
const SANDBOX_NAV: [string, string] = ['/sandbox', 'Sandbox mailbox'];

function App() {
  const path = usePath();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    loadSession().then(setSession, () => setSession(null));
    const out = (): void => setSession(null);
    window.addEventListener('posthorn:signed-out', out);
    return () => window.removeEventListener('posthorn:signed-out', out);
  }, []);
  useEffect(() => {
    if (session === null && !path.startsWith('/login')) navigate(`/login?next=${encodeURIComponent(path)}`, true);
    if (session && (path === '/' || path.startsWith('/login'))) navigate(nextFrom(path), true);
  }, [session, path]);
  if (session === undefined) return <Loading />;
  if (session === null) return <Login onSignedIn={setSession} />;
  return (
    <Layout session={session} path={path} onSignOut={() => signOut().then(() => setSession(null))}>
      <Screen path={path} session={session} />
    </Layout>
  );
}

function nextFrom(path: string): string {
  const next = new URLSearchParams(path.split('?')[1] ?? '').get('next');
  return next !== null && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login')
    ? next
    : '/transactional';
}

function Screen({ path, session }: { path: string; session: Session }) {
  const [route, query = ''] = path.split('?') as [string, string?];
  const parts = route.split('/').filter(Boolean).map(decodeURIComponent);
  const canWrite = session.role === 'admin';
  switch (parts[0]) {
    case 'transactional':
      return parts[1] !== undefined ? (
        <DomainScreen name={parts[1]} canWrite={canWrite} />
      ) : (
        <Transactional canWrite={canWrite} />
      );
    case 'events':
      return parts[1] !== undefined ? <MessageScreen id={parts[1]} /> : <Events query={query} />;
    case 'usage':
      return <Usage query={query} />;
    case 'audit':
      return <AuditLog />;
    case 'settings':
      return <Settings session={session} canWrite={canWrite} />;
    case 'suppressions':
      return <Suppressions query={query} session={session} />;
    case 'templates':
      return parts[1] !== undefined ? (
        <TemplateScreen name={parts[1]} canWrite={canWrite} />
      ) : (
        <Templates canWrite={canWrite} />
      );
    case 'notices':
      return <Notices query={query} />;
    case 'sandbox':
      return parts[1] !== undefined ? <SandboxMessageScreen id={parts[1]} /> : <SandboxMailbox />;
    default:
      return (
        <section>
          <h1>Not found</h1>
          <p>
            There is no screen at <code>{route}</code>. <a href="/transactional">Go to Transactional</a>.
          </p>
        </section>
      );
  }
}

function Layout(props: { session: Session; path: string; onSignOut: () => void; children: preact.ComponentChildren }) {
  const route = props.path.split('?')[0];
  const first = useRef(true);
  // After moving to another screen, keyboard and screen-reader users start at its content, as
  // after a page load (not on the first render, where the browser's own focus is right).
  useEffect(() => {
    if (first.current) first.current = false;
    else document.getElementById('main')?.focus({ preventScroll: true });
  }, [route]);
  const who = `${props.session.kind === 'token' ? `Account token ${props.session.token_name ?? ''}` : (props.session.email ?? '')} (${props.session.role})`;
  return (
    <div class="shell" onClick={onLinkClick}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/transactional">
          <img src="/favicon.svg" alt="" width="24" height="24" /> Posthorn
        </a>
        <span class="who muted">{who}</span>
        <button type="button" class="link" onClick={props.onSignOut}>
          Sign out
        </button>
      </header>
      <nav class="side" aria-label="Main">
        <ul>
          {(props.session.sandbox ? [...NAV.slice(0, 1), SANDBOX_NAV, ...NAV.slice(1)] : NAV).map(([href, label]) => (
            <li key={href}>
              <a
                href={href}
                aria-current={
                  props.path === href || props.path.startsWith(`${href}/`) || props.path.startsWith(`${href}?`)
                    ? 'page'
                    : undefined
                }
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}

function Login({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [tokenError, setTokenError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const done = async (e: ApiError | null, set: (e: ApiError | null) => void): Promise<void> => {
    set(e);
    if (e === null) {
      const s = await loadSession();
      if (s !== null) onSignedIn(s);
      else set({ type: 'invalid_key', message: 'signed in, but no session came back', docs: '' });
    }
    setBusy(false);
  };
  return (
    <main id="main" class="login">
      <h1>
        <img src="/favicon.svg" alt="" width="32" height="32" /> Sign in to Posthorn
      </h1>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          void signIn(email, password, totp).then((r) => done(r, setError));
        }}
      >
        <Field
          label="Email"
          name="email"
          type="email"
          value={email}
          onInput={setEmail}
          error={error}
          autoComplete="username"
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          value={password}
          onInput={setPassword}
          error={error}
          autoComplete="current-password"
          required
        />
        <Field
          label="Two-factor code"
          name="totp"
          value={totp}
          onInput={setTotp}
          error={error}
          autoComplete="one-time-code"
          hint="Only if you turned on two-factor sign-in."
        />
        {error && !['email', 'password', 'totp'].includes(error.field ?? '') ? <ErrorText error={error} /> : null}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          void signInWithToken(token).then((r) => done(r, setTokenError));
        }}
      >
        <h2>Sign in with an account token</h2>
        <p class="muted">
          For operators and development: an account token from <code>posthorn token create --account NAME</code>. It is
          kept for this browser tab only and sent as a bearer token; it has the token's role.
        </p>
        <Field
          label="Account token"
          name="token"
          type="password"
          value={token}
          onInput={setToken}
          error={tokenError}
          placeholder="pha_…"
          required
        />
        {tokenError && tokenError.field !== 'token' ? <ErrorText error={tokenError} /> : null}
        <button type="submit" disabled={busy}>
          Use account token
        </button>
      </form>
    </main>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);

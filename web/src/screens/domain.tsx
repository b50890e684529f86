import { useState } from 'preact/hooks';
import { api, type ApiError, type Domain } from '../api';
import { navigate } from '../router';
import {
  Badge,
  CopyButton,
  Empty,
  ErrorText,
  Field,
  Loading,
  ShownOnce,
  must,
  percent,
  useAction,
  useLoad,
  when,
} from '../ui';

const path = (domain: string) => ({ params: { path: { domain } } });

/** A sending domain's screen: DNS records, API keys, SMTP credentials, Webhook, Tracking (docs/dashboard.md). */
export function DomainScreen({ name, canWrite }: { name: string; canWrite: boolean }) {
  const domain = useLoad(async () => must(await api.GET('/v1/domains/{domain}', path(name))), [name]);
  const [fresh, setFresh] = useState<Domain | null>(null);
  const d = fresh?.name === name ? fresh : domain.data;
  if (domain.loading && d === undefined) return <Loading />;
  if (d === undefined)
    return (
      <section>
        <h1>{name}</h1>
        <ErrorText error={domain.error} />
        <a href="/transactional">Back to Transactional</a>
      </section>
    );
  return (
    <section>
      <p class="crumbs">
        <a href="/transactional">Transactional</a> / {d.name}
      </p>
      <h1>
        {d.name} <Badge value={d.status} />
      </h1>
      <p class="muted">
        Added {when(d.created_at)} · verified {when(d.verified_at)} · this month{' '}
        {d.month.domain_accepted.toLocaleString('en')} (the account: {d.month.accepted.toLocaleString('en')}
        {d.month.quota !== null ? ` of ${d.month.quota.toLocaleString('en')}` : ''}) · complaint rate{' '}
        {percent(d.complaint_rate.rate)}
      </p>
      <nav class="sections" aria-label="Sections of this domain">
        <a href="#dns">DNS records</a> <a href="#api-keys">API keys</a> <a href="#smtp">SMTP credentials</a>{' '}
        <a href="#webhook">Webhook</a> <a href="#tracking">Tracking</a>
        {canWrite ? <a href="#test-send">Send a test message</a> : null}
      </nav>
      {d.sandbox ? (
        <p class="notice" role="note">
          The sandbox domain is verified and ready to send: its mail never leaves this machine and is kept in the{' '}
          <a href="/sandbox">Sandbox mailbox</a>.
        </p>
      ) : null}
      {canWrite && d.sandbox ? <TestSend d={d} /> : null}
      <DnsRecords d={d} canWrite={canWrite} onChecked={setFresh} />
      <ApiKeys domain={d.name} status={d.status} canWrite={canWrite} />
      <SmtpCredentials domain={d.name} canWrite={canWrite} />
      <Webhook domain={d.name} canWrite={canWrite} />
      <Tracking d={d} canWrite={canWrite} onSaved={setFresh} />
      {canWrite && !d.sandbox ? <TestSend d={d} /> : null}
      {canWrite ? <DeleteDomain domain={d.name} /> : null}
    </section>
  );
}

/** The sandbox's special recipients (docs/dashboard.md, Send a test message): the local part picks the outcome. */
const SPECIAL_RECIPIENTS: [string, string][] = [
  ['you', 'delivered'],
  ['bounce', 'hard bounce: failed, suppressed'],
  ['block', 'policy block: failed, not suppressed'],
  ['defer', 'deferred once, then delivered'],
  ['open', 'delivered, then opened'],
  ['click', 'delivered, opened, then a link clicked'],
  ['unsubscribe', 'delivered, then unsubscribed: suppressed'],
  ['complain', 'delivered, then reported as spam: suppressed'],
];

/**
 * Send a test message: one short message from the domain through the same checks as the API
 * (POST /v1/domains/{domain}/test-send), no sending key needed. On the sandbox domain the
 * recipient's local part picks what happens to it.
 */
function TestSend({ d }: { d: Domain }) {
  const [to, setTo] = useState(d.sandbox ? 'bounce@example.com' : '');
  const [subject, setSubject] = useState('');
  const [sent, setSent] = useState<{ id: string; to: string } | null>(null);
  const act = useAction();
  return (
    <section class="card" id="test-send" aria-labelledby="test-send-h">
      <h2 id="test-send-h">Send a test message</h2>
      <p class="muted">
        {d.sandbox
          ? 'Kept in the Sandbox mailbox, never sent. The local part of the address picks what happens:'
          : 'A short message from this domain, through every check of the API. It really goes out.'}
      </p>
      {d.sandbox ? (
        <ul class="special-recipients">
          {SPECIAL_RECIPIENTS.map(([local, what]) => (
            <li key={local}>
              <button type="button" class="link" onClick={() => setTo(`${local}@example.com`)}>
                {local}@…
              </button>{' '}
              <span class="muted">{what}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act.run(async () => {
            const r = must(
              await api.POST('/v1/domains/{domain}/test-send', {
                params: { path: { domain: d.name } },
                body: subject.trim() === '' ? { to } : { to, subject },
              }),
            );
            setSent({ id: r.id, to });
          });
        }}
      >
        <Field label="To" name="to" type="email" value={to} onInput={setTo} error={act.error} required />
        <Field
          label="Subject"
          name="subject"
          value={subject}
          onInput={setSubject}
          error={act.error}
          placeholder="Test message from Posthorn"
        />
        <button type="submit" class="primary" disabled={act.busy}>
          {act.busy ? 'Sending…' : 'Send test message'}
        </button>
      </form>
      {act.error && !['to', 'subject'].includes(act.error.field ?? '') ? <ErrorText error={act.error} /> : null}
      {sent !== null ? (
        <p role="status">
          Queued <code>{sent.id}</code> to {sent.to}.{' '}
          <a href={`/events/${encodeURIComponent(sent.id)}`}>See its events</a>
          {d.sandbox ? (
            <>
              {' '}
              · <a href="/sandbox">Open the Sandbox mailbox</a>
            </>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

function DnsRecords({ d, canWrite, onChecked }: { d: Domain; canWrite: boolean; onChecked: (d: Domain) => void }) {
  const verify = useAction();
  return (
    <section class="card" id="dns" aria-labelledby="dns-h">
      <h2 id="dns-h">DNS records</h2>
      <p class="muted">
        Publish these records at your DNS provider, then check them. Last checked {when(d.last_checked_at)}.
      </p>
      <div class="table-wrap" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Purpose</th>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">Status</th>
              <th scope="col">Found</th>
            </tr>
          </thead>
          <tbody>
            {d.records.map((r) => (
              <tr key={`${r.purpose}-${r.name}`}>
                <td>{r.purpose}</td>
                <td>{r.type}</td>
                <td>
                  <code class="wrap">{r.name}</code> <CopyButton text={r.name} label="Copy name" />
                </td>
                <td>
                  <code class="wrap clip">{r.value}</code> <CopyButton text={r.value} label="Copy value" />
                </td>
                <td>
                  <Badge value={r.status} />
                </td>
                <td>
                  {r.found.length === 0 ? (
                    <span class="muted">nothing</span>
                  ) : (
                    r.found.map((f) => (
                      <code class="wrap clip found" key={f}>
                        {f}
                      </code>
                    ))
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <DkimRotation d={d} />
      {canWrite ? (
        <p>
          <button
            type="button"
            class="primary"
            disabled={verify.busy}
            onClick={() =>
              verify.run(async () => onChecked(must(await api.POST('/v1/domains/{domain}/verify', path(d.name)))))
            }
          >
            {verify.busy ? 'Checking…' : 'Verify now'}
          </button>
        </p>
      ) : null}
      <ErrorText error={verify.error} />
    </section>
  );
}

/** A DKIM key rotation under way (docs/delivery.md): the pending record is in the table; the retired one is here. */
function DkimRotation({ d }: { d: Domain }) {
  const { pending, retired, selector } = d.dkim;
  if (!pending && !retired) return null;
  return (
    <>
      {pending ? (
        <p class="muted" id="dkim-pending">
          A new DKIM key is waiting: publish the <code>dkim_pending</code> record beside the current one. Mail is signed
          with <code>{selector}</code> until the new record is found, then with <code>{pending.selector}</code>.
        </p>
      ) : null}
      {retired ? (
        <p class="muted" id="dkim-retired">
          Signing moved off <code>{retired.selector}</code>: keep its record <code class="wrap">{retired.name}</code>{' '}
          until {when(retired.remove_after)}, then remove it.
        </p>
      ) : null}
    </>
  );
}

function ApiKeys({ domain, status, canWrite }: { domain: string; status: Domain['status']; canWrite: boolean }) {
  const key = useLoad(async () => {
    const r = await api.GET('/v1/domains/{domain}/api-key', path(domain));
    return r.response.status === 404 ? null : must(r);
  }, [domain]);
  const [made, setMade] = useState<string | null>(null);
  const act = useAction();
  const exists = key.data !== null && key.data !== undefined;
  return (
    <section class="card" id="api-keys" aria-labelledby="keys-h">
      <h2 id="keys-h">API keys</h2>
      <p class="muted">
        One active sending key per domain, for <code>POST /v1/send</code>. Replacing it stops the old key at once.
      </p>
      {key.loading && key.data === undefined ? <Loading /> : null}
      <ErrorText error={key.error} />
      {exists ? (
        <dl class="facts">
          <dt>Key</dt>
          <dd>
            <code>{key.data!.prefix}…</code>
          </dd>
          <dt>Created</dt>
          <dd>{when(key.data!.created_at)}</dd>
          <dt>Last used</dt>
          <dd>{when(key.data!.last_used_at)}</dd>
        </dl>
      ) : key.data === null ? (
        <Empty>
          No API key yet.{' '}
          {status === 'verified' || status === 'warning'
            ? 'Create one to send over HTTPS.'
            : 'The domain must be verified first: publish its DNS records and press Verify now.'}
        </Empty>
      ) : null}
      {made !== null ? <ShownOnce title="Your new API key" value={made} /> : null}
      {canWrite ? (
        <p>
          <button
            type="button"
            class="primary"
            disabled={act.busy || key.data === undefined}
            onClick={() =>
              act.run(async () => {
                const r = must(await api.POST('/v1/domains/{domain}/api-key', path(domain)));
                setMade(r.key);
                key.reload();
              })
            }
          >
            {exists ? 'Replace API key' : 'Create API key'}
          </button>
        </p>
      ) : null}
      <ErrorText error={act.error} />
    </section>
  );
}

function SmtpCredentials({ domain, canWrite }: { domain: string; canWrite: boolean }) {
  const list = useLoad(
    async () => must(await api.GET('/v1/domains/{domain}/smtp-credentials', path(domain))).credentials,
    [domain],
  );
  const [made, setMade] = useState<{ username: string; password: string; host: string; port: number } | null>(null);
  const act = useAction();
  return (
    <section class="card" id="smtp" aria-labelledby="smtp-h">
      <h2 id="smtp-h">SMTP credentials</h2>
      <p class="muted">
        Logins for the SMTP relay, for software that speaks SMTP. Revoking one leaves the API key untouched.
      </p>
      {list.loading && list.data === undefined ? <Loading /> : null}
      <ErrorText error={list.error} />
      {list.data !== undefined && list.data.length === 0 ? <Empty>No SMTP credential yet.</Empty> : null}
      {list.data !== undefined && list.data.length > 0 ? (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                {canWrite ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.data.map((c) => (
                <tr key={c.username}>
                  <td>
                    <code>{c.username}</code>
                  </td>
                  <td>{when(c.created_at)}</td>
                  <td>{when(c.last_used_at)}</td>
                  {canWrite ? (
                    <td>
                      <button
                        type="button"
                        class="small danger"
                        aria-label={`Revoke ${c.username}`}
                        disabled={act.busy}
                        onClick={() =>
                          act.run(async () => {
                            const r = await api.DELETE('/v1/domains/{domain}/smtp-credentials/{username}', {
                              params: { path: { domain, username: c.username } },
                            });
                            if (r.error !== undefined) must(r);
                            if (made?.username === c.username) setMade(null);
                            list.reload();
                          })
                        }
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
      {made !== null ? (
        <ShownOnce title="SMTP password" value={made.password}>
          <p>
            Username <code>{made.username}</code> <CopyButton text={made.username} label="Copy username" /> · host{' '}
            <code>{made.host}</code> · port <code>{made.port}</code> (STARTTLS)
          </p>
        </ShownOnce>
      ) : null}
      {canWrite ? (
        <p>
          <button
            type="button"
            class="primary"
            disabled={act.busy}
            onClick={() =>
              act.run(async () => {
                setMade(must(await api.POST('/v1/domains/{domain}/smtp-credentials', path(domain))));
                list.reload();
              })
            }
          >
            Create SMTP credential
          </button>
        </p>
      ) : null}
      <ErrorText error={act.error} />
    </section>
  );
}

function Webhook({ domain, canWrite }: { domain: string; canWrite: boolean }) {
  const hook = useLoad(async () => {
    const r = await api.GET('/v1/domains/{domain}/webhook', path(domain));
    return r.response.status === 404 ? null : must(r);
  }, [domain]);
  const [url, setUrl] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [test, setTest] = useState<{ status: number | null; duration_ms: number; response: string } | null>(null);
  const [queued, setQueued] = useState<number | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [event, setEvent] = useState('');
  const save = useAction();
  const act = useAction();
  const replay = useAction();
  const h = hook.data;
  const shownUrl = url ?? h?.url ?? '';
  return (
    <section class="card" id="webhook" aria-labelledby="webhook-h">
      <h2 id="webhook-h">Webhook</h2>
      <p class="muted">Posthorn posts every event of this domain to this URL, signed (Standard Webhooks).</p>
      {hook.loading && h === undefined ? <Loading /> : null}
      <ErrorText error={hook.error} />
      {h === null ? <Empty>No webhook yet: give a URL to receive this domain's events.</Empty> : null}
      {h ? (
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Badge value={h.status} /> {h.disabled_reason ?? ''}
          </dd>
          <dt>Pending</dt>
          <dd>{h.pending}</dd>
          <dt>Failed</dt>
          <dd>{h.failed}</dd>
          <dt>Secrets</dt>
          <dd>
            {h.secrets.map((s) => (
              <span key={s.created_at} class="block">
                made {when(s.created_at)}
                {s.expires_at ? `, expires ${when(s.expires_at)}` : ''}
              </span>
            ))}
          </dd>
        </dl>
      ) : null}
      {secret !== null ? <ShownOnce title="Webhook signing secret" value={secret} /> : null}
      {canWrite ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save.run(async () => {
              const r = await api.PUT('/v1/domains/{domain}/webhook', {
                ...path(domain),
                body: { url: shownUrl.trim() },
              });
              const body = must(r) as { secret?: string };
              if (body.secret !== undefined) setSecret(body.secret);
              setUrl(null);
              hook.reload();
            });
          }}
        >
          <Field
            label="Webhook URL"
            name="url"
            type="url"
            value={shownUrl}
            onInput={setUrl}
            error={save.error}
            placeholder="https://example.com/posthorn"
            required
          />
          {save.error && save.error.field !== 'url' ? <ErrorText error={save.error} /> : null}
          <button type="submit" class="primary" disabled={save.busy}>
            Save webhook URL
          </button>
        </form>
      ) : h ? (
        <p>
          URL <code class="wrap">{h.url}</code>
        </p>
      ) : null}
      {h && canWrite ? (
        <p class="buttons">
          <button
            type="button"
            disabled={act.busy}
            onClick={() =>
              act.run(async () =>
                setSecret(must(await api.POST('/v1/domains/{domain}/webhook/rotate', path(domain))).secret),
              )
            }
          >
            Rotate secret
          </button>
          <button
            type="button"
            disabled={act.busy}
            onClick={() =>
              act.run(async () => {
                setTest(must(await api.POST('/v1/domains/{domain}/webhook/test', path(domain))));
                hook.reload();
              })
            }
          >
            {act.busy ? 'Working…' : 'Send test event'}
          </button>
          <button
            type="button"
            class="danger"
            disabled={act.busy}
            onClick={() =>
              act.run(async () => {
                const r = await api.DELETE('/v1/domains/{domain}/webhook', path(domain));
                if (r.error !== undefined) must(r);
                setSecret(null);
                setTest(null);
                hook.reload();
              })
            }
          >
            Remove webhook
          </button>
        </p>
      ) : null}
      <ErrorText error={act.error} />
      {test !== null ? (
        <p role="status">
          Test event: HTTP {test.status ?? 'no answer'} in {test.duration_ms} ms
          {test.response ? ` — ${test.response.slice(0, 200)}` : ''}
        </p>
      ) : null}
      {h ? (
        <>
          <h3>Delivery log</h3>
          {h.attempts.length === 0 ? (
            <Empty>No delivery attempt yet.</Empty>
          ) : (
            <div class="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">At</th>
                    <th scope="col">Event</th>
                    <th scope="col">Attempt</th>
                    <th scope="col">HTTP</th>
                    <th scope="col">Time</th>
                    <th scope="col">Response or error</th>
                  </tr>
                </thead>
                <tbody>
                  {h.attempts.map((a) => (
                    <tr key={`${a.event_id}-${a.attempt}-${a.at}`}>
                      <td>{when(a.at)}</td>
                      <td>{a.event}</td>
                      <td>{a.attempt}</td>
                      <td>{a.status ?? '—'}</td>
                      <td>{a.duration_ms === null ? '—' : `${a.duration_ms} ms`}</td>
                      <td class="clip">{a.error ?? a.response ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {canWrite ? (
            <form
              class="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                void replay.run(async () => {
                  const iso = (v: string) => (v === '' ? v : new Date(v).toISOString());
                  const body = { start: iso(start), end: iso(end), ...(event !== '' ? { event } : {}) };
                  setQueued(
                    must(
                      await api.POST('/v1/domains/{domain}/webhook/replay', { ...path(domain), body: body as never }),
                    ).queued,
                  );
                });
              }}
            >
              <h3>Replay events</h3>
              <Field
                label="From"
                name="start"
                type="datetime-local"
                value={start}
                onInput={setStart}
                error={replay.error}
                required
              />
              <Field
                label="To"
                name="end"
                type="datetime-local"
                value={end}
                onInput={setEnd}
                error={replay.error}
                required
              />
              <Field
                label="Only this event (optional)"
                name="event"
                value={event}
                onInput={setEvent}
                error={replay.error}
                placeholder="delivered"
              />
              {replay.error && !['start', 'end', 'event'].includes(replay.error.field ?? '') ? (
                <ErrorText error={replay.error} />
              ) : null}
              <button type="submit" disabled={replay.busy}>
                Replay
              </button>
              {queued !== null ? <p role="status">{queued} events queued for delivery again.</p> : null}
            </form>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function Tracking({ d, canWrite, onSaved }: { d: Domain; canWrite: boolean; onSaved: (d: Domain) => void }) {
  const act = useAction();
  const patch = (body: { tracking?: Partial<Domain['tracking']>; ed25519?: boolean }) =>
    act.run(async () => onSaved(must(await api.PATCH('/v1/domains/{domain}', { ...path(d.name), body }))));
  const toggles: [keyof Domain['tracking'], string, string][] = [
    ['opens', 'Track opens', 'adds a tracking pixel to HTML mail'],
    ['clicks', 'Track clicks', 'rewrites links through this server'],
    ['unsubscribe', 'Unsubscribe link', 'adds List-Unsubscribe (RFC 8058)'],
  ];
  return (
    <section class="card" id="tracking" aria-labelledby="tracking-h">
      <h2 id="tracking-h">Tracking</h2>
      <fieldset disabled={!canWrite || act.busy}>
        <legend class="sr-only">Tracking and signing settings</legend>
        {toggles.map(([k, label, hint]) => (
          <label class="check" key={k}>
            <input
              type="checkbox"
              checked={d.tracking[k]}
              onChange={(e) => patch({ tracking: { [k]: (e.target as HTMLInputElement).checked } })}
            />
            {label} <small class="muted">— {hint}</small>
          </label>
        ))}
        <label class="check">
          <input
            type="checkbox"
            checked={d.ed25519}
            onChange={(e) => patch({ ed25519: (e.target as HTMLInputElement).checked })}
          />
          Ed25519 signature{' '}
          <small class="muted">— a second DKIM signature (RFC 8463), its record is listed above</small>
        </label>
      </fieldset>
      <ErrorText error={act.error} />
    </section>
  );
}

function DeleteDomain({ domain }: { domain: string }) {
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  return (
    <section class="card danger-zone" aria-labelledby="delete-h">
      <h2 id="delete-h">Delete this domain</h2>
      <p class="muted">
        Its API key, SMTP logins and webhook stop working at once; its events stay until retention ends.
      </p>
      {confirming ? (
        <p class="buttons">
          <button
            type="button"
            class="danger"
            disabled={act.busy}
            onClick={() =>
              act.run(async () => {
                const r = await api.DELETE('/v1/domains/{domain}', path(domain));
                if (r.error !== undefined) must(r);
                navigate('/transactional');
              })
            }
          >
            Yes, delete {domain}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </p>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete domain…
        </button>
      )}
      <ErrorText error={act.error as ApiError | null} />
    </section>
  );
}

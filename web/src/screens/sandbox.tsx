import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { navigate } from '../router';
import { Empty, ErrorText, Loading, must, useLoad, when } from '../ui';
import { EmailFrame } from './templates/email-frame';

/**
 * Sandbox mailbox: the messages the sandbox kept instead of sending them, newest first, a page at
 * a time (docs/dashboard.md, Sandbox mailbox). The first page refreshes itself, so a test message
 * shows up without a reload once the delivery worker has kept it.
 */
export function SandboxMailbox() {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    async () =>
      must(await api.GET('/v1/sandbox/messages', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
    [cursor],
  );
  useEffect(() => {
    if (cursor !== undefined) return;
    const t = setInterval(page.reload, 3000);
    return () => clearInterval(t);
  }, [cursor, page.reload]);
  const p = page.data;
  return (
    <section>
      <h1>Sandbox mailbox</h1>
      <p class="muted">
        In the sandbox no mail leaves this machine: every message delivered is kept here, signed as it would have gone
        out. Special recipients (<code>bounce@</code>, <code>defer@</code>, <code>complain@</code>, …) act out an
        outcome; see each message's events.
      </p>
      {page.loading && p === undefined ? <Loading /> : null}
      <ErrorText error={page.error} />
      {p && p.messages.length === 0 ? (
        <Empty>
          The mailbox is empty. Send a message with the sandbox domain's API key or SMTP login, or use{' '}
          <strong>Send a test message</strong> on its screen under <a href="/transactional">Transactional</a>.
        </Empty>
      ) : null}
      {p && p.messages.length > 0 ? (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {p.messages.map((m) => (
                <tr key={m.id}>
                  <td>{when(m.received_at)}</td>
                  <td>{m.to.join(', ')}</td>
                  <td>
                    <a href={`/sandbox/${encodeURIComponent(m.id)}`}>{m.subject || '(no subject)'}</a>
                  </td>
                  <td>{m.from}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p class="pager">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          disabled={!p?.next_cursor}
          onClick={() => p?.next_cursor && setCursors((c) => [...c, p.next_cursor!])}
        >
          Older
        </button>
      </p>
    </section>
  );
}

type View = 'html' | 'text' | 'raw';

/** One kept message: rendered in a sandboxed frame, as plain text, or its raw signed source. */
export function SandboxMessageScreen({ id }: { id: string }) {
  const message = useLoad(
    async () => must(await api.GET('/v1/sandbox/messages/{id}', { params: { path: { id } } })),
    [id],
  );
  const [view, setView] = useState<View | null>(null);
  const raw = useLoad(async () => {
    if (view !== 'raw') return null;
    const r = await api.GET('/v1/sandbox/messages/{id}/raw', { params: { path: { id } }, parseAs: 'text' });
    return must(r) as unknown as string;
  }, [id, view]);
  const m = message.data;
  if (message.loading && m === undefined) return <Loading />;
  if (m === undefined)
    return (
      <section>
        <h1>Sandbox message</h1>
        <ErrorText error={message.error} />
        <a href="/sandbox">Back to the Sandbox mailbox</a>
      </section>
    );
  const shown: View = view ?? (m.html !== null ? 'html' : m.text !== null ? 'text' : 'raw');
  const tabs: [View, string, boolean][] = [
    ['html', 'Rendered', m.html !== null],
    ['text', 'Plain text', m.text !== null],
    ['raw', 'Raw source', true],
  ];
  return (
    <section>
      <p class="crumbs">
        <a href="/sandbox">Sandbox mailbox</a> / {m.id}
      </p>
      <h1>{m.subject || '(no subject)'}</h1>
      <dl class="facts">
        <dt>From</dt>
        <dd>{m.from}</dd>
        <dt>To</dt>
        <dd>{m.to.join(', ')}</dd>
        <dt>Received</dt>
        <dd>{when(m.received_at)}</dd>
        <dt>Envelope sender</dt>
        <dd>
          <code class="wrap">{m.mail_from}</code>
        </dd>
        <dt>Size</dt>
        <dd>{m.size.toLocaleString('en')} bytes</dd>
        <dt>Message</dt>
        <dd>
          <a href={`/events/${encodeURIComponent(m.message_id)}`}>{m.message_id}: its events</a>
        </dd>
      </dl>
      <div class="view-tabs" role="group" aria-label="Show the message as">
        {tabs.map(([v, label, available]) => (
          <button
            type="button"
            key={v}
            class={shown === v ? 'primary' : ''}
            aria-pressed={shown === v}
            disabled={!available}
            onClick={() => setView(v)}
          >
            {label}
          </button>
        ))}
      </div>
      {shown === 'html' && m.html !== null ? <EmailFrame html={m.html} title={`Message: ${m.subject}`} /> : null}
      {shown === 'text' && m.text !== null ? (
        <pre class="text-part" tabIndex={0} aria-label="Plain-text body">
          {m.text}
        </pre>
      ) : null}
      {shown === 'raw' ? (
        <>
          {raw.loading && raw.data == null ? <Loading /> : null}
          <ErrorText error={raw.error} />
          {typeof raw.data === 'string' ? (
            <pre class="source" tabIndex={0} aria-label="Raw source, as signed">
              {raw.data}
            </pre>
          ) : null}
        </>
      ) : null}
      <p>
        <button type="button" onClick={() => navigate('/sandbox')}>
          Back to the mailbox
        </button>
      </p>
    </section>
  );
}

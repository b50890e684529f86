import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { navigate } from '../router';
import { Badge, Empty, ErrorText, Loading, must, useLoad, when } from '../ui';

const EVENTS = [
  'accepted-by-system',
  'rejected-by-system',
  'accepted-by-mta',
  'rejected-by-mta',
  'delivered',
  'failed',
  'opened',
  'clicked',
  'complained',
  'unsubscribed',
] as const;
type EventName = (typeof EVENTS)[number];
const PAGE = 50;

/** Events: the filters of GET /v1/events, paged, with live refresh (docs/dashboard.md). */
export function Events({ query }: { query: string }) {
  const q = new URLSearchParams(query);
  const domains = useLoad(async () => must(await api.GET('/v1/domains')).domains.map((d) => d.name), []);
  const domain = q.get('domain') ?? domains.data?.[0] ?? '';
  const event = q.get('event') ?? '';
  const messageId = q.get('message_id') ?? '';
  const start = q.get('start') ?? '';
  const end = q.get('end') ?? '';
  const offset = Number(q.get('offset') ?? '0') || 0;
  const [live, setLive] = useState(false);
  const list = useLoad(async () => {
    if (domains.data === undefined) return undefined;
    if (domains.data.length === 0) return null;
    const iso = (v: string) => (v === '' ? undefined : new Date(v).toISOString());
    return must(
      await api.GET('/v1/events', {
        params: {
          query: {
            domain,
            limit: PAGE,
            offset,
            ...(event !== '' ? { event: event as EventName } : {}),
            ...(messageId !== '' ? { message_id: messageId } : {}),
            ...(start !== '' ? { start: iso(start) } : {}),
            ...(end !== '' ? { end: iso(end) } : {}),
          },
        },
      }),
    );
  }, [query, domains.data]);
  useEffect(() => {
    if (!live) return;
    const t = setInterval(list.reload, 5000);
    return () => clearInterval(t);
  }, [live, list.reload]);
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(changes)) {
      if (v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('offset' in changes)) next.delete('offset');
    navigate(`/events?${next.toString()}`, true);
  };
  const data = list.data;
  return (
    <section>
      <h1>Events</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Event filters">
        <label>
          Domain
          <select value={domain} onChange={(e) => set({ domain: (e.target as HTMLSelectElement).value })}>
            {(domains.data ?? []).map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </label>
        <label>
          Event
          <select value={event} onChange={(e) => set({ event: (e.target as HTMLSelectElement).value })}>
            <option value="">all events</option>
            {EVENTS.map((e) => (
              <option key={e}>{e}</option>
            ))}
          </select>
        </label>
        <label>
          Message ID
          <input
            value={messageId}
            onChange={(e) => set({ message_id: (e.target as HTMLInputElement).value.trim() })}
            placeholder="msg_…"
          />
        </label>
        <label>
          From
          <input
            type="datetime-local"
            value={start}
            onChange={(e) => set({ start: (e.target as HTMLInputElement).value })}
          />
        </label>
        <label>
          To
          <input
            type="datetime-local"
            value={end}
            onChange={(e) => set({ end: (e.target as HTMLInputElement).value })}
          />
        </label>
        <label class="check">
          <input type="checkbox" checked={live} onChange={(e) => setLive((e.target as HTMLInputElement).checked)} />{' '}
          Live refresh
        </label>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </form>
      <ErrorText error={list.error ?? domains.error} />
      {(list.loading || domains.loading) && data === undefined ? <Loading /> : null}
      {data === null ? <Empty>No domain yet: add one under Transactional, then send.</Empty> : null}
      {data && data.events.length === 0 ? (
        <Empty>No events match. Send a message with the domain's API key, or widen the filters.</Empty>
      ) : null}
      {data && data.events.length > 0 ? (
        <>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">To</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody>
                {data.events.map((e) => (
                  <tr key={e.id}>
                    <td>{when(e.occurred_at)}</td>
                    <td>{e.event}</td>
                    <td>{e.to}</td>
                    <td class="clip">{e.subject}</td>
                    <td>
                      <a href={`/events/${encodeURIComponent(e.message_id)}`}>{e.message_id}</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager total={data.total} offset={offset} onPage={(o) => set({ offset: String(o) })} />
        </>
      ) : null}
    </section>
  );
}

function Pager({ total, offset, onPage }: { total: number; offset: number; onPage: (offset: number) => void }) {
  return (
    <p class="pager">
      <button type="button" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - PAGE))}>
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(total, offset + PAGE)} of {total}
      </span>
      <button type="button" disabled={offset + PAGE >= total} onClick={() => onPage(offset + PAGE)}>
        Next
      </button>
    </p>
  );
}

/** A message's timeline: each recipient's status and last SMTP reply, and every event in order. */
export function MessageScreen({ id }: { id: string }) {
  const msg = useLoad(async () => must(await api.GET('/v1/messages/{id}', { params: { path: { id } } })), [id]);
  const m = msg.data;
  return (
    <section>
      <p class="crumbs">
        <a href="/events">Events</a> / {id}
      </p>
      <h1>Message</h1>
      {msg.loading && m === undefined ? <Loading /> : null}
      <ErrorText error={msg.error} />
      {m ? (
        <>
          <dl class="facts card">
            <dt>ID</dt>
            <dd>
              <code>{m.id}</code>
            </dd>
            <dt>Domain</dt>
            <dd>{m.domain}</dd>
            <dt>From</dt>
            <dd>{m.from}</dd>
            <dt>Subject</dt>
            <dd>{m.subject}</dd>
            <dt>Created</dt>
            <dd>{when(m.created_at)}</dd>
            <dt>Tags</dt>
            <dd>{m.tags.length ? m.tags.join(', ') : '—'}</dd>
            {m.template ? (
              <>
                <dt>Template</dt>
                <dd>
                  {m.template.name} v{m.template.version}
                </dd>
              </>
            ) : null}
          </dl>
          <h2>Recipients</h2>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Address</th>
                  <th scope="col">Status</th>
                  <th scope="col">Updated</th>
                  <th scope="col">Last SMTP reply</th>
                  <th scope="col">Next attempt</th>
                </tr>
              </thead>
              <tbody>
                {m.recipients.map((r) => (
                  <tr key={r.address}>
                    <td>{r.address}</td>
                    <td>
                      <Badge value={r.status} />
                    </td>
                    <td>{when(r.updated_at)}</td>
                    <td class="clip">{r.last_reply ?? '—'}</td>
                    <td>{when(r.next_attempt_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>Timeline</h2>
          <ol class="timeline">
            {m.events.map((e) => (
              <li key={e.id}>
                <strong>{e.event}</strong> <span class="muted">{when(e.occurred_at)}</span> · {e.to}
                {Object.keys(e.details).length > 0 ? (
                  <pre class="details">{JSON.stringify(e.details, null, 2)}</pre>
                ) : null}
              </li>
            ))}
          </ol>
          {m.events_truncated ? <p class="muted">Older events are not shown.</p> : null}
          <p>
            <button type="button" onClick={() => void download(m.id)}>
              Download the signed source
            </button>{' '}
            <span class="muted">(while the body is retained)</span>
          </p>
        </>
      ) : null}
    </section>
  );
}

/** Fetched through the typed client (so a bearer token works too), then saved as a file. */
async function download(id: string): Promise<void> {
  const r = await api.GET('/v1/messages/{id}/content', { params: { path: { id } }, parseAs: 'blob' });
  if (!(r.data instanceof Blob)) return;
  const url = URL.createObjectURL(r.data);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${id}.eml`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

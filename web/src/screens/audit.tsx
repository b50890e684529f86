import { useState } from 'preact/hooks';
import { api } from '../api';
import { Empty, ErrorText, Loading, must, useLoad, when } from '../ui';

/** Audit log: every management change, newest first, a page at a time. */
export function AuditLog() {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    async () => must(await api.GET('/v1/audit', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } })),
    [cursor],
  );
  const p = page.data;
  return (
    <section>
      <h1>Audit log</h1>
      <p class="muted">Every change to the account, by whom and from where. Secrets never appear here.</p>
      {page.loading && p === undefined ? <Loading /> : null}
      <ErrorText error={page.error} />
      {p && p.entries.length === 0 ? <Empty>No change recorded yet.</Empty> : null}
      {p && p.entries.length > 0 ? (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">At</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">IP</th>
              </tr>
            </thead>
            <tbody>
              {p.entries.map((e, i) => (
                <tr key={`${e.at}-${i}`}>
                  <td>{when(e.at)}</td>
                  <td>{e.actor}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{e.target}</td>
                  <td>{e.ip ?? '—'}</td>
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

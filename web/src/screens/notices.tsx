import { api } from '../api';
import { navigate } from '../router';
import { Badge, Empty, ErrorText, Loading, must, useLoad, when } from '../ui';

/** Notices: domain warnings, complaint-rate warnings and disabled webhooks, newest first. */
export function Notices({ query }: { query: string }) {
  const domain = new URLSearchParams(query).get('domain') ?? '';
  const domains = useLoad(async () => must(await api.GET('/v1/domains')).domains.map((d) => d.name), []);
  const list = useLoad(
    async () => must(await api.GET('/v1/notices', { params: { query: domain === '' ? {} : { domain } } })).notices,
    [domain],
  );
  return (
    <section>
      <h1>Notices</h1>
      <p class="muted">
        What Posthorn noticed about your domains and webhooks. They also go to the domain’s webhook, except a disabled
        webhook’s own notice.
      </p>
      <p>
        <label>
          Domain{' '}
          <select
            value={domain}
            onChange={(e) => {
              const v = (e.target as HTMLSelectElement).value;
              navigate(v === '' ? '/notices' : `/notices?domain=${encodeURIComponent(v)}`, true);
            }}
          >
            <option value="">all domains</option>
            {(domains.data ?? []).map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </label>
      </p>
      {list.loading && list.data === undefined ? <Loading /> : null}
      <ErrorText error={list.error} />
      {list.data !== undefined && list.data.length === 0 ? (
        <Empty>No notices: nothing needs your attention.</Empty>
      ) : null}
      {list.data !== undefined && list.data.length > 0 ? (
        <ul class="notices">
          {list.data.map((n) => (
            <li key={n.id} class="card">
              <p>
                <Badge value={n.kind.endsWith('recovered') ? 'ok' : 'warning'} /> <code>{n.kind}</code>{' '}
                {n.domain ? <a href={`/transactional/${encodeURIComponent(n.domain)}`}>{n.domain}</a> : null}{' '}
                <span class="muted">{when(n.created_at)}</span>
              </p>
              <p>{n.message}</p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

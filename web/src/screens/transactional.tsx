import { useState } from 'preact/hooks';
import { api } from '../api';
import { navigate } from '../router';
import { Badge, Empty, ErrorText, Field, Loading, must, percent, useAction, useLoad } from '../ui';

/** Transactional: the account's sending domains, and adding one (docs/dashboard.md). */
export function Transactional({ canWrite }: { canWrite: boolean }) {
  const list = useLoad(async () => must(await api.GET('/v1/domains')).domains, []);
  const [name, setName] = useState('');
  const add = useAction();
  return (
    <section>
      <h1>Transactional</h1>
      <p class="muted">
        Your sending domains. Open one for its DNS records, API key, SMTP credentials, webhook and tracking.
      </p>
      {list.loading && list.data === undefined ? <Loading /> : null}
      <ErrorText error={list.error} />
      {list.data !== undefined && list.data.length === 0 ? (
        <Empty>
          No sending domain yet. Add the domain you send from below; Posthorn then shows the DNS records to publish.
        </Empty>
      ) : null}
      {list.data !== undefined && list.data.length > 0 ? (
        <p>
          This month the account sent to {list.data[0]!.month.accepted.toLocaleString('en')} recipients
          {list.data[0]!.month.quota !== null
            ? ` of its ${list.data[0]!.month.quota.toLocaleString('en')} quota`
            : ' (no monthly quota)'}
          ; each domain's share is under <strong>This month</strong>. <a href="/usage">Usage</a> has the days.
        </p>
      ) : null}
      {list.data !== undefined && list.data.length > 0 ? (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <caption class="sr-only">Sending domains</caption>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Status</th>
                <th scope="col">This month</th>
                <th scope="col">Complaint rate</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((d) => (
                <tr key={d.name}>
                  <td>
                    <a href={`/transactional/${encodeURIComponent(d.name)}`}>{d.name}</a>
                  </td>
                  <td>
                    <Badge value={d.status} />
                  </td>
                  <td>{d.month.domain_accepted.toLocaleString('en')}</td>
                  <td>
                    {percent(d.complaint_rate.rate)}
                    <span class="muted"> (limit {percent(d.complaint_rate.threshold)})</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {canWrite ? (
        <form
          class="card inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void add.run(async () => {
              const d = must(await api.POST('/v1/domains', { body: { name: name.trim() } }));
              navigate(`/transactional/${encodeURIComponent(d.name)}`);
            });
          }}
        >
          <h2>Add a domain</h2>
          <Field
            label="Domain name"
            name="name"
            value={name}
            onInput={setName}
            error={add.error}
            placeholder="mail.example.com"
            required
          />
          {add.error && add.error.field !== 'name' ? <ErrorText error={add.error} /> : null}
          <button type="submit" class="primary" disabled={add.busy}>
            {add.busy ? 'Adding…' : 'Add domain'}
          </button>
        </form>
      ) : null}
    </section>
  );
}

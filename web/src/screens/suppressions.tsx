import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { operations } from '../../../src/client/client.js';
import { api, type ApiError, type Session } from '../api';
import { navigate } from '../router';
import { downloadAsFile, uploadWithProgress, type Progress } from '../transfer';
import { Empty, ErrorText, Field, Loading, must, useAction, useLoad, when } from '../ui';

type Page = operations['listSuppressions']['responses'][200]['content']['application/json'];
type Entry = Page['suppressions'][number];
type Reason = Entry['reason'];
type ImportResult = operations['importSuppressions']['responses'][200]['content']['application/json'];

const REASONS: [Reason, string][] = [
  ['hard_bounce', 'hard bounce'],
  ['complaint', 'complaint'],
  ['unsubscribed', 'unsubscribed'],
  ['manual', 'manual'],
];
const TONE: Record<Reason, string> = { hard_bounce: 'bad', complaint: 'bad', unsubscribed: 'warn', manual: 'info' };
const PAGE = 50;

/**
 * Suppressions (docs/dashboard.md): the account's suppression list, searched and paged; adding
 * and removing an address; CSV or NDJSON import with upload progress and the invalid-line report;
 * export as a file. A viewer sees the list and the export only.
 */
export function Suppressions({ query, session }: { query: string; session: Session }) {
  // GET /v1/session answers with the role for a signed-in user and an account token alike.
  const canWrite = session.role !== 'viewer';
  const q = new URLSearchParams(query);
  const address = q.get('address') ?? '';
  const reason = (q.get('reason') ?? '') as Reason | '';
  // Cursors of the pages before this one; a new search starts again at the first page.
  const [paging, setPaging] = useState<{ query: string; cursors: string[] }>({ query, cursors: [] });
  const cursors = paging.query === query ? paging.cursors : [];
  const cursor = cursors[cursors.length - 1];
  const list = useLoad(
    async () =>
      must(
        await api.GET('/v1/suppressions', {
          params: {
            query: {
              limit: PAGE,
              ...(address !== '' ? { address } : {}),
              ...(reason !== '' ? { reason } : {}),
              ...(cursor !== undefined ? { cursor } : {}),
            },
          },
        }),
      ),
    [query, cursor],
  );
  const [notice, setNotice] = useState<string | null>(null);
  const page = list.data;
  // A removal can empty the last page: step back to the one before.
  useEffect(() => {
    if (page !== undefined && page.suppressions.length === 0 && cursors.length > 0)
      setPaging({ query, cursors: cursors.slice(0, -1) });
  }, [page]);
  const changed = (message: string): void => {
    setNotice(message);
    list.reload();
  };
  useEffect(() => setNotice(null), [query]);
  const filtered = address !== '' || reason !== '';
  return (
    <section class="suppressions">
      <h1>Suppressions</h1>
      <p class="muted">
        Addresses Posthorn does not send to, across all your domains: a send to one of them is refused with 422 before
        anything goes out. Hard bounces, spam complaints and unsubscribes are added automatically.
      </p>
      {session.role === 'viewer' ? (
        <p class="notice">
          Your role is viewer: you can search and export this list; adding, removing and importing addresses needs an
          admin.
        </p>
      ) : null}
      {canWrite ? <AddAddress onAdded={changed} /> : null}
      <section class="card" aria-labelledby="supp-list-h">
        <h2 id="supp-list-h">Suppression list</h2>
        <Search address={address} reason={reason} query={query} />
        {notice !== null ? (
          <p role="status" class="notice">
            {notice}
          </p>
        ) : null}
        {list.loading && page === undefined ? <Loading /> : null}
        <ErrorText error={list.error} />
        {page && page.suppressions.length === 0 && cursors.length === 0 ? (
          filtered ? (
            <Empty>
              No suppressed address matches {address !== '' ? <q>{address}</q> : null}
              {reason !== '' ? ` with reason ${reason}` : null}. <a href="/suppressions">Show the whole list</a>, or
              search for part of an address (<code>@example.com</code> lists one recipient domain).
            </Empty>
          ) : (
            <Empty>
              <p>
                No address is suppressed yet. Posthorn adds one when mail to it bounces hard, when its recipient marks a
                message as spam, or when the recipient unsubscribes; from then on every send to it is refused (422), so
                your reputation is not hurt by mail that cannot or should not arrive.
              </p>
              <p>
                {canWrite
                  ? 'To stop mail to an address yourself, add it above. Moving from another provider? Import its suppression list as a CSV file below.'
                  : 'An admin of the account can add addresses or import a list; you can export it below.'}
              </p>
            </Empty>
          )
        ) : null}
        {page && page.suppressions.length > 0 ? (
          <EntryTable entries={page.suppressions} canWrite={canWrite} onRemoved={changed} />
        ) : null}
        <p class="pager">
          <button
            type="button"
            disabled={cursors.length === 0}
            onClick={() => setPaging({ query, cursors: cursors.slice(0, -1) })}
          >
            Previous
          </button>
          <span class="muted">Page {cursors.length + 1}</span>
          <button
            type="button"
            disabled={!page?.next_cursor}
            onClick={() => {
              const next = page?.next_cursor;
              if (next) setPaging({ query, cursors: [...cursors, next] });
            }}
          >
            Next
          </button>
        </p>
      </section>
      {canWrite ? <Import onImported={() => list.reload()} /> : null}
      <Export session={session} />
    </section>
  );
}

/** The search form: part of an address (any position, as the API matches it) and one reason. */
function Search({ address, reason, query }: { address: string; reason: Reason | ''; query: string }) {
  const [text, setText] = useState(address);
  useEffect(() => setText(address), [address]);
  const apply = (changes: Record<string, string>): void => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(changes)) {
      if (v === '') next.delete(k);
      else next.set(k, v);
    }
    const s = next.toString();
    navigate(s === '' ? '/suppressions' : `/suppressions?${s}`, true);
  };
  return (
    <form
      class="filters"
      role="search"
      aria-label="Search the suppression list"
      onSubmit={(e) => {
        e.preventDefault();
        apply({ address: text.trim() });
      }}
    >
      <label>
        Address contains
        <input
          type="search"
          name="address"
          value={text}
          placeholder="ana@ or @example.com"
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        Reason
        <select value={reason} onChange={(e) => apply({ reason: (e.target as HTMLSelectElement).value })}>
          <option value="">all reasons</option>
          {REASONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <span class="buttons">
        <button type="submit">Search</button>
        {address !== '' || reason !== '' ? (
          <button type="button" onClick={() => navigate('/suppressions', true)}>
            Clear
          </button>
        ) : null}
      </span>
    </form>
  );
}

function ReasonBadge({ reason }: { reason: Reason }) {
  return <span class={`badge ${TONE[reason]}`}>{REASONS.find(([r]) => r === reason)?.[1] ?? reason}</span>;
}

/** The page's entries; with write access, each row's Remove asks for confirmation in place. */
function EntryTable(props: { entries: Entry[]; canWrite: boolean; onRemoved: (message: string) => void }) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = useAction();
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming !== null) yes.current?.focus();
  }, [confirming]);
  return (
    <>
      <div class="table-wrap" tabIndex={0}>
        <table>
          <caption class="sr-only">Suppressed addresses</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Reason</th>
              <th scope="col">Sending domain</th>
              <th scope="col">Message</th>
              <th scope="col">Since</th>
              {props.canWrite ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {props.entries.map((e) => (
              <tr key={e.address}>
                <td class="addr">
                  <code>{e.address}</code>
                </td>
                <td>
                  <ReasonBadge reason={e.reason} />
                </td>
                <td>{e.domain ?? <span class="muted">—</span>}</td>
                <td class="any">
                  {e.message_id !== null ? (
                    <a href={`/events/${encodeURIComponent(e.message_id)}`}>{e.message_id}</a>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
                <td class="nowrap">{when(e.created_at)}</td>
                {props.canWrite ? (
                  <td>
                    {confirming === e.address ? (
                      <span class="buttons confirm">
                        <span>Remove it? Mail to it will be accepted again.</span>
                        <button
                          ref={yes}
                          type="button"
                          class="small danger"
                          disabled={remove.busy}
                          onClick={() =>
                            remove.run(async () => {
                              const r = await api.DELETE('/v1/suppressions/{address}', {
                                params: { path: { address: e.address } },
                              });
                              if (r.error !== undefined) must(r);
                              setConfirming(null);
                              props.onRemoved(`${e.address} was removed: mail to it is accepted again.`);
                            })
                          }
                        >
                          Yes, remove {e.address}
                        </button>
                        <button type="button" class="small" onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </span>
                    ) : (
                      <button
                        type="button"
                        class="small danger"
                        aria-label={`Remove ${e.address}`}
                        onClick={() => {
                          remove.clear();
                          setConfirming(e.address);
                        }}
                      >
                        Remove…
                      </button>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorText error={remove.error} />
    </>
  );
}

/** Adding one address, with a reason (manual unless chosen); the API's refusal is shown at its field. */
function AddAddress({ onAdded }: { onAdded: (message: string) => void }) {
  const [address, setAddress] = useState('');
  const [reason, setReason] = useState<Reason>('manual');
  const add = useAction();
  const reasonId = useId();
  const reasonInvalid = add.error?.field === 'reason';
  return (
    <form
      class="card"
      aria-labelledby="supp-add-h"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void add.run(async () => {
          const r = await api.POST('/v1/suppressions', { body: { address: address.trim(), reason } });
          const entry = must(r);
          setAddress('');
          onAdded(
            r.response.status === 201
              ? `${entry.address} was added (${entry.reason}): mail to it is refused from now on.`
              : `${entry.address} was already suppressed (${entry.reason}, since ${when(entry.created_at)}); its entry is unchanged.`,
          );
        });
      }}
    >
      <h2 id="supp-add-h">Add an address</h2>
      <Field
        label="Email address"
        name="address"
        type="email"
        value={address}
        onInput={setAddress}
        error={add.error}
        placeholder="ana@example.org"
        autoComplete="off"
      />
      <div class="field">
        <label for={reasonId}>Reason</label>
        <select
          id={reasonId}
          name="reason"
          value={reason}
          aria-invalid={reasonInvalid ? 'true' : undefined}
          aria-describedby={reasonInvalid ? `${reasonId}-error` : undefined}
          onChange={(e) => setReason((e.target as HTMLSelectElement).value as Reason)}
        >
          {REASONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <ErrorText error={add.error} field="reason" id={`${reasonId}-error`} />
      </div>
      {add.error && !['address', 'reason'].includes(add.error.field ?? '') ? <ErrorText error={add.error} /> : null}
      <button type="submit" class="primary" disabled={add.busy}>
        {add.busy ? 'Adding…' : 'Add address'}
      </button>
    </form>
  );
}

/** NDJSON when the file's name or type says so, CSV otherwise (the two formats the import takes). */
function importType(file: File): string {
  return /\.(ndjson|jsonl)$/i.test(file.name) || file.type === 'application/x-ndjson'
    ? 'application/x-ndjson'
    : 'text/csv; charset=utf-8';
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Import: a file picker, the upload's progress, then the counts and the invalid-line report. */
function Import({ onImported }: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const imp = useAction();
  const id = useId();
  const uploaded = progress !== null && progress.total > 0 && progress.loaded >= progress.total;
  return (
    <section class="card" aria-labelledby="supp-import-h">
      <h2 id="supp-import-h">Import</h2>
      <p class="muted">
        A CSV file with a header line and an <code>address</code> column (<code>reason</code>, <code>created_at</code>,{' '}
        <code>domain</code> and <code>message_id</code> are optional, as the export writes them), or NDJSON (
        <code>.ndjson</code>). Valid lines are imported even when others are not; addresses already on the list keep
        their entry. Up to 256 MB; larger files with <code>posthorn suppression import</code>.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (file === null) return;
          setResult(null);
          setProgress({ loaded: 0, total: file.size });
          void imp.run(async () => {
            try {
              setResult(
                await uploadWithProgress<ImportResult>('/v1/suppressions/import', file, importType(file), setProgress),
              );
            } finally {
              onImported();
            }
          });
        }}
      >
        <div class="field">
          <label for={id}>CSV or NDJSON file</label>
          <input
            id={id}
            type="file"
            name="file"
            accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson"
            aria-invalid={imp.error ? 'true' : undefined}
            aria-describedby={imp.error ? `${id}-error` : undefined}
            onChange={(e) => {
              setFile((e.target as HTMLInputElement).files?.[0] ?? null);
              setResult(null);
              setProgress(null);
              imp.clear();
            }}
          />
          <ErrorText error={imp.error} id={`${id}-error`} />
        </div>
        <button type="submit" class="primary" disabled={file === null || imp.busy}>
          {imp.busy ? 'Importing…' : 'Import file'}
        </button>
      </form>
      {progress !== null ? (
        <div class="upload">
          <label for={`${id}-progress`}>
            {imp.busy && !uploaded
              ? `Uploading ${file?.name ?? ''}: ${size(progress.loaded)} of ${size(progress.total)}`
              : imp.busy
                ? `Uploaded ${size(progress.total)}; importing the last lines…`
                : `Uploaded ${size(progress.loaded)} of ${size(progress.total)}`}
          </label>
          <progress id={`${id}-progress`} max={progress.total || 1} value={progress.loaded} />
        </div>
      ) : null}
      {result !== null ? <ImportReport result={result} /> : null}
    </section>
  );
}

function ImportReport({ result }: { result: ImportResult }) {
  return (
    <div role="status">
      <h3>Import finished</h3>
      <dl class="facts">
        <dt>Imported</dt>
        <dd>{result.imported.toLocaleString('en')}</dd>
        <dt>Already suppressed</dt>
        <dd>{result.already_suppressed.toLocaleString('en')}</dd>
        <dt>Invalid</dt>
        <dd>{result.invalid_count.toLocaleString('en')}</dd>
      </dl>
      {result.invalid.length > 0 ? (
        <>
          <h3>Invalid lines</h3>
          <p class="muted">
            {result.invalid_count > result.invalid.length
              ? `The first ${result.invalid.length} of ${result.invalid_count.toLocaleString('en')}; `
              : ''}
            fix these lines and import the file again: the lines already imported count as already suppressed.
          </p>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <caption class="sr-only">Invalid lines of the imported file</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Value</th>
                  <th scope="col">What is wrong</th>
                </tr>
              </thead>
              <tbody>
                {result.invalid.map((row) => (
                  <tr key={row.line}>
                    <td>{row.line}</td>
                    <td class="any">
                      <code>{row.value}</code>
                    </td>
                    <td class="any">{row.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}

/**
 * Export: the whole list as CSV or NDJSON. With a session the CSV is a plain link (the cookie is
 * all it needs, and the browser streams it to disk); NDJSON needs an Accept header and an account
 * token an Authorization header, which a link cannot send, so those are fetched and saved.
 */
function Export({ session }: { session: Session }) {
  const [received, setReceived] = useState<number | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const fetchAndSave = async (accept: string, filename: string): Promise<void> => {
    setBusy(true);
    setError(null);
    setReceived(0);
    try {
      await downloadAsFile('/v1/suppressions/export', { accept, filename, onProgress: setReceived });
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="supp-export-h">
      <h2 id="supp-export-h">Export</h2>
      <p class="muted">
        The whole list in address order, to keep or to import into another account or service. An export imported into
        an empty account gives back the same list.
      </p>
      <p class="buttons">
        {session.kind === 'session' ? (
          <a class="button" href="/v1/suppressions/export" download="suppressions.csv">
            Download CSV
          </a>
        ) : (
          <button type="button" disabled={busy} onClick={() => void fetchAndSave('text/csv', 'suppressions.csv')}>
            Download CSV
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() => void fetchAndSave('application/x-ndjson', 'suppressions.ndjson')}
        >
          Download NDJSON
        </button>
      </p>
      {received !== null ? (
        <p role="status" class="muted">
          {busy ? `Downloading… ${size(received)} so far` : error === null ? `Downloaded ${size(received)}.` : ''}
        </p>
      ) : null}
      <ErrorText error={error} />
    </section>
  );
}

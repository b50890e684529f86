import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type ApiError } from '../api';
import { navigate } from '../router';
import { CopyButton, Empty, ErrorText, Field, Loading, must, useAction, useLoad, when } from '../ui';
import { CodeEditor } from './templates/code-editor';
import type { Compare as CompareView, Sources } from './templates/compare';
import { EmailFrame } from './templates/email-frame';
import { parseVariables, sampleVariables } from './templates/sample-variables';

/** Templates a page: GET /v1/templates answers the whole list (by name), which the screen pages. */
const PAGE = 20;
/** Versions a page, likewise (GET /v1/templates/{name}/versions answers them all, newest first). */
const VERSIONS_PAGE = 10;
/** How long the sample variables rest before the preview is rendered again. */
const PREVIEW_DEBOUNCE_MS = 300;

const byName = (name: string) => ({ params: { path: { name } } });

/** The body of POST /v1/send that sends template `name` with `variables`. */
function sendBody(name: string, variables: Record<string, unknown>): string {
  return JSON.stringify(
    { from: 'Acme <hello@mail.example.com>', to: 'ana@example.org', template: { name, variables } },
    null,
    2,
  );
}

function SendExample({ name, variables }: { name: string; variables: Record<string, unknown> }) {
  const body = sendBody(name, variables);
  return (
    <>
      <pre class="details" aria-label="Example request body">
        <code>
          POST /v1/send{'\n'}
          {body}
        </code>
      </pre>
      <CopyButton text={body} label="Copy request body" />
    </>
  );
}

/** Templates: the account's templates, a page at a time, and creating one (docs/dashboard.md). */
export function Templates({ canWrite }: { canWrite: boolean }) {
  const list = useLoad(async () => must(await api.GET('/v1/templates')).templates, []);
  const [page, setPage] = useState(0);
  const all = list.data ?? [];
  const pages = Math.max(1, Math.ceil(all.length / PAGE));
  const shown = all.slice(page * PAGE, (page + 1) * PAGE);
  return (
    <section>
      <h1>Templates</h1>
      <p class="muted">
        Messages stored once and sent by name: a subject, an HTML part and a text part written in Handlebars, with the
        values each send gives. Every save makes a new version; a send uses the newest unless it names one.
      </p>
      {list.loading && list.data === undefined ? <Loading /> : null}
      <ErrorText error={list.error} />
      {list.data !== undefined && all.length === 0 ? (
        <Empty>
          <p>
            No template yet. A template is written once, with variables such as <code>{'{{user.first_name}}'}</code>{' '}
            where each send puts its own values, and sent by its name.{' '}
            {canWrite ? 'Create one below' : 'An admin can create one here'}, or add three starter templates with{' '}
            <code>posthorn template install-examples --account NAME</code>. Then send it with your domain's API key:
          </p>
          <SendExample name="welcome" variables={{ user: { first_name: 'Ana' } }} />
        </Empty>
      ) : null}
      {shown.length > 0 ? (
        <>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <caption class="sr-only">Templates</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Newest version</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((t) => (
                  <tr key={t.id}>
                    <td>
                      <a href={`/templates/${encodeURIComponent(t.name)}`}>{t.name}</a>
                    </td>
                    <td>{t.version}</td>
                    <td>{when(t.updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 ? (
            <p class="pager">
              <button type="button" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                Previous
              </button>
              <span>
                Page {page + 1} of {pages}
              </span>
              <button type="button" disabled={page >= pages - 1} onClick={() => setPage((p) => p + 1)}>
                Next
              </button>
            </p>
          ) : null}
        </>
      ) : null}
      {canWrite ? <CreateTemplate /> : null}
    </section>
  );
}

function CreateTemplate() {
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [html, setHtml] = useState('');
  const [text, setText] = useState('');
  const create = useAction();
  const known = ['name', 'subject', 'html', 'text'];
  return (
    <form
      class="card"
      aria-labelledby="create-h"
      onSubmit={(e) => {
        e.preventDefault();
        void create.run(async () => {
          const made = must(await api.POST('/v1/templates', { body: { name: name.trim(), subject, html, text } }));
          navigate(`/templates/${encodeURIComponent(made.name)}`);
        });
      }}
    >
      <h2 id="create-h">Create a template</h2>
      <Field
        label="Name"
        name="name"
        value={name}
        onInput={setName}
        error={create.error}
        placeholder="welcome"
        hint="Lowercase letters, digits, - and _ (up to 64), unique in the account: sends name the template by it."
        required
      />
      <Field
        label="Subject"
        name="subject"
        value={subject}
        onInput={setSubject}
        error={create.error}
        placeholder="Welcome, {{user.first_name}}"
        required
      />
      <CodeEditor label="HTML" field="html" language="html" value={html} onChange={setHtml} error={create.error} />
      <CodeEditor
        label="Text"
        field="text"
        language="text"
        value={text}
        onChange={setText}
        error={create.error}
        hint="The plain-text part. At least one of HTML and text."
      />
      {create.error && !known.includes(create.error.field ?? '') ? <ErrorText error={create.error} /> : null}
      <button type="submit" class="primary" disabled={create.busy}>
        {create.busy ? 'Creating…' : 'Create template'}
      </button>
    </form>
  );
}

type Rendered = { subject: string; html: string | null; text: string | null };

/**
 * The preview: POST /v1/templates/{name}/render with the sample variables, once they have rested
 * for a moment, answers only for the newest request being kept.
 */
function usePreview(
  name: string,
  version: number | undefined,
  variables: Record<string, unknown> | null,
): { result: Rendered | null; error: ApiError | null; busy: boolean } {
  const [state, setState] = useState<{ result: Rendered | null; error: ApiError | null; busy: boolean }>({
    result: null,
    error: null,
    busy: false,
  });
  const key = variables === null ? null : JSON.stringify(variables);
  useEffect(() => {
    if (version === undefined || variables === null) return;
    let live = true;
    setState((s) => ({ ...s, busy: true }));
    const timer = setTimeout(() => {
      void api.POST('/v1/templates/{name}/render', { ...byName(name), body: { variables, version } }).then(
        (r) => {
          if (!live) return;
          if (r.data !== undefined) setState({ result: r.data, error: null, busy: false });
          else {
            try {
              must(r);
            } catch (e) {
              setState({ result: null, error: e as ApiError, busy: false });
            }
          }
        },
        (e: unknown) =>
          live &&
          setState({
            result: null,
            error: { type: 'internal_error', message: e instanceof Error ? e.message : String(e), docs: '' },
            busy: false,
          }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [name, version, key]);
  return state;
}

/** One template: its sources in the editor, the live preview, its versions, compare, delete (docs/dashboard.md). */
export function TemplateScreen({ name, canWrite }: { name: string; canWrite: boolean }) {
  const [selected, setSelected] = useState<number | null>(null);
  const [tick, setTick] = useState(0);
  const shown = useLoad(
    async () =>
      must(
        await api.GET('/v1/templates/{name}', {
          params: { path: { name }, query: selected === null ? {} : { version: selected } },
        }),
      ),
    [name, selected, tick],
  );
  const versions = useLoad(
    async () => must(await api.GET('/v1/templates/{name}/versions', byName(name))).versions,
    [name, tick],
  );
  const v = shown.data;

  const [draft, setDraft] = useState({ subject: '', html: '', text: '' });
  const [savedNote, setSavedNote] = useState<string | null>(null);
  useEffect(() => {
    if (v !== undefined) setDraft({ subject: v.subject, html: v.html ?? '', text: v.text ?? '' });
  }, [v?.id, v?.version]);
  const dirty =
    v !== undefined && (draft.subject !== v.subject || draft.html !== (v.html ?? '') || draft.text !== (v.text ?? ''));

  const [varsText, setVarsText] = useState<string | null>(null);
  useEffect(() => {
    // The first version shown seeds the sample variables; later ones keep what was typed.
    if (v !== undefined && varsText === null) setVarsText(JSON.stringify(sampleVariables(v.variables), null, 2));
  }, [v?.id]);
  const parsed = useMemo(() => parseVariables(varsText ?? '{}'), [varsText]);
  const preview = usePreview(name, v?.version, varsText !== null && parsed.ok ? parsed.value : null);

  const save = useAction();
  const put = (body: { subject: string; html: string; text: string }, note: (n: number) => string) =>
    save.run(async () => {
      const made = must(await api.PUT('/v1/templates/{name}', { ...byName(name), body }));
      setSelected(null);
      setTick((t) => t + 1);
      setSavedNote(note(made.version));
    });

  if (shown.loading && v === undefined) return <Loading />;
  if (v === undefined)
    return (
      <section>
        <p class="crumbs">
          <a href="/templates">Templates</a> / {name}
        </p>
        <h1>{name}</h1>
        <ErrorText error={shown.error} />
        <a href="/templates">Back to Templates</a>
      </section>
    );

  const latest = v.latest_version;
  const old = v.version !== latest;
  const variablesError: ApiError | null = !parsed.ok
    ? { type: 'invalid_request', message: parsed.message, docs: '', field: 'variables' }
    : preview.error?.field?.startsWith('variables')
      ? { ...preview.error, field: 'variables' }
      : null;
  const known = ['subject', 'html', 'text'];
  return (
    <section>
      <p class="crumbs">
        <a href="/templates">Templates</a> / {v.name}
      </p>
      <h1>{v.name}</h1>
      <p class="muted">
        {old ? `Showing version ${v.version} of ${latest}` : `Version ${v.version}, the newest`} · made{' '}
        {when(v.created_at)} · uses {v.variables.length === 0 ? 'no variables' : v.variables.join(', ')}
      </p>

      <section class="card" aria-labelledby="source-h">
        <h2 id="source-h">{canWrite ? 'Edit' : 'Source'}</h2>
        {old ? (
          <p class="notice">
            This is version {v.version}; sends use version {latest}.{' '}
            {canWrite ? `Saving makes version ${latest + 1} from what is below.` : null}{' '}
            <button type="button" class="link" onClick={() => setSelected(null)}>
              Show the newest
            </button>
          </p>
        ) : null}
        {canWrite ? (
          <Field
            label="Subject"
            name="subject"
            value={draft.subject}
            onInput={(subject) => setDraft((d) => ({ ...d, subject }))}
            error={save.error}
            required
          />
        ) : (
          <dl class="facts">
            <dt>Subject</dt>
            <dd>
              <code>{v.subject}</code>
            </dd>
          </dl>
        )}
        <CodeEditor
          label="HTML"
          field="html"
          language="html"
          value={draft.html}
          onChange={(html) => setDraft((d) => ({ ...d, html }))}
          readOnly={!canWrite}
          error={save.error}
        />
        <CodeEditor
          label="Text"
          field="text"
          language="text"
          value={draft.text}
          onChange={(text) => setDraft((d) => ({ ...d, text }))}
          readOnly={!canWrite}
          error={save.error}
        />
        {canWrite ? (
          <>
            {save.error && !known.includes(save.error.field ?? '') ? <ErrorText error={save.error} /> : null}
            <p class="buttons">
              <button
                type="button"
                class="primary"
                disabled={save.busy || !dirty}
                onClick={() => void put(draft, (n) => `Saved as version ${n}.`)}
              >
                {save.busy ? 'Saving…' : `Save as version ${latest + 1}`}
              </button>
              {dirty ? (
                <button
                  type="button"
                  onClick={() => setDraft({ subject: v.subject, html: v.html ?? '', text: v.text ?? '' })}
                >
                  Discard changes
                </button>
              ) : null}
            </p>
            <p class="muted" role="status">
              {dirty ? 'Unsaved changes: the preview shows the saved version until you save.' : (savedNote ?? '')}
            </p>
          </>
        ) : null}
      </section>

      <section class="card" aria-labelledby="preview-h">
        <h2 id="preview-h">Preview</h2>
        <div class="preview-grid">
          <div>
            <CodeEditor
              label="Sample variables (JSON)"
              field="variables"
              language="json"
              value={varsText ?? ''}
              onChange={setVarsText}
              error={variablesError}
              hint="The variables a send would give; the preview renders again as you type. Nothing is sent."
            />
          </div>
          <div class="rendered">
            <p class="muted" role="status">
              {preview.busy
                ? 'Rendering…'
                : preview.result
                  ? `Version ${v.version} rendered with these variables.`
                  : ''}
            </p>
            {preview.error && variablesError === null ? <ErrorText error={preview.error} /> : null}
            {preview.result ? (
              <>
                <dl class="facts">
                  <dt>Subject</dt>
                  <dd data-preview="subject">{preview.result.subject}</dd>
                </dl>
                <h3>HTML</h3>
                {preview.result.html !== null ? (
                  <EmailFrame html={preview.result.html} title="HTML preview" />
                ) : (
                  <p class="muted">This version has no HTML part.</p>
                )}
                <h3>Text</h3>
                {preview.result.text !== null ? (
                  <pre class="details text-part" data-preview="text" tabIndex={0} aria-label="Text preview">
                    {preview.result.text}
                  </pre>
                ) : (
                  <p class="muted">This version has no text part.</p>
                )}
              </>
            ) : null}
          </div>
        </div>
      </section>

      <section class="card" aria-labelledby="send-h">
        <h2 id="send-h">Send it</h2>
        <p class="muted">
          <code>POST /v1/send</code> with a sending domain's API key; leave out <code>version</code> to use the newest.
        </p>
        <SendExample name={v.name} variables={parsed.ok ? parsed.value : {}} />
      </section>

      <Versions
        name={v.name}
        versions={versions.data}
        error={versions.error}
        shown={v}
        latest={latest}
        canWrite={canWrite}
        busy={save.busy}
        onOpen={(n) => setSelected(n === latest ? null : n)}
        onRestore={() =>
          void put(
            { subject: v.subject, html: v.html ?? '', text: v.text ?? '' },
            (n) => `Version ${v.version} restored as version ${n}.`,
          )
        }
      />
      {canWrite ? <DeleteTemplate name={v.name} versions={latest} /> : null}
    </section>
  );
}

function Versions(props: {
  name: string;
  versions: { version: number; created_at: string }[] | undefined;
  error: ApiError | null;
  shown: Sources;
  latest: number;
  canWrite: boolean;
  busy: boolean;
  onOpen: (version: number) => void;
  onRestore: () => void;
}) {
  const { versions, latest } = props;
  const [from, setFrom] = useState(Math.max(1, latest - 1));
  const [to, setTo] = useState(latest);
  useEffect(() => {
    setFrom(Math.max(1, latest - 1));
    setTo(latest);
  }, [latest]);
  const [pair, setPair] = useState<[Sources, Sources] | null>(null);
  // The compare view and jsdiff come as their own chunk, the first time versions are compared.
  const [Compare, setCompare] = useState<typeof CompareView | null>(null);
  const compare = useAction();
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil((versions?.length ?? 0) / VERSIONS_PAGE));
  const rows = versions?.slice(page * VERSIONS_PAGE, (page + 1) * VERSIONS_PAGE);
  const load = async (version: number): Promise<Sources> =>
    must(await api.GET('/v1/templates/{name}', { params: { path: { name: props.name }, query: { version } } }));
  return (
    <section class="card" aria-labelledby="versions-h">
      <h2 id="versions-h">Versions</h2>
      <p class="muted">Versions never change once made. A send may name any of them; without one it uses the newest.</p>
      <ErrorText error={props.error} />
      {versions === undefined ? null : (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <caption class="sr-only">Versions of {props.name}</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Made</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows!.map((row) => (
                <tr key={row.version} aria-current={row.version === props.shown.version ? 'true' : undefined}>
                  <td>
                    {row.version}
                    {row.version === latest ? <span class="muted"> (newest)</span> : null}
                  </td>
                  <td>{when(row.created_at)}</td>
                  <td class="buttons">
                    {row.version === props.shown.version ? (
                      <span class="muted">shown above</span>
                    ) : (
                      <button
                        type="button"
                        class="small"
                        aria-label={`Open version ${row.version}`}
                        onClick={() => props.onOpen(row.version)}
                      >
                        Open
                      </button>
                    )}
                    {props.canWrite && row.version !== latest && row.version === props.shown.version ? (
                      <button
                        type="button"
                        class="small"
                        disabled={props.busy}
                        onClick={props.onRestore}
                        aria-label={`Restore version ${row.version} as version ${latest + 1}`}
                      >
                        Restore as version {latest + 1}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 ? (
        <p class="pager">
          <button type="button" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
            Newer
          </button>
          <span>
            Page {page + 1} of {pages}
          </span>
          <button type="button" disabled={page >= pages - 1} onClick={() => setPage((p) => p + 1)}>
            Older
          </button>
        </p>
      ) : null}
      {versions !== undefined && versions.length > 1 ? (
        <form
          class="compare-form"
          onSubmit={(e) => {
            e.preventDefault();
            void compare.run(async () => {
              const [view, a, b] = await Promise.all([import('./templates/compare'), load(from), load(to)]);
              setCompare(() => view.Compare);
              setPair([a, b]);
            });
          }}
        >
          <label>
            Compare version
            <select value={from} onChange={(e) => setFrom(Number((e.target as HTMLSelectElement).value))}>
              {versions.map((row) => (
                <option key={row.version} value={row.version}>
                  {row.version}
                </option>
              ))}
            </select>
          </label>
          <label>
            with version
            <select value={to} onChange={(e) => setTo(Number((e.target as HTMLSelectElement).value))}>
              {versions.map((row) => (
                <option key={row.version} value={row.version}>
                  {row.version}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={compare.busy}>
            {compare.busy ? 'Comparing…' : 'Compare'}
          </button>
        </form>
      ) : null}
      <ErrorText error={compare.error} />
      {pair !== null && Compare !== null ? <Compare from={pair[0]} to={pair[1]} /> : null}
    </section>
  );
}

function DeleteTemplate({ name, versions }: { name: string; versions: number }) {
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  return (
    <section class="card danger-zone" aria-labelledby="delete-h">
      <h2 id="delete-h">Delete this template</h2>
      <p class="muted">
        Its {versions === 1 ? 'version goes' : `${versions} versions go`} with it, and a send naming it is refused from
        then on (400, <code>template.name</code>). Messages already sent keep the name and version they used.
      </p>
      {confirming ? (
        <p class="buttons">
          <button
            type="button"
            class="danger"
            disabled={act.busy}
            onClick={() =>
              act.run(async () => {
                const r = await api.DELETE('/v1/templates/{name}', byName(name));
                if (r.error !== undefined) must(r);
                navigate('/templates');
              })
            }
          >
            Yes, delete {name}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </p>
      ) : (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete template…
        </button>
      )}
      <ErrorText error={act.error} />
    </section>
  );
}

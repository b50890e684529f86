import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { escapeAttribute, escapeText } from 'entities';
import { ERROR_DOCS } from '../../core/api-error-docs.js';
import { API_ERROR_TYPES, apiError, ERROR_TABLE, errorBody, type ApiErrorType } from '../../core/api-errors.js';

/**
 * `/docs/errors`: one page explaining every error type, generated from the error table
 * (src/core/api-errors.ts) and its explanations (src/core/api-error-docs.ts), so the page and the
 * API cannot disagree. Each type is a section whose id is the type: the `docs` field of every error
 * body (`/docs/errors#<type>`) lands on it.
 */

const STYLE =
  'body{font:16px/1.55 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1f2328}' +
  'code,pre{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}code{background:#f3f4f6;padding:0 .25em;border-radius:3px}' +
  'pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.75rem 1rem;overflow-x:auto}pre code{background:none;padding:0}' +
  'table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #d0d7de;vertical-align:top}' +
  'section{border-top:1px solid #d0d7de;margin-top:2.5rem;padding-top:.5rem}section:target{background:#fff8c5}' +
  'h2 a{color:inherit;text-decoration:none}h2 small{font-weight:normal;color:#59636e;margin-left:.5rem}' +
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}';

/** The Content-Security-Policy of the page: no script at all, only its own stylesheet (by hash). */
export const ERRORS_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * Text with `code` spans as HTML: the explanations use backticks and nothing else of Markdown,
 * which is why this is a line here rather than a Markdown library.
 */
function prose(text: string): string {
  return escapeText(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ''}`.trim();
}

/** The types in the order of the page: by HTTP status, then as listed in API_ERROR_TYPES. */
function ordered(): ApiErrorType[] {
  return [...API_ERROR_TYPES].sort((a, b) => ERROR_TABLE[a].status - ERROR_TABLE[b].status);
}

function section(type: ApiErrorType): string {
  const doc = ERROR_DOCS[type];
  const spec = ERROR_TABLE[type];
  const body = errorBody(apiError(type, doc.example.message, doc.example.field));
  const example = `HTTP/1.1 ${statusLine(spec.status)}\nContent-Type: application/json; charset=utf-8\n\n${JSON.stringify(body, null, 2)}`;
  const id = escapeAttribute(type);
  return `<section id="${id}">
<h2><a href="#${id}"><code>${escapeText(type)}</code></a><small>${escapeText(statusLine(spec.status))} · ${escapeText(doc.title)}</small></h2>
<dl>
<dt>Cause</dt><dd>${prose(doc.cause)}</dd>
<dt>What to do</dt><dd>${prose(doc.remedy)}</dd>
<dt>Retry</dt><dd>${doc.retry ? 'The same request may succeed later; retry it unchanged, after <code>Retry-After</code> when given.' : 'Sending the same request again gets the same answer: change it first.'}</dd>
<dt>SMTP relay</dt><dd>${doc.relay ? `The relay answers the same refusal with <code>${spec.smtp.code} ${escapeText(spec.smtp.enhanced)}</code>.` : 'An HTTP answer only; the relay never gives it.'}</dd>
</dl>
<pre><code>${escapeText(example)}</code></pre>
</section>`;
}

/** The whole page. */
export function errorsPage(): string {
  const rows = ordered()
    .map(
      (t) =>
        `<tr><td>${ERROR_TABLE[t].status}</td><td><a href="#${escapeAttribute(t)}"><code>${escapeText(t)}</code></a></td><td>${prose(ERROR_DOCS[t].brief)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Errors · Posthorn API</title>
<style>${STYLE}</style>
</head><body>
<p><a href="/docs">API reference</a> · <a href="/v1/openapi.json">OpenAPI document</a></p>
<h1>Errors</h1>
<p>Every refusal of the Posthorn API has the same JSON body. <code>type</code> is one of the types below and is what a client should branch on; <code>message</code> says what is wrong in words a person can act on and may change between versions; <code>field</code>, when present, names the input at fault; <code>docs</code> links to the type’s section on this page.</p>
<pre><code>${escapeText('{"error": {"type": "…", "message": "…", "field": "…", "docs": "/docs/errors#<type>"}}')}</code></pre>
<p>A <code>Retry-After</code> header, in whole seconds, comes with the answers that are worth retrying after a wait (<code>429</code>, <code>503</code>).</p>
<table><thead><tr><th>Status</th><th>Type</th><th>Meaning</th></tr></thead><tbody>
${rows}
</tbody></table>
${ordered().map(section).join('\n')}
</body></html>
`;
}

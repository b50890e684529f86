import { asApiError, authHeaders, noteStatus, type ApiError } from './api';

/** Bytes sent or received so far, and the whole when it is known (0 when not). */
export interface Progress {
  loaded: number;
  total: number;
}

/** The API's error from an answer's body, or one saying what the status was. */
function errorFrom(status: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): said by its status below.
  }
  if (typeof body === 'object' && body !== null && 'error' in body) return asApiError(body);
  return { type: 'internal_error', message: `the server answered HTTP ${status}`, docs: '' };
}

/**
 * POSTs a file to a `/v1` route with XMLHttpRequest rather than the typed client: fetch reports
 * no upload progress, and a long import must show how far the upload is. The same credentials as
 * the typed client (authHeaders in api.ts); the session cookie goes with it as with any
 * same-origin request. Resolves with the JSON answer; rejects with the API's error.
 */
export function uploadWithProgress<T>(
  path: string,
  body: Blob,
  contentType: string,
  onProgress: (p: Progress) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(authHeaders('POST'))) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('content-type', contentType);
    xhr.setRequestHeader('accept', 'application/json');
    const report = (e: ProgressEvent): void =>
      onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : body.size });
    xhr.upload.addEventListener('progress', report);
    xhr.upload.addEventListener('load', report);
    xhr.addEventListener('load', () => {
      noteStatus(xhr.status);
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(errorFrom(xhr.status, ''));
        }
      } else reject(errorFrom(xhr.status, xhr.responseText));
    });
    const lost = (): void =>
      reject({
        type: 'internal_error',
        message:
          'the connection was lost during the upload; rows the server had already read may be imported: send the file again (rows already there count as already suppressed)',
        docs: '',
      } satisfies ApiError);
    xhr.addEventListener('error', lost);
    xhr.addEventListener('abort', lost);
    xhr.send(body);
  });
}

/** The file name a Content-Disposition header gives, or `fallback`. */
function attachmentName(header: string | null, fallback: string): string {
  const name = /filename="([^"]+)"/i.exec(header ?? '')?.[1];
  return name !== undefined && /^[\w.-]+$/.test(name) ? name : fallback;
}

/**
 * Downloads a `/v1` route's answer as a file. An account token is a header, which a plain link
 * cannot send, so the answer is fetched with it (authHeaders in api.ts), read as it streams in
 * (reporting the bytes so far) and saved through a Blob URL. A session's plain GET needs only its
 * cookie, so a link serves it when no header other than the credential is needed.
 */
export async function downloadAsFile(
  path: string,
  opts: { accept: string; filename: string; onProgress: (bytes: number) => void },
): Promise<void> {
  const res = await fetch(path, {
    credentials: 'same-origin',
    headers: { ...authHeaders('GET'), accept: opts.accept },
  });
  noteStatus(res.status);
  if (!res.ok || res.body === null) throw errorFrom(res.status, await res.text());
  const chunks: BlobPart[] = [];
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    opts.onProgress(bytes);
  }
  const url = URL.createObjectURL(new Blob(chunks, { type: res.headers.get('content-type') ?? opts.accept }));
  const a = document.createElement('a');
  a.href = url;
  a.download = attachmentName(res.headers.get('content-disposition'), opts.filename);
  document.body.append(a);
  a.click();
  a.remove();
  // Hand-written rather than a file-saver library: these few lines are all Chromium, Firefox and
  // Safari need. The browser reads the Blob after this click returns; revoking the URL at once can
  // cut the download short, so it is released a minute later, as file-saving libraries do.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

import { createHash } from 'node:crypto';
import { apiError, type ApiError } from '../core/api-errors.js';
import { controlCharacter } from '../core/text-checks.js';
import { detectMimeType } from '../mime/nodemailer-lib.js';

/** An attachment of a send request after validation (docs/api.md, Attachments). */
export interface Attachment {
  filename: string;
  /** The media type, lower-cased, with any parameters as given (`text/csv; charset=utf-8`). */
  contentType: string;
  /** The Content-ID an html body refers to as `cid:<id>` (RFC 2392), without angle brackets; null when not inline. */
  contentId: string | null;
  /** The bytes as base64 (RFC 4648 §4): standard alphabet, padded, no whitespace. */
  content: string;
  /** Decoded bytes: what counts against the 10 MiB limit. */
  size: number;
  /**
   * SHA-256 of `content`, for the Idempotency-Key fingerprint: computed here, on the offload thread
   * for a large body, so the pipeline's thread hashes a few dozen bytes instead of megabytes.
   */
  digest: string;
}

/** At most this many attachments per message (docs/api.md, Attachments). */
export const MAX_ATTACHMENTS = 100;
const MAX_FILENAME = 255;
const MAX_CONTENT_ID = 200;
const KEYS = new Set(['filename', 'content', 'content_type', 'content_id']);

/**
 * File name extensions refused as executable or otherwise dangerous: what the large mailbox
 * providers refuse to deliver or strip (programs, scripts, installers, shortcuts, disk images that
 * carry them), so a message with one would be lost at the receiver anyway. The list is documented
 * in docs/api.md (Attachments); compared case-insensitively on the last extension, after the
 * trailing dots and spaces Windows ignores.
 */
export const DANGEROUS_EXTENSIONS: readonly string[] = [
  'ade', 'adp', 'apk', 'app', 'application', 'appx', 'appxbundle', 'bat', 'cab', 'chm', 'cmd', 'com',
  'cpl', 'diagcab', 'diagcfg', 'diagpack', 'dll', 'dmg', 'ex_', 'exe', 'gadget', 'hta', 'img', 'inf',
  'ins', 'iso', 'isp', 'jar', 'jnlp', 'js', 'jse', 'lib', 'lnk', 'mde', 'mjs', 'msc', 'msh', 'msi',
  'msix', 'msixbundle', 'msp', 'mst', 'nsh', 'pif', 'ps1', 'ps1xml', 'ps2', 'psc1', 'psc2', 'psd1',
  'psm1', 'reg', 'scf', 'scr', 'sct', 'shb', 'sys', 'vb', 'vbe', 'vbs', 'vhd', 'vhdx', 'vxd', 'ws',
  'wsc', 'wsf', 'wsh', 'xll',
]; // prettier-ignore
const DANGEROUS_EXTENSION_SET = new Set(DANGEROUS_EXTENSIONS);

/**
 * Media types refused for the same reason, whatever the file name: Windows and Java programs,
 * installers and scripts (docs/api.md, Attachments).
 */
export const DANGEROUS_TYPES: readonly string[] = [
  'application/x-msdownload',
  'application/x-msdos-program',
  'application/x-dosexec',
  'application/x-executable',
  'application/vnd.microsoft.portable-executable',
  'application/x-ms-installer',
  'application/x-msi',
  'application/x-ms-shortcut',
  'application/x-ms-application',
  'application/x-bat',
  'application/hta',
  'application/java-archive',
  'application/x-java-archive',
  'application/x-java-jnlp-file',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/javascript',
  'text/ecmascript',
  'text/vbscript',
  'application/x-vbscript',
  'application/x-powershell',
];
const DANGEROUS_TYPE_SET = new Set(DANGEROUS_TYPES);

// RFC 2045 §5.1: type "/" subtype, each a token, then `; attribute=value` parameters (a token or a
// quoted-string).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(
  `^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\\\r\\n]|\\\\.)*"))*)[ \\t]*$`,
);
// RFC 5322 §3.2.3 dot-atom text and `@`: what an id-left@id-right of a msg-id (RFC 5322 §3.6.4)
// and the cid: URL of RFC 2392 hold without escaping.
const CONTENT_ID = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.@-]+$/;

const invalid = (field: string, message: string): ApiError => apiError('invalid_request', message, field);

/** The extension of `filename` as Windows reads it: after the last dot, trailing dots and spaces ignored. */
function extension(filename: string): string {
  const name = filename.replace(/[. ]+$/, '');
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The last four characters of base64 text: two to four of the alphabet, padded with `=` (RFC 4648 §4). */
const LAST_QUANTUM = /^[A-Za-z0-9+/]{2}(?:[A-Za-z0-9+/]{2}|[A-Za-z0-9+/]=|==)$/;

/**
 * Checks base64 text (RFC 4648 §4) and returns it canonical: whitespace (line breaks of MIME-style
 * base64) dropped, padding added when left out. Buffer.from(…, 'base64') silently skips what is
 * not base64 (and takes base64url's - and _), so it cannot tell a damaged file from a good one by
 * itself; but re-encoding what it decoded gives back exactly the text only when every character
 * was base64 in its place. That round trip runs in native code, five times faster than a regular
 * expression over the text (1.5 ms for the base64 of 100 KB). The last quantum is checked on its own, as its
 * unused bits need not be zero (RFC 4648 §3.5).
 */
function canonicalBase64(text: string): { base64: string; size: number } | { error: string } {
  const checked = roundTrip(text);
  if (checked !== null) return checked;
  // Line breaks (MIME-style base64) are the one thing dropped: the decoder skipped them, so the
  // round trip failed; check again without them.
  const s = text.replace(/[\t\n\r ]+/g, '');
  return (s !== text ? roundTrip(s) : null) ?? { error: base64Error(text, s) };
}

/** `s` canonical (padding added when left out) with its decoded size, or null when it is not base64. */
function roundTrip(s: string): { base64: string; size: number } | null {
  const padded = s.endsWith('=');
  if (padded ? s.length % 4 !== 0 : s.length % 4 === 1) return null;
  const base64 = padded || s.length % 4 === 0 ? s : s + '='.repeat(4 - (s.length % 4));
  if (base64 === '') return { base64, size: 0 };
  const bytes = Buffer.from(base64, 'base64');
  const again = bytes.toString('base64');
  if (
    again.length !== base64.length ||
    again.slice(0, -4) !== base64.slice(0, -4) ||
    !LAST_QUANTUM.test(base64.slice(-4))
  )
    return null;
  return { base64, size: bytes.length };
}

/** Why `text` (`s` without its whitespace) is not base64, in words the caller can act on. */
function base64Error(text: string, s: string): string {
  const bad = /[^A-Za-z0-9+/=\t\n\r ]/.exec(text);
  if (bad !== null) {
    const hint = bad[0] === '-' || bad[0] === '_' ? ' (base64url is not accepted: use + and / instead of - and _)' : '';
    return `holds ${JSON.stringify(bad[0])} at position ${bad.index + 1}, which is not base64 (RFC 4648 §4)${hint}`;
  }
  const lengthOk = s.endsWith('=') ? s.length % 4 === 0 : s.length % 4 !== 1;
  if (!lengthOk && !/=[^=]/.test(s))
    return `is not base64 (RFC 4648 §4): ${s.length} characters cannot encode whole bytes`;
  return 'has = padding other than one or two at its end; it is not base64 (RFC 4648 §4)';
}

function validateOne(input: unknown, i: number, contentIds: Set<string>): Attachment | ApiError {
  const at = `attachments[${i}]`;
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return invalid(at, `${at} must be an object with filename and content`);
  const a = input as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (!KEYS.has(key))
      return invalid(
        `${at}.${key}`,
        `unknown field ${at}.${key}; expected filename, content, content_type, content_id`,
      );
  }
  const filename = a.filename;
  if (typeof filename !== 'string')
    return invalid(
      `${at}.filename`,
      filename === undefined ? `${at}.filename is required` : `${at}.filename must be a string`,
    );
  if (filename.trim() === '' || filename.length > MAX_FILENAME)
    return invalid(`${at}.filename`, `${at}.filename must be 1 to ${MAX_FILENAME} characters, not blank`);
  const control = controlCharacter(filename, false);
  if (control !== null)
    return invalid(`${at}.filename`, `${at}.filename must not contain control characters; found ${control}`);
  if (/[/\\]/.test(filename))
    return invalid(`${at}.filename`, `${at}.filename must be a file name without a path (no / or \\)`);
  const ext = extension(filename);
  if (DANGEROUS_EXTENSION_SET.has(ext))
    return invalid(
      `${at}.filename`,
      `${at}.filename "${filename}": .${ext} files are executable or otherwise dangerous and are not sent (docs/api.md, Attachments)`,
    );

  let contentType: string;
  if (a.content_type === undefined || a.content_type === null) {
    // From the extension; a message or multipart type is never inferred, since its body could not be
    // base64 (RFC 2046 §5.2.1) or would be read as MIME structure.
    const detected = detectMimeType(filename).toLowerCase();
    contentType = /^(multipart|message)\//.test(detected) ? 'application/octet-stream' : detected;
  } else {
    if (typeof a.content_type !== 'string')
      return invalid(`${at}.content_type`, `${at}.content_type must be a string such as application/pdf`);
    const m = MEDIA_TYPE.exec(a.content_type.trim());
    if (m === null || a.content_type.length > 200)
      return invalid(
        `${at}.content_type`,
        `${at}.content_type "${a.content_type}" is not a media type (type/subtype, RFC 2045 §5.1) of at most 200 characters`,
      );
    const type = `${m[1]}/${m[2]}`.toLowerCase();
    if (/^(multipart|message)\//.test(type))
      return invalid(
        `${at}.content_type`,
        `${at}.content_type ${type} cannot be an attachment's type here; send it as application/octet-stream`,
      );
    if (DANGEROUS_TYPE_SET.has(type))
      return invalid(
        `${at}.content_type`,
        `${at}.content_type ${type} is executable or otherwise dangerous and is not sent (docs/api.md, Attachments)`,
      );
    contentType = `${type}${m[3] ?? ''}`;
  }

  let contentId: string | null = null;
  if (a.content_id !== undefined && a.content_id !== null) {
    if (typeof a.content_id !== 'string' || !CONTENT_ID.test(a.content_id) || a.content_id.length > MAX_CONTENT_ID)
      return invalid(
        `${at}.content_id`,
        `${at}.content_id must be 1 to ${MAX_CONTENT_ID} characters of letters, digits, ${"!#$%&'*+/=?^_`{|}~.@-"} (such as logo@example.com), without angle brackets; the html refers to it as cid:<content_id>`,
      );
    const key = a.content_id.toLowerCase();
    if (contentIds.has(key))
      return invalid(`${at}.content_id`, `${at}.content_id "${a.content_id}" is given to another attachment too`);
    contentIds.add(key);
    contentId = a.content_id;
  }

  if (typeof a.content !== 'string')
    return invalid(
      `${at}.content`,
      a.content === undefined
        ? `${at}.content is required (the file, base64)`
        : `${at}.content must be a base64 string`,
    );
  const decoded = canonicalBase64(a.content);
  if ('error' in decoded) return invalid(`${at}.content`, `${at}.content ${decoded.error}`);
  return {
    filename,
    contentType,
    contentId,
    content: decoded.base64,
    size: decoded.size,
    digest: createHash('sha256').update(decoded.base64).digest('hex'),
  };
}

/** Validates the `attachments` array of a send request; the error names `attachments[i].<key>`. */
export function validateAttachments(input: unknown): Attachment[] | ApiError {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) return invalid('attachments', 'attachments must be an array of objects');
  if (input.length > MAX_ATTACHMENTS)
    return invalid('attachments', `attachments may hold at most ${MAX_ATTACHMENTS} files, got ${input.length}`);
  const contentIds = new Set<string>();
  const out: Attachment[] = [];
  for (const [i, item] of input.entries()) {
    const a = validateOne(item, i, contentIds);
    if ('type' in a) return a;
    out.push(a);
  }
  return out;
}

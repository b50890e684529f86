import { renderMime, textFromHtml } from '../mime/render-mime.js';
import type { MessageDraft } from '../mime/message-draft.js';
import { rewriteHtml, type HtmlTracking } from './html.js';
import { trackMimeHtml } from './mime.js';
import { makeToken } from './token.js';

/** What a message asked for (messages.track_opens / track_clicks / unsubscribe). */
export interface TrackingFlags {
  opens: boolean;
  clicks: boolean;
  unsubscribe: boolean;
}

/** True when the message carries per-recipient URLs, so it goes out one recipient per SMTP transaction. */
export const isPersonalized = (f: TrackingFlags): boolean => f.opens || f.clicks || f.unsubscribe;

/**
 * A link longer than this (UTF-8 bytes) is left untracked: its token would push the request line
 * toward Node's 16 KiB header limit and some proxies' 8 KiB one, and the link would break.
 */
export const MAX_TRACKED_URL_BYTES = 6000;

/** The tracking URLs of one recipient. */
export interface TrackingUrls {
  pixel: string;
  unsubscribe: string;
  link(url: string): string | null;
}

/**
 * The open, unsubscribe and click URLs for `recipientId` under `publicUrl` (no trailing slash).
 * A click URL depends only on the recipient and the link, so each distinct link is signed once per
 * rendering: a large message repeating one link thousands of times makes one token, not thousands
 * (an HMAC and a copy of the URL each), and its rewritten html shares that one string.
 */
export function trackingUrls(secret: Buffer, publicUrl: string, recipientId: string): TrackingUrls {
  const own = [`${publicUrl}/t/`, `${publicUrl}/u/`].map((p) => p.toLowerCase());
  const clicks = new Map<string, string | null>();
  const click = (url: string): string | null => {
    // Links already on our own tracking and unsubscribe paths are not wrapped a second time.
    if (own.some((p) => url.toLowerCase().startsWith(p))) return null;
    if (Buffer.byteLength(url, 'utf8') > MAX_TRACKED_URL_BYTES) return null;
    return `${publicUrl}/t/c/${makeToken(secret, 'click', recipientId, url)}`;
  };
  return {
    pixel: `${publicUrl}/t/o/${makeToken(secret, 'open', recipientId)}`,
    unsubscribe: `${publicUrl}/u/${makeToken(secret, 'unsubscribe', recipientId)}`,
    link(url) {
      let tracked = clicks.get(url);
      if (tracked === undefined) {
        tracked = click(url);
        clicks.set(url, tracked);
      }
      return tracked;
    },
  };
}

/** RFC 8058 §3.1: an https URI in List-Unsubscribe and the One-Click key in List-Unsubscribe-Post. */
export function unsubscribeHeaders(url: string): [string, string][] {
  return [
    ['List-Unsubscribe', `<${url}>`],
    ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'],
  ];
}

/**
 * The message for one recipient, before DKIM signing (so the signature covers the
 * List-Unsubscribe fields, RFC 8058 §4): the pixel and rewritten links in its html, the
 * unsubscribe fields in its header. A composed message's text part keeps the original links
 * (generated from the untracked html when it was not given). A relayed message (`mime`, latin1)
 * keeps its own bytes except its html parts (mime.ts) and the prepended fields. With `room`, the
 * message starts that many bytes into the returned buffer (mime/render-mime.ts, joinPieces).
 */
export function renderTracked(
  message: { mime: string | null; draft: MessageDraft | null },
  flags: TrackingFlags,
  urls: TrackingUrls,
  room = 0,
): Buffer {
  const html: HtmlTracking = {
    pixelUrl: flags.opens ? urls.pixel : null,
    link: flags.clicks ? (u) => urls.link(u) : null,
  };
  const tracksHtml = flags.opens || flags.clicks;
  if (message.mime !== null) {
    let s = tracksHtml ? trackMimeHtml(message.mime, html) : message.mime;
    if (flags.unsubscribe)
      s =
        unsubscribeHeaders(urls.unsubscribe)
          .map(([n, v]) => `${n}: ${v}\r\n`)
          .join('') + s;
    return latin1WithRoom(s, room);
  }
  const d = message.draft as MessageDraft;
  const text = d.text ?? (d.html !== null ? textFromHtml(d.html) : '');
  return renderMime(
    {
      ...d,
      text,
      html: d.html !== null && tracksHtml ? rewriteHtml(d.html, html) : d.html,
      headers: flags.unsubscribe ? [...d.headers, ...unsubscribeHeaders(urls.unsubscribe)] : d.headers,
    },
    room,
  );
}

/** A latin1 message as bytes after `room` free bytes, in a buffer of its own (transferable, as renderMime's). */
export function latin1WithRoom(s: string, room: number): Buffer {
  if (room === 0) return Buffer.from(s, 'latin1');
  const out = Buffer.allocUnsafeSlow(room + s.length);
  out.write(s, room, 'latin1');
  return out;
}

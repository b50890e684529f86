import { Tokenizer } from 'htmlparser2';
import { decodeHTMLAttribute, escapeAttribute } from 'entities';

/** What to do to one html body. */
export interface HtmlTracking {
  /** The open pixel's URL, or null for no pixel. */
  pixelUrl: string | null;
  /** The tracked URL for an original link URL, or null to leave that link alone; null for no click tracking. */
  link: ((url: string) => string | null) | null;
  /**
   * Turns a raw slice of the html into text before entities are decoded. The identity for an html
   * string; for a MIME part kept as latin1 bytes, the part's charset decoder.
   */
  decodeText?: (raw: string) => string;
}

/** Elements whose href is a followed link (HTML Living Standard §4.6.1, hyperlinks). */
const LINK_ELEMENTS = new Set(['a', 'area']);

/**
 * The URL a browser would follow for an href value: entities decoded the way attribute values are
 * (HTML §13.2.5.73, so `&amp;` is `&` and `&copy=1` stays as written), leading and trailing C0
 * controls and spaces stripped and ASCII tab and newline removed (WHATWG URL, basic URL parser).
 */
export function hrefUrl(decoded: string): string {
  let start = 0;
  let end = decoded.length;
  while (start < end && decoded.charCodeAt(start) <= 0x20) start++;
  while (end > start && decoded.charCodeAt(end - 1) <= 0x20) end--;
  return decoded.slice(start, end).replace(/[\t\n\r]/g, '');
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The html with the open pixel inserted before `</body>` (else `</html>`, else at the end) and each
 * http(s) href of an a/area element replaced by what `link` returns. Tokenized with htmlparser2 and
 * edited by source offsets, so every other character is unchanged; comments, scripts and styles
 * are not looked into.
 */
export function rewriteHtml(html: string, t: HtmlTracking): string {
  const decodeText = t.decodeText ?? ((s: string) => s);
  const edits: Edit[] = [];
  let tag = '';
  let attr = '';
  let value: { start: number; end: number } | null = null;
  let hrefSeen = false;
  let bodyClose = -1;
  let htmlClose = -1;
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        hrefSeen = false;
      },
      onattribname(start, end) {
        attr = html.slice(start, end).toLowerCase();
        value = null;
      },
      onattribdata(start, end) {
        value = value === null ? { start, end } : { start: value.start, end };
      },
      onattribend(quote) {
        const v = value as { start: number; end: number } | null;
        // Only the first href counts, as a browser reads it (HTML §13.2.5.33: duplicates are dropped).
        if (attr !== 'href' || !LINK_ELEMENTS.has(tag) || hrefSeen) return;
        hrefSeen = true;
        if (t.link === null || v === null) return;
        const url = hrefUrl(decodeHTMLAttribute(decodeText(html.slice(v.start, v.end))));
        if (!/^https?:/i.test(url)) return;
        const tracked = t.link(url);
        if (tracked === null) return;
        // QuoteType.Unquoted is 1 in htmlparser2: the new value gets quotes of its own.
        const text = quote === 1 ? `"${escapeAttribute(tracked)}"` : escapeAttribute(tracked);
        edits.push({ start: v.start, end: v.end, text });
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        const lt = html.lastIndexOf('<', start);
        if (name === 'body') bodyClose = lt;
        else if (name === 'html') htmlClose = lt;
      },
      onopentagend() {},
      onselfclosingtag() {},
      ontext() {},
      ontextentity() {},
      onattribentity() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  if (t.pixelUrl !== null) {
    const at = bodyClose !== -1 ? bodyClose : htmlClose !== -1 ? htmlClose : html.length;
    edits.push({ start: at, end: at, text: pixelTag(t.pixelUrl) });
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const e of edits) {
    out += html.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + html.slice(pos);
}

/** A 1×1 image that takes no room and has no alt text to show when images are blocked. */
export function pixelTag(url: string): string {
  return `<img src="${escapeAttribute(url)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;
}

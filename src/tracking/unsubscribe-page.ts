import { escapeText } from 'entities';

/** The small pages of the unsubscribe and click paths: plain HTML, no script, no external resource. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeText(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.5rem 1.25rem;cursor:pointer}</style>
</head><body><h1>${escapeText(title)}</h1>${body}</body></html>
`;
}

/** Headers every page gets: not cached, not framed, no scripts, forms only to us. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

/** GET /u/<token>: asks before it acts, so a link scanner that follows the URL changes nothing. */
export function confirmPage(address: string): string {
  return page(
    'Unsubscribe',
    `<p>Stop sending mail to <strong>${escapeText(address)}</strong>?</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><input type="hidden" name="via" value="page"><button type="submit">Unsubscribe</button></form>`,
  );
}

/** After the POST: the same words for a first and a repeated unsubscribe. */
export function unsubscribedPage(address: string): string {
  return page('Unsubscribed', `<p><strong>${escapeText(address)}</strong> will get no more mail from this sender.</p>`);
}

/** A token that is not ours, or was changed: nothing was done. */
export function invalidLinkPage(what: 'unsubscribe' | 'click'): string {
  return page(
    'This link is not valid',
    what === 'unsubscribe'
      ? '<p>This unsubscribe link is incomplete or was changed, so nothing was done. Use the link from the message itself, copied whole.</p>'
      : '<p>This link is incomplete or was changed, so it leads nowhere. Use the link from the message itself, copied whole.</p>',
  );
}

import { isIP } from 'node:net';
import { RefusedError } from '../core/refused-error.js';
import { isPublicAddress } from './safe-address.js';

/**
 * Names that mean this machine: `localhost` and its subdomains (RFC 6761 §6.3) and the loopback
 * names common /etc/hosts files define (Debian's ip6-localhost and ip6-loopback, Red Hat's
 * localhost.localdomain, localhost6 and localhost6.localdomain6). The URL parser has already
 * lower-cased the host and turned percent-escapes and IPv4 spellings such as 127.1, 0x7f.1 or
 * 2130706433 into their plain form (WHATWG URL host parsing), which the address check then covers.
 */
const LOOPBACK_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'localhost6',
  'localhost6.localdomain6',
  'ip6-localhost',
  'ip6-loopback',
]);

/** Longest URL accepted: well past any real endpoint, short enough for logs and the CLI. */
const MAX_URL_LENGTH = 2048;

function invalidUrl(message: string): RefusedError {
  return new RefusedError('invalid', message, { field: 'url' });
}

/**
 * Checks a webhook URL when it is set (`posthorn webhook set`) and returns it normalised; throws a
 * RefusedError (`invalid`, field `url`) naming the problem. Without `allowPrivate`: https only (the
 * body carries recipient addresses), and a host that is an IP literal must be public and may not be
 * `localhost` (RFC 6761 §6.3). A host name is not resolved here: its addresses are checked at every connect instead
 * (post-webhook.ts), since DNS may answer differently by then.
 */
export function checkWebhookUrl(text: string, allowPrivate: boolean): string {
  if (text.length > MAX_URL_LENGTH)
    throw invalidUrl(`webhook URL is ${text.length} characters long; the limit is ${MAX_URL_LENGTH}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidUrl(`webhook URL "${text}" is not an absolute URL (e.g. https://hooks.example.com/posthorn)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidUrl(`webhook URL must use https, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.hash !== '') throw invalidUrl('webhook URL must not have a #fragment (it is never sent to the server)');
  if (allowPrivate) return url.toString();
  if (url.protocol !== 'https:') {
    throw invalidUrl(
      'webhook URL must use https (http is allowed only with POSTHORN_WEBHOOK_ALLOW_PRIVATE=1, for local development)',
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !isPublicAddress(host)) {
    throw invalidUrl(
      `webhook URL host ${host} is not a public address (loopback, private, link-local and metadata addresses are refused unless POSTHORN_WEBHOOK_ALLOW_PRIVATE=1)`,
    );
  }
  if (isIP(host) !== 0) return url.toString();
  // One trailing dot is the absolute form of the same name (RFC 1034 §3.1): `localhost.` is
  // localhost. More than one, or an empty label, is no host name at all.
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === '' || name.split('.').some((label) => label === '')) {
    throw invalidUrl(`webhook URL host ${host} is not a valid host name (an empty label between dots)`);
  }
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) {
    throw invalidUrl(`webhook URL host ${host} is loopback (refused unless POSTHORN_WEBHOOK_ALLOW_PRIVATE=1)`);
  }
  return url.toString();
}

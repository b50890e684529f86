import { isIP } from 'node:net';
import { CommandError } from '../core/command-error.js';
import { isPublicAddress } from './safe-address.js';

/** Longest URL accepted: well past any real endpoint, short enough for logs and the CLI. */
const MAX_URL_LENGTH = 2048;

/**
 * Checks a webhook URL when it is set (`posthorn webhook set`) and returns it normalised; throws a
 * CommandError naming the problem. Without `allowPrivate`: https only (the body carries recipient
 * addresses), and a host that is an IP literal must be public and may not be `localhost` (RFC 6761
 * §6.3). A host name is not resolved here: its addresses are checked at every connect instead
 * (post-webhook.ts), since DNS may answer differently by then.
 */
export function checkWebhookUrl(text: string, allowPrivate: boolean): string {
  if (text.length > MAX_URL_LENGTH) throw new CommandError(`webhook URL is ${text.length} characters long; the limit is ${MAX_URL_LENGTH}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CommandError(`webhook URL "${text}" is not an absolute URL (e.g. https://hooks.example.com/posthorn)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CommandError(`webhook URL must use https, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.hash !== '') throw new CommandError('webhook URL must not have a #fragment (it is never sent to the server)');
  if (allowPrivate) return url.toString();
  if (url.protocol !== 'https:') {
    throw new CommandError('webhook URL must use https (http is allowed only with POSTHORN_WEBHOOK_ALLOW_PRIVATE=1, for local development)');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new CommandError(`webhook URL host ${host} is not a public address (loopback, private, link-local and metadata addresses are refused unless POSTHORN_WEBHOOK_ALLOW_PRIVATE=1)`);
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    throw new CommandError(`webhook URL host ${host} is loopback (refused unless POSTHORN_WEBHOOK_ALLOW_PRIVATE=1)`);
  }
  return url.toString();
}

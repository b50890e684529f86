/**
 * Opens that a machine made rather than a person (docs/tracking.md, What counts as automated):
 * privacy proxies that fetch every image of a message whether or not it is read, and fetches
 * seconds after delivery. Such opens are still recorded, with `automated: true` and the reason, so
 * a consumer decides what to count.
 */

/**
 * A user agent known to fetch images on a reader's behalf, with where that is documented.
 * `prefetch`: it fetches whether or not anyone reads the message (the open is automated);
 * `on_open`: an image cache that fetches when the reader opens the message, hiding the reader's
 * own agent and address (the open is a person's, recorded with the proxy's name).
 */
export interface ProxyAgent {
  reason: string;
  fetches: 'prefetch' | 'on_open';
  match: (userAgent: string) => boolean;
  source: string;
}

/**
 * Outlook (desktop, mobile, Outlook.com) loads images from the reader's own device, so it has no
 * proxy agent to match (https://mailping.pro/research/email-client-protocol-study); its prefetches
 * are caught by the time window below.
 */
export const PROXY_AGENTS: readonly ProxyAgent[] = [
  {
    reason: 'apple_mail_privacy_protection',
    fetches: 'prefetch',
    // MPP fetches every remote image through Apple's proxy with the bare "Mozilla/5.0" agent.
    match: (ua) => ua.trim() === 'Mozilla/5.0',
    source:
      'https://www.suped.com/knowledge/email-deliverability/technical/what-methods-do-esps-and-smtp-providers-use-to-identify-apple-mpp-and-googleproxyimages',
  },
  {
    reason: 'gmail_prefetch',
    fetches: 'prefetch',
    // Gmail's prefetch for a signed-in session, before the message is shown (SparkPost's is_prefetched).
    match: (ua) => ua.includes('Edge/12.246 Mozilla/5.0'),
    source: 'https://bird.com/blog/gmail-prefetching-images',
  },
  {
    reason: 'google_image_proxy',
    fetches: 'on_open',
    // Gmail caches images through its proxy when a message is opened; the reader's own agent is
    // hidden. A real open (counting it as automated would hide most Gmail readers).
    match: (ua) => ua.includes('GoogleImageProxy'),
    source: 'https://www.scientiamobile.com/what-is-google-image-proxy/',
  },
  {
    reason: 'yahoo_mail_proxy',
    fetches: 'on_open',
    // Yahoo and AOL cache images through their proxy: "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html".
    match: (ua) => ua.includes('YahooMailProxy'),
    source: 'https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
  },
];

/** An open this soon after the `delivered` event is a machine's: no reader opens mail that fast. */
export const PREFETCH_WINDOW_MS = 5_000;

/** Whether an open looks automated, and why; `proxy` names an image cache that fetched on the reader's open. */
export function classifyOpen(
  userAgent: string,
  openedAt: number,
  deliveredAt: number | null,
): { automated: boolean; reason?: string; proxy?: string } {
  const proxy = PROXY_AGENTS.find((p) => p.match(userAgent));
  if (proxy?.fetches === 'prefetch') return { automated: true, reason: proxy.reason };
  const via = proxy ? { proxy: proxy.reason } : {};
  if (userAgent.trim() === '') return { automated: true, reason: 'no_user_agent' };
  if (deliveredAt !== null && openedAt - deliveredAt < PREFETCH_WINDOW_MS)
    return { automated: true, reason: 'seconds_after_delivery', ...via };
  return { automated: false, ...via };
}

import { providerOf, type Provider } from './providers.js';

/**
 * The mailbox provider behind a destination host (an MX host, or the recipient domain when no MX
 * answered): the one place the delivery engine maps hosts to providers, for provider holds
 * (deliver-group.ts), the queue's `provider` column (record-outcomes.ts) and the metrics' label
 * (delivery-worker.ts), so a finer classifier replaces this function alone.
 */
export function destinationProvider(host: string | null | undefined): Provider {
  return providerOf(host);
}

/** The host an attempt's outcome details name: the MX host that replied, else the first one tried. */
export function outcomeHost(details: Record<string, unknown>): string | undefined {
  if (typeof details.mx_host === 'string') return details.mx_host;
  const tried = details.hosts_tried;
  return Array.isArray(tried) && typeof tried[0] === 'string' ? tried[0] : undefined;
}

/** The provider of an attempt's outcome; the sandbox mailbox is no provider, so its mail counts by the recipient's domain. */
export function outcomeProvider(details: Record<string, unknown>, recipientDomain: string): Provider {
  const host = outcomeHost(details);
  return destinationProvider(host === undefined || host === 'sandbox' ? recipientDomain : host);
}

import type { Deps } from '../deps.js';
import { startWebhookDispatcher, type WebhookDispatcher } from './webhook-dispatcher.js';

/** How long a stopping dispatcher waits for POSTs in flight before aborting them. */
const STOP_TIMEOUT_MS = 5_000;

/** Starts the `webhooks` role: one dispatcher polling the outbox. */
export function startWebhooks(deps: Deps): { dispatcher: WebhookDispatcher; stop(): Promise<void> } {
  // A short poll keeps the event→POST delay well under a second at the cost of one
  // indexed query per 50 ms when idle; a busy dispatcher claims again as soon as slots free up.
  const dispatcher = startWebhookDispatcher(deps, { claimBatch: 500, idlePollMs: 50 });
  return { dispatcher, stop: () => dispatcher.stop(STOP_TIMEOUT_MS) };
}

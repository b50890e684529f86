import { createHmac } from 'node:crypto';

/** The three headers a signed webhook POST carries. */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** What one webhook delivery is signed over. */
export interface SignWebhookInput {
  /** The event id; stays the same on every retry so the receiver can deduplicate. */
  id: string;
  /** Unix seconds at the time of this attempt (receivers reject stale timestamps). */
  timestampSeconds: number;
  /** The exact body bytes that will be sent. */
  body: string;
  /** Active secrets (`whsec_…`); during rotation the new and the old one both sign. */
  secrets: string[];
}

const SECRET_PREFIX = 'whsec_';

/**
 * Signs a webhook per the Standard Webhooks specification (docs/webhooks.md, Verifying;
 * https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md,
 * "Signature scheme"): HMAC-SHA256 keyed with the base64-decoded secret after `whsec_`, over
 * `${webhook-id}.${webhook-timestamp}.${body}`, sent as `v1,<base64>`. Several signatures are
 * space-separated and a receiver accepts the message if any one verifies, which is how a
 * rotated secret overlaps with the old one.
 */
export function signWebhook(input: SignWebhookInput): WebhookSignatureHeaders {
  if (input.secrets.length === 0) throw new Error('signWebhook needs at least one secret');
  if (!Number.isSafeInteger(input.timestampSeconds) || input.timestampSeconds < 0) {
    throw new Error(`webhook timestamp must be whole Unix seconds, got ${input.timestampSeconds}`);
  }
  const timestamp = String(input.timestampSeconds);
  const signedContent = `${input.id}.${timestamp}.${input.body}`;
  const signatures = input.secrets.map(
    (secret) => `v1,${createHmac('sha256', secretKey(secret)).update(signedContent).digest('base64')}`,
  );
  return { 'webhook-id': input.id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}

/** The key bytes of a `whsec_` secret (the spec's key is the base64 part, decoded). */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('webhook secret is empty');
  return key;
}

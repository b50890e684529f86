/** Bytes of key material in a webhook signing secret (Standard Webhooks suggests 24 to 64). */
const SECRET_BYTES = 32;

/**
 * A new webhook signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random
 * bytes (docs/webhooks.md). `random` is the injected source (crypto.randomBytes in production).
 */
export function newWebhookSecret(random: (n: number) => Buffer): string {
  const bytes = random(SECRET_BYTES);
  if (bytes.length !== SECRET_BYTES)
    throw new Error(`random source returned ${bytes.length} bytes, wanted ${SECRET_BYTES}`);
  return `whsec_${bytes.toString('base64')}`;
}

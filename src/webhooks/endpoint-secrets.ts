/** One signing secret of an endpoint as stored in webhook_endpoints.secrets (a JSON array). */
export interface StoredSecret {
  secret: string;
  created_at: number;
  /** Null while it is the current secret; set by a rotation to the end of the overlap. */
  expires_at: number | null;
}

/** Reads the stored JSON array; anything malformed is a bug or damage, so it throws with what it found. */
export function parseSecrets(text: string): StoredSecret[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) throw new Error('webhook_endpoints.secrets is not a JSON array');
  return value.map((s: unknown) => {
    const o = s as Partial<StoredSecret>;
    if (
      typeof o?.secret !== 'string' ||
      typeof o.created_at !== 'number' ||
      (o.expires_at !== null && typeof o.expires_at !== 'number')
    ) {
      throw new Error('webhook_endpoints.secrets holds an entry that is not {secret, created_at, expires_at}');
    }
    return { secret: o.secret, created_at: o.created_at, expires_at: o.expires_at };
  });
}

/** The secrets that sign at `now`, newest first: the current one and any rotated one still inside its overlap. */
export function signingSecrets(secrets: readonly StoredSecret[], now: number): string[] {
  return secrets
    .filter((s) => s.expires_at === null || s.expires_at > now)
    .sort((a, b) => b.created_at - a.created_at)
    .map((s) => s.secret);
}

/**
 * The list after a rotation at `now`: `fresh` becomes the current secret, the previous current one
 * keeps signing until `now + overlapMs` (Standard Webhooks allows several signatures, so a receiver
 * that has not switched yet still verifies), and secrets whose overlap already ended are dropped.
 */
export function rotateSecrets(
  secrets: readonly StoredSecret[],
  fresh: string,
  now: number,
  overlapMs: number,
): StoredSecret[] {
  const kept = secrets
    .filter((s) => s.expires_at === null || s.expires_at > now)
    .map((s) => (s.expires_at === null ? { ...s, expires_at: now + overlapMs } : s));
  return [{ secret: fresh, created_at: now, expires_at: null }, ...kept];
}

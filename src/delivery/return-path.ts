import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps.js';
import { storedSecret } from '../storage/stored-secret.js';

/** The HMAC key for return-path tokens (settings `return_path_secret`). */
export function returnPathSecret(deps: Pick<Deps, 'db' | 'ids' | 'config'>): Promise<Buffer> {
  return storedSecret(deps, 'return_path_secret');
}

function mac(secret: Buffer, subject: string): string {
  return createHmac('sha256', secret).update(subject).digest('base64url').slice(0, 12).toLowerCase().replace(/[^a-z0-9]/g, 'x');
}

/**
 * MAIL FROM on the aligned bounce domain (spec 2.4), carrying a signed token that names what a
 * bounce to it is about: the recipient when the transaction has one, else the message (its DSN
 * then names the recipients, RFC 3464 §2.3.2). A per-recipient address in every transaction would
 * force one transaction per recipient, against issue 02's 100 per transaction.
 * Shape: `b-<id in lower case>-<12-char HMAC>@bounce.<domain>`, well under 64 octets.
 */
export function makeReturnPath(secret: Buffer, subjectId: string, domain: string): string {
  const token = subjectId.toLowerCase().replace('_', '');
  return `b-${token}-${mac(secret, token)}@bounce.${domain}`;
}

/** Reads a return path back: the `rcp_…`/`msg_…` id it names, or null when it is not ours or the token is forged. */
export function readReturnPath(secret: Buffer, address: string): string | null {
  const m = /^b-((?:rcp|msg)[0-9a-z]{26})-([0-9a-z]{12})@bounce\./i.exec(address.trim());
  if (!m) return null;
  const token = (m[1] as string).toLowerCase();
  const expected = Buffer.from(mac(secret, token));
  const given = Buffer.from((m[2] as string).toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return `${token.slice(0, 3)}_${token.slice(3).toUpperCase()}`;
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps.js';
import { storedSecret } from '../secrets/stored-secret.js';

/** The HMAC key for return-path tokens (settings `return_path_secret`). */
export function returnPathSecret(deps: Pick<Deps, 'db' | 'ids' | 'config'>): Promise<Buffer> {
  return storedSecret(deps, 'return_path_secret');
}

function mac(secret: Buffer, subject: string): string {
  return createHmac('sha256', secret)
    .update(subject)
    .digest('base64url')
    .slice(0, 12)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x');
}

/**
 * MAIL FROM on the aligned bounce domain (`bounce.<domain>`, docs/architecture.md), carrying a
 * signed token that names what a bounce to it is about: the recipient (`rcp_…`) when the
 * transaction has one; for a transaction with several recipients, a group token (`grp_…`, the id of
 * its first recipient) that stands for the message's recipients at that recipient's domain (their
 * DSN then names them, RFC 3464 §2.3.2). A per-recipient address in every transaction would force
 * one transaction per recipient. Every recipient of a shared transaction sees its group token (the
 * final MTA writes it into Return-Path, RFC 5321 §4.4), so docs/inbound.md (Matching a report to a
 * message) limits what a report with one can do. Messages sent before group tokens carry a message
 * token (`msg_…`), still read, shared the same way. Shape: `b-<id in lower case>-<12-char
 * HMAC>@bounce.<domain>`, well under 64 octets.
 */
export function makeReturnPath(secret: Buffer, subjectId: string, domain: string): string {
  const token = subjectId.toLowerCase().replace('_', '');
  return `b-${token}-${mac(secret, token)}@bounce.${domain}`;
}

/** Reads a return path back: the `rcp_…`/`grp_…`/`msg_…` id it names, or null when it is not ours or the token is forged. */
export function readReturnPath(secret: Buffer, address: string): string | null {
  const m = /^b-((?:rcp|grp|msg)[0-9a-z]{26})-([0-9a-z]{12})@bounce\./i.exec(address.trim());
  if (!m) return null;
  const token = (m[1] as string).toLowerCase();
  const expected = Buffer.from(mac(secret, token));
  const given = Buffer.from((m[2] as string).toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return `${token.slice(0, 3)}_${token.slice(3).toUpperCase()}`;
}

/** The group token's subject for a transaction whose first recipient is `recipientId` (`rcp_X` → `grp_X`). */
export function groupSubject(recipientId: string): string {
  return `grp_${recipientId.slice('rcp_'.length)}`;
}

import type { Kysely } from 'kysely';
import { parseAddress } from '../core/mailbox.js';
import { readToken } from '../feedback/match-report.js';
import type { Database } from '../storage/database.js';

/** The verdict on one RCPT TO of the inbound MX. */
export type RcptVerdict =
  | { ok: true; as: 'return_path' | 'complaint_address' | 'postmaster' }
  | { ok: false; code: number; enhanced: string; message: string };

/** What the RCPT check needs: the domains table, the return-path secret and the configured names. */
export interface RcptContext {
  db: Kysely<Database>;
  secret: Buffer;
  bounceHost: string;
  complaintAddress: string;
}

/** True when `domain` is the bounce host or `bounce.<a domain in the database>`. */
async function isBounceDomain(ctx: RcptContext, domain: string): Promise<boolean> {
  if (domain === ctx.bounceHost.toLowerCase()) return true;
  if (!domain.startsWith('bounce.')) return false;
  const row = await ctx.db
    .selectFrom('domains')
    .select('id')
    .where('name', '=', domain.slice('bounce.'.length))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Decides a RCPT TO of the inbound MX (docs/inbound.md, What the inbound MX accepts): it takes mail
 * only for return paths whose token verifies (`b-…@bounce.<domain>` of a domain Posthorn has, or at
 * the bounce host) and for the complaint address. Anything at another domain is relaying (550
 * 5.7.1, RFC 5321 §3.6.2: an MX that is not the destination must not relay); an unknown or forged
 * local part at one of our bounce domains does not exist (550 5.1.1). `postmaster` at any of them
 * is accepted too: RFC 5321 §4.5.1 requires every SMTP server that delivers mail to take it (it is
 * stored and parsed like any report; a DSN sent there still counts, anything else is kept as an
 * unknown report).
 */
export async function checkInboundRecipient(ctx: RcptContext, address: string): Promise<RcptVerdict> {
  if (address.toLowerCase() === ctx.complaintAddress.toLowerCase()) return { ok: true, as: 'complaint_address' };
  const parsed = parseAddress(address);
  if ('error' in parsed)
    return { ok: false, code: 553, enhanced: '5.1.3', message: `Recipient ${address} ${parsed.error}.` };
  if (!(await isBounceDomain(ctx, parsed.domain))) {
    return {
      ok: false,
      code: 550,
      enhanced: '5.7.1',
      message: `Relaying denied: this server takes only bounces and complaint reports for Posthorn, not mail for ${parsed.domain}.`,
    };
  }
  if (parsed.local.toLowerCase() === 'postmaster') return { ok: true, as: 'postmaster' };
  const token = readToken(ctx.secret, ctx.bounceHost, `${parsed.local}@${parsed.domain}`);
  if (token.id !== null) return { ok: true, as: 'return_path' };
  const why = token.shaped ? 'its return-path token does not verify' : 'it is not a Posthorn return path';
  return { ok: false, code: 550, enhanced: '5.1.1', message: `No such user ${address}: ${why}.` };
}

import type { Kysely } from 'kysely';
import type { Database } from '../storage/database.js';

/**
 * A sandbox message over this many bytes is stored in parts of this size (sandbox_message_parts),
 * one statement each with a turn of the event loop between them, instead of in one statement
 * (docs/security.md, "Connections and memory").
 */
export const SANDBOX_PART_BYTES = 1024 * 1024;

/** How much of a message `sandbox list` reads to find its Subject: the header block, not the whole message. */
export const SANDBOX_HEAD_BYTES = 64 * 1024;

/**
 * The whole bytes of a sandbox mailbox row: its `raw` when it has any, else its parts (a message
 * over SANDBOX_PART_BYTES, see sandbox-transport.ts) concatenated in `seq` order. Every reader of a
 * kept message goes through here.
 */
export async function readSandboxRaw(db: Kysely<Database>, row: { id: string; raw: Buffer }): Promise<Buffer> {
  if (row.raw.length > 0) return row.raw;
  const parts = await db
    .selectFrom('sandbox_message_parts')
    .select('bytes')
    .where('sandbox_message_id', '=', row.id)
    .orderBy('seq')
    .execute();
  return parts.length === 1 ? parts[0]!.bytes : Buffer.concat(parts.map((p) => p.bytes));
}

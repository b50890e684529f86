import { createHash } from 'node:crypto';
import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { renderOffThread, renderStored, type RenderInput } from '../delivery/render-stored.js';
import { OFFLOAD_MIN_BYTES } from '../offload/offload-pool.js';
import { isPersonalized } from '../tracking/render.js';
import { trackingSecret } from '../tracking/secret.js';
import { findMessage, type MessageScope } from './message-view.js';

/** A message's signed source, as one signing produced it. */
export interface MessageSource {
  /** The message as handed to delivery: the DKIM-Signature fields (and Feedback-ID), then the message. */
  raw: Buffer;
  id: string;
  /** The recipients this copy went to (one, for a message with per-recipient tracking). */
  recipients: string[];
  signedAt: number;
}

/**
 * The signed source of message `idText` as delivered (docs/api.md, `GET /v1/messages/{id}/content`):
 * the copy last signed (for `recipient`, the copy last signed for that recipient). Only the
 * fields each signing added are stored (message_signatures: the DKIM-Signature fields and the
 * Feedback-ID); the message is rendered again from its stored body, exactly as delivery renders it
 * (renderStored; rendering is deterministic, mime/render-mime.ts mimeBoundary), and the result
 * must match the SHA-256 stored at signing, or it is not given out as the source. 404 `not_found`
 * once the body is purged (POSTHORN_BODY_RETENTION), before the first signing, and for a send
 * refused before queueing.
 */
export async function messageSource(
  deps: Pick<Deps, 'db' | 'config' | 'ids' | 'log'>,
  scope: MessageScope,
  idText: string,
  recipient?: string,
): Promise<MessageSource> {
  const head = await findMessage(deps, scope, idText);
  const id = head.id;
  if (!head.stored)
    throw new RefusedError(
      'not_found',
      `message ${id} was refused before queueing (see its rejected-by-system events): it has no source`,
      { field: 'id' },
    );
  const m = await deps.db
    .selectFrom('messages')
    .select(['content', 'mime', 'size', 'track_opens', 'track_clicks', 'unsubscribe'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (m.content === null && m.mime === null)
    throw new RefusedError(
      'not_found',
      `the body of message ${id} has been purged: bodies are kept for ${duration(deps.config.bodyRetention)} (POSTHORN_BODY_RETENTION); its events stay for 120 days`,
      { field: 'id' },
    );

  const recipients = await deps.db
    .selectFrom('recipients')
    .select(['id', 'address'])
    .where('message_id', '=', id)
    .orderBy('id')
    .execute();
  let only: string | undefined;
  if (recipient !== undefined) {
    only = recipients.find((r) => r.address.toLowerCase() === recipient.toLowerCase())?.id;
    if (only === undefined)
      throw new RefusedError('not_found', `${recipient} is not a recipient of message ${id}`, { field: 'recipient' });
  }
  const signatures = await deps.db
    .selectFrom('message_signatures')
    .selectAll()
    .where('message_id', '=', id)
    .orderBy('signed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const signing = signatures
    .map((s) => ({ ...s, recipientIds: JSON.parse(s.recipient_ids) as string[] }))
    .find((s) => only === undefined || s.recipientIds.includes(only));
  if (signing === undefined)
    throw new RefusedError(
      'not_found',
      `message ${id} has not been signed${recipient === undefined ? '' : ` for ${recipient}`} yet: its source exists from its first delivery attempt`,
      { field: recipient === undefined ? 'id' : 'recipient' },
    );

  const tracking = { opens: m.track_opens === 1, clicks: m.track_clicks === 1, unsubscribe: m.unsubscribe === 1 };
  const input: RenderInput = {
    mime: m.mime,
    content: m.content,
    tracking,
    recipient: isPersonalized(tracking)
      ? {
          secret: await trackingSecret(deps),
          publicUrl: deps.config.publicUrl,
          recipientId: signing.recipientIds[0] as string,
        }
      : null,
  };
  // As delivery does (load-claimed.ts): a large body is rendered off the event loop.
  const message =
    Number(m.size) > OFFLOAD_MIN_BYTES
      ? (await renderOffThread(deps.config.offloadThreads, input)).message
      : renderStored(input);
  const raw = Buffer.concat([Buffer.from(signing.fields, 'latin1'), message]);
  if (createHash('sha256').update(raw).digest('base64') !== signing.digest) {
    deps.log.warn({ message: id, signature: signing.id }, 'a signed source could not be rebuilt byte for byte');
    throw new RefusedError(
      'not_found',
      `the source of message ${id} as delivered cannot be rebuilt: what it is rendered from changed since it was signed (POSTHORN_PUBLIC_URL, for tracking links, or a Posthorn upgrade)`,
      { field: 'id' },
    );
  }
  const byId = new Map(recipients.map((r) => [r.id, r.address]));
  return {
    raw,
    id,
    recipients: signing.recipientIds.map((r) => byId.get(r)).filter((a): a is string => a !== undefined),
    signedAt: Number(signing.signed_at),
  };
}

/** A retention period in words: whole days, else whole hours, else seconds. */
function duration(ms: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms % 86_400_000 === 0) return unit(ms / 86_400_000, 'day');
  if (ms % 3_600_000 === 0) return unit(ms / 3_600_000, 'hour');
  return unit(Math.round(ms / 1000), 'second');
}

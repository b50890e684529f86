import type { Deps } from '../deps.js';
import {
  apiError,
  ERROR_TABLE,
  errorBody,
  retryAfterSeconds,
  UNAUTHORIZED,
  type ApiError,
} from '../core/api-errors.js';
import type { Mailbox } from '../core/mailbox.js';
import { authenticate, type AuthContext } from '../credentials/authenticate.js';
import { writeEvents, type NewEvent } from '../events/write-events.js';
import { findSuppressed } from '../suppression/find-suppressed.js';
import { createBatcher } from '../storage/batcher.js';
import { checkSenderDomain } from './check-sender-domain.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  isValidIdempotencyKey,
  releaseIdempotencyKey,
  type StoredResponse,
} from './idempotency.js';
import { composeDraft } from '../mime/message-draft.js';
import { persistMessages, type MessagePlan, type PersistResult } from './persist-messages.js';
import { requestFingerprint, type SendRequest } from './send-request.js';
import { ByteGate, OFFLOAD_MIN_BYTES, OffloadBusyError, yieldToLoop } from '../offload/offload-pool.js';
import { sharedOffload } from './offload.js';
import { smtpContext } from '../credentials/smtp-credentials.js';
import { parseSubmission, type Envelope } from '../smtp/parse-submission.js';
import { rewriteSubmission } from '../smtp/rewrite-submission.js';
import { resolveTracking, unsubscribeConflict } from '../tracking/settings.js';

/** A send as it arrives over HTTP. */
export interface HttpSubmission {
  source: 'http';
  authorization: string | undefined;
  /** The key already resolved from `authorization` (the API checks it before reading the body). */
  auth?: AuthContext;
  contentType: string | undefined;
  body: Buffer | undefined;
  idempotencyKey: string | undefined;
}

/** A message received by the SMTP relay: the same pipeline, its own first two steps. */
export interface SmtpSubmission {
  source: 'smtp';
  /** The credential the session authenticated with; read again here, so a revocation mid-session counts. */
  credentialId: string;
  raw: Buffer;
  envelope: Envelope;
}

/** The response to an accepted send (docs/api.md, `POST /v1/send`). */
export interface SendResponse {
  id: string;
  status: 'queued';
  dkim: 'signed';
  dmarc: 'aligned';
}

export type SubmitResult =
  { kind: 'accepted'; body: SendResponse; replayed: boolean } | { kind: 'refused'; error: ApiError; replayed: boolean };

/** The submit pipeline: one per process, shared by every intake, with its group-commit batcher. */
export interface SubmitPipeline {
  submit(input: HttpSubmission | SmtpSubmission): Promise<SubmitResult>;
  /**
   * The refusal a submission of `bytes` would get now for want of room among large messages, or
   * null: an intake that knows the size before it reads the body (HTTP's Content-Length) asks
   * first, so a refused 9 MiB body is never read into memory.
   */
  refusalForSize(bytes: number): ApiError | null;
  drain(): Promise<void>;
}

/**
 * Bytes of large submissions (over OFFLOAD_MIN_BYTES) between intake and commit at once. Each
 * costs a few times its size while it is parsed, composed and stored; this keeps 20 concurrent
 * 9 MiB sends to one at a time instead of all at once. Small ones never wait here.
 */
const LARGE_SUBMIT_BUDGET = 12 * 1024 * 1024;
/**
 * Large submissions that may wait for the budget; past that they are refused 503 with Retry-After
 * at once, so a burst of them sheds load instead of holding every body in memory while it waits.
 */
const LARGE_SUBMIT_WAITING = 4;

const busy = (): ApiError =>
  apiError('server_busy', 'Too many large messages are being processed; retry shortly.', undefined, 2);

const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

function secondsToNextMonth(now: number): number {
  const d = new Date(now);
  return retryAfterSeconds(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - now);
}

function refused(error: ApiError, replayed = false): SubmitResult {
  return { kind: 'refused', error, replayed };
}

/** A stored response turned back into the value it was made from (an idempotent replay: docs/api.md, Idempotency). */
function fromStored(stored: StoredResponse): SubmitResult {
  if (stored.status === 202) return { kind: 'accepted', body: stored.body as SendResponse, replayed: true };
  const e = (stored.body as ReturnType<typeof errorBody>).error;
  return refused(apiError(e.type, e.message, e.field), true);
}

function toStored(result: SubmitResult): StoredResponse {
  return result.kind === 'accepted'
    ? { status: 202, body: result.body }
    : { status: ERROR_TABLE[result.error.type].status, body: errorBody(result.error) };
}

/**
 * Builds the pipeline (docs/architecture.md, "The submit pipeline"): authenticate → validate →
 * idempotency → rate limit → sender domain → suppression → quota → compose → persist. Each step
 * returns a value; a refusal stops the pipeline. 202 is answered only after persist's transaction
 * committed.
 */
export function createSubmitPipeline(
  deps: Deps,
  opts: { largeBudget?: number; largeWaiting?: number } = {},
): SubmitPipeline {
  const offload = sharedOffload(deps.config.offloadThreads);
  const largeGate = new ByteGate(opts.largeBudget ?? LARGE_SUBMIT_BUDGET, opts.largeWaiting ?? LARGE_SUBMIT_WAITING);
  const batcher = createBatcher<MessagePlan, PersistResult>((plans) => persistMessages(deps.db, plans), {
    maxBatch: 256,
    // One transaction at a time: concurrent ones only queue on the account's volume row, while a
    // single flush lets batches grow, and every statement saved is a round trip saved.
    concurrency: 1,
    onBatch: (n) => deps.metrics.commitBatch.observe(n),
  });

  /** Refusals that have recipients leave a `rejected-by-system` event per recipient. */
  async function recordRejection(
    auth: AuthContext,
    req: SendRequest,
    from: Mailbox,
    recipients: { address: string; details: Record<string, unknown> }[],
    result: SubmitResult,
    idemKey: string | undefined,
  ) {
    const now = deps.clock.now();
    const messageId = deps.ids.next('msg', now);
    const events: NewEvent[] = recipients.map((r) => ({
      id: deps.ids.next('evt', now),
      accountId: auth.account.id,
      domainId: auth.domain.id,
      messageId,
      event: 'rejected-by-system',
      recipient: r.address,
      from: from.address,
      subject: req.subject,
      tags: req.tags,
      details: r.details,
      occurredAt: now,
    }));
    await deps.db.transaction().execute(async (trx) => {
      await writeEvents(trx, events);
      if (idemKey !== undefined) await completeIdempotencyKey(trx, auth.domain.id, idemKey, toStored(result));
    });
  }

  function plan(
    auth: AuthContext,
    req: SendRequest,
    from: Mailbox,
    idemKey: string | undefined,
  ): { plan: MessagePlan; body: SendResponse } {
    const now = deps.clock.now();
    const id = deps.ids.next('msg', now);
    const draft = composeDraft({
      id,
      hostname: deps.config.hostname,
      now,
      from,
      to: req.to,
      subject: req.subject,
      html: req.html,
      text: req.text,
      headers: req.headers,
    });
    // A relayed message keeps its own bytes (a client's MIME is passed through); only its owned
    // headers are rewritten.
    const mime = req.mime
      ? rewriteSubmission(req.mime.raw, { from, messageId: draft.messageId, date: draft.date }).toString('latin1')
      : null;
    const content = mime === null ? JSON.stringify(draft) : null;
    const body: SendResponse = { id, status: 'queued', dkim: 'signed', dmarc: 'aligned' };
    const tracking = resolveTracking(auth.domain.tracking, req);
    const recipients = req.to.map((m) => ({
      id: deps.ids.next('rcp', now),
      message_id: id,
      address: m.address,
      domain: m.domain,
      status: 'queued',
      updated_at: now,
    }));
    const p: MessagePlan = {
      message: {
        id,
        account_id: auth.account.id,
        domain_id: auth.domain.id,
        from_address: from.address,
        subject: req.subject,
        tags: JSON.stringify(req.tags),
        content,
        mime,
        size: mime === null ? Buffer.byteLength(content ?? '') : mime.length,
        created_at: now,
        track_opens: tracking.opens ? 1 : 0,
        track_clicks: tracking.clicks ? 1 : 0,
        unsubscribe: tracking.unsubscribe ? 1 : 0,
      },
      recipients,
      events: recipients.map((r) => ({
        id: deps.ids.next('evt', now),
        accountId: auth.account.id,
        domainId: auth.domain.id,
        messageId: id,
        event: 'accepted-by-system' as const,
        recipient: r.address,
        from: from.address,
        subject: req.subject,
        tags: req.tags,
        details: {},
        occurredAt: now,
      })),
      jobs: recipients.map((r) => ({
        id: deps.ids.next('job', now),
        kind: 'deliver',
        message_id: id,
        recipient_id: r.id,
        run_at: now,
        attempts: 0,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: now,
      })),
      volume: {
        accountId: auth.account.id,
        month: monthOf(now),
        count: recipients.length,
        quota: auth.account.monthlyQuota,
      },
      idempotency:
        idemKey === undefined ? null : { domainId: auth.domain.id, key: idemKey, response: { status: 202, body } },
    };
    return { plan: p, body };
  }

  /** The steps after idempotency; the caller owns the claim. */
  async function afterClaim(auth: AuthContext, req: SendRequest, idemKey: string | undefined): Promise<SubmitResult> {
    const rate = await deps.limiter.take(`send:${auth.domain.id}`, auth.account.rateLimit, deps.clock.now());
    if (!rate.ok) {
      return refused(
        apiError(
          'rate_limited',
          `Above ${auth.account.rateLimit} messages per second for ${auth.domain.name}.`,
          undefined,
          retryAfterSeconds(rate.retryAfterMs),
        ),
      );
    }
    const from = await checkSenderDomain(deps, auth, req.from);
    if ('type' in from) {
      const result = refused(from);
      await recordRejection(
        auth,
        req,
        req.from,
        req.to.map((m) => ({ address: m.address, details: { reason: 'domain_unverified', message: from.message } })),
        result,
        idemKey,
      );
      return result;
    }
    const suppressed = await findSuppressed(
      deps.db,
      auth.account.id,
      req.to.map((m) => m.address),
    );
    if (suppressed.size > 0) {
      const hits = req.to.filter((m) => suppressed.has(m.address.toLowerCase()));
      const result = refused(
        apiError(
          'recipient_suppressed',
          `Recipient${hits.length > 1 ? 's are' : ' is'} on the suppression list: ${hits.map((m) => m.address).join(', ')}. Nothing was sent.`,
          'to',
        ),
      );
      await recordRejection(
        auth,
        req,
        from,
        hits.map((m) => ({
          address: m.address,
          details: { reason: 'suppressed', suppression_reason: suppressed.get(m.address.toLowerCase()) },
        })),
        result,
        idemKey,
      );
      return result;
    }
    // A large message's compose and commit each take tens of ms on this thread: each gets its own
    // turn of the event loop, so other requests are answered between them.
    const large = (req.html?.length ?? 0) + (req.text?.length ?? 0) + (req.mime?.raw.length ?? 0) >= OFFLOAD_MIN_BYTES;
    if (large) await yieldToLoop();
    const { plan: p, body } = plan(auth, req, from, idemKey);
    if (large) await yieldToLoop();
    const persisted = await batcher.submit(p);
    if (persisted.kind === 'error') throw persisted.error;
    if (persisted.kind === 'quota_exceeded') {
      return refused(
        apiError(
          'quota_exceeded',
          `The monthly volume of ${auth.account.monthlyQuota} recipients is reached.`,
          undefined,
          secondsToNextMonth(deps.clock.now()),
        ),
      );
    }
    return { kind: 'accepted', body, replayed: false };
  }

  /**
   * The first two steps: who is sending, and what. Each intake translates its own input; the rules
   * on the result (the List-Unsubscribe conflict, docs/tracking.md) are checked once, for both.
   */
  async function authenticateAndValidate(
    input: HttpSubmission | SmtpSubmission,
  ): Promise<{ auth: AuthContext; req: SendRequest; key: string | undefined } | SubmitResult> {
    const first = await intake(input);
    if ('kind' in first) return first;
    const conflict = unsubscribeConflict(resolveTracking(first.auth.domain.tracking, first.req), first.req);
    return conflict ? refused(conflict) : first;
  }

  /** Authenticates and parses one submission as its intake (HTTP JSON or relayed MIME) delivers it. */
  async function intake(
    input: HttpSubmission | SmtpSubmission,
  ): Promise<{ auth: AuthContext; req: SendRequest; key: string | undefined } | SubmitResult> {
    if (input.source === 'http') {
      const auth = input.auth ?? (await authenticate(deps, input.authorization));
      if (!auth) return refused(UNAUTHORIZED);
      const req = await offload.validateSend(input.contentType, input.body);
      if ('type' in req) return refused(req);
      return { auth, req, key: input.idempotencyKey };
    }
    const auth = await smtpContext(deps, input.credentialId);
    if (!auth) return refused(UNAUTHORIZED);
    const sub = parseSubmission(input.raw, input.envelope);
    if ('error' in sub) return refused(sub.error);
    const req: SendRequest = {
      from: sub.from,
      to: sub.recipients,
      subject: sub.subject,
      html: null,
      text: null,
      tags: sub.tags,
      headers: [],
      mime: { raw: input.raw, fingerprint: sub.fingerprint },
      tracking: {
        ...(sub.options.trackOpens !== undefined ? { opens: sub.options.trackOpens } : {}),
        ...(sub.options.trackClicks !== undefined ? { clicks: sub.options.trackClicks } : {}),
        ...(sub.options.unsubscribe !== undefined ? { unsubscribe: sub.options.unsubscribe } : {}),
      },
    };
    return { auth, req, key: sub.idempotencyKey };
  }

  async function submit(input: HttpSubmission | SmtpSubmission): Promise<SubmitResult> {
    const first = await authenticateAndValidate(input);
    if ('kind' in first) return first;
    const { auth, req, key } = first;
    if (key === undefined) return afterClaim(auth, req, undefined);
    if (!isValidIdempotencyKey(key))
      return refused(
        apiError('invalid_request', 'Idempotency-Key must be 1 to 255 printable ASCII characters', 'Idempotency-Key'),
      );
    const claim = await claimIdempotencyKey(deps.db, auth.domain.id, key, requestFingerprint(req), deps.clock.now());
    switch (claim.kind) {
      case 'replay':
        return fromStored(claim.response);
      case 'in_flight':
        return refused(
          apiError(
            'idempotency_conflict',
            'A request with this Idempotency-Key is still in progress; retry later.',
            'Idempotency-Key',
          ),
        );
      case 'reused':
        return refused(
          apiError(
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request body.',
            'Idempotency-Key',
          ),
        );
      case 'claimed':
        break;
    }
    try {
      const result = await afterClaim(auth, req, key);
      // Transient refusals (429) are not remembered: a retry with the same key must be able to succeed.
      if (result.kind === 'refused' && ERROR_TABLE[result.error.type].status === 429)
        await releaseIdempotencyKey(deps.db, auth.domain.id, key);
      return result;
    } catch (err) {
      await releaseIdempotencyKey(deps.db, auth.domain.id, key).catch(() => undefined);
      throw err;
    }
  }

  /** Large submissions go through the byte budget; a full waiting line is 503, a full pool queue too. */
  async function admitted(input: HttpSubmission | SmtpSubmission): Promise<SubmitResult> {
    const size = input.source === 'http' ? (input.body?.length ?? 0) : input.raw.length;
    if (size < OFFLOAD_MIN_BYTES) return submit(input);
    const waiting = largeGate.acquire(size);
    if (waiting === null) return refused(busy());
    const release = await waiting;
    try {
      return await submit(input);
    } catch (err) {
      if (err instanceof OffloadBusyError) return refused(busy());
      throw err;
    } finally {
      release();
    }
  }

  return {
    async submit(input) {
      const result = await admitted(input);
      deps.metrics.sends.inc({
        source: input.source,
        outcome: result.kind === 'accepted' ? 'accepted' : result.error.type,
      });
      return result;
    },
    refusalForSize: (bytes) => (bytes >= OFFLOAD_MIN_BYTES && largeGate.wouldRefuse(bytes) ? busy() : null),
    drain: () => batcher.drain(),
  };
}

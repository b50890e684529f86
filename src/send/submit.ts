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
import { authenticate as authenticateKey, rememberKey, type AuthContext } from '../credentials/authenticate.js';
import { isDbRateLimiterOf } from '../rate-limit/db-rate-limiter.js';
import { pgSendPath } from './pg-send-path.js';
import { newEvent } from '../events/event-record.js';
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
import { composeDraft, draftHead, storedDraft } from '../mime/message-draft.js';
import { persistMessages, type MessagePlan, type PersistResult } from './persist-messages.js';
import { allRecipients, requestFingerprint, type SendRequest } from './send-request.js';
import {
  ByteGate,
  OFFLOAD_MIN_BYTES,
  OffloadBusyError,
  sharedOffloadPool,
  yieldToLoop,
} from '../offload/offload-pool.js';
import { sharedOffload } from './offload.js';
import { smtpContext } from '../credentials/smtp-credentials.js';
import { resolveTracking, unsubscribeConflict } from '../tracking/settings.js';
import type { Intake, IntakeSource, WholeMessage } from './intake.js';
import { renderForSend } from '../templates/send-template.js';
import { BODY_LIMIT } from '../core/limits.js';
import { timedCommit } from '../metrics/metrics.js';
import { sendAtWindowError } from './send-at.js';

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
  submit(intake: Intake): Promise<SubmitResult>;
  /**
   * The suppression step's rule for one recipient, for an intake that answers recipient by
   * recipient (the relay at RCPT TO, where the HTTP API refuses the whole request): null, or the
   * `recipient_suppressed` refusal after its `rejected-by-system` event is written (`from` is the
   * envelope sender, as the message is never composed).
   */
  checkRecipient(
    auth: AuthContext,
    recipient: { address: string; from: string; source: IntakeSource },
  ): Promise<ApiError | null>;
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
 * The compose step's work: the message fixed at submit time (Message-ID, Date, the From after the
 * sender-domain rule, bodies, tracking flags) and every row its acceptance writes, for the persist
 * step's one transaction. A whole message (`req.mime`) keeps its own bytes; only its owned headers
 * are rewritten, by the rewrite its intake passed in.
 */
export function planMessage(
  deps: Pick<Deps, 'clock' | 'ids' | 'config'>,
  input: {
    auth: AuthContext;
    req: SendRequest;
    from: Mailbox;
    key: string | undefined;
    rewrite?: WholeMessage['rewrite'] | undefined;
  },
): { plan: MessagePlan; body: SendResponse } {
  const { auth, req, from, key: idemKey, rewrite } = input;
  const now = deps.clock.now();
  const id = deps.ids.next('msg', now);
  const head = () => ({ id, hostname: deps.config.hostname, now, from, to: req.to, subject: req.subject });
  // A relayed message keeps its own bytes (a client's MIME is passed through); only its owned
  // headers are rewritten.
  let mime: string | null = null;
  let content: string | null = null;
  let size: number;
  if (req.mime) {
    if (rewrite === undefined) throw new Error('a whole message is composed with the rewrite of its intake');
    const { messageId, date } = draftHead(head());
    mime = rewrite(req.mime.raw, { from, messageId, date }).toString('latin1');
    size = mime.length;
  } else if (req.prepared) {
    // A large message's bodies arrive serialised (send/offload.ts): joined to the rest as bytes, so
    // the megabytes are neither stringified again nor measured by flattening a string.
    ({ content, bytes: size } = storedDraft(head(), req.prepared.bodies));
  } else {
    content = JSON.stringify(
      composeDraft({
        id,
        hostname: deps.config.hostname,
        now,
        from,
        to: req.to,
        cc: req.cc,
        replyTo: req.replyTo,
        subject: req.subject,
        html: req.html,
        text: req.text,
        headers: req.headers,
        attachments: req.attachments,
      }),
    );
    size = Buffer.byteLength(content);
  }
  const body: SendResponse = { id, status: 'queued', dkim: 'signed', dmarc: 'aligned' };
  const tracking = resolveTracking(auth.domain.tracking, req);
  // To, Cc and Bcc alike: each distinct address gets its row, its delivery and its events.
  // A scheduled message (send/send-at.ts) waits as `scheduled`, its jobs due at its send time.
  const sendAt = req.sendAt;
  const dueAt = sendAt ?? now;
  const recipients = allRecipients(req).map((m) => ({
    id: deps.ids.next('rcp', now),
    message_id: id,
    address: m.address,
    domain: m.domain,
    status: sendAt !== undefined ? 'scheduled' : 'queued',
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
      metadata: JSON.stringify(req.metadata ?? {}),
      template: req.rendered ? JSON.stringify(req.rendered) : null,
      content,
      mime,
      size,
      created_at: now,
      track_opens: tracking.opens ? 1 : 0,
      track_clicks: tracking.clicks ? 1 : 0,
      unsubscribe: tracking.unsubscribe ? 1 : 0,
      ...(sendAt !== undefined ? { send_at: sendAt } : {}),
    },
    recipients,
    events: recipients.map((r) =>
      newEvent(
        deps.ids,
        {
          id,
          accountId: auth.account.id,
          domainId: auth.domain.id,
          from: from.address,
          subject: req.subject,
          tags: req.tags,
          metadata: req.metadata ?? {},
        },
        {
          event: 'accepted-by-system',
          recipient: r.address,
          at: now,
          ...(req.rendered || sendAt !== undefined
            ? {
                details: {
                  ...(req.rendered ? { template: req.rendered } : {}),
                  ...(sendAt !== undefined ? { send_at: new Date(sendAt).toISOString() } : {}),
                },
              }
            : {}),
        },
      ),
    ),
    jobs: recipients.map((r) => ({
      id: deps.ids.next('job', now),
      kind: 'deliver',
      message_id: id,
      recipient_id: r.id,
      run_at: dueAt,
      attempts: 0,
      locked_by: null,
      locked_until: null,
      last_error: null,
      // The queue lifetime (delivery/retry-schedule.ts) counts from the first time the job is due,
      // so a message scheduled days ahead still gets its whole lifetime of retries.
      created_at: dueAt,
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

// The value the steps build, one stage more after each step (docs/architecture.md, "The submit pipeline").
interface Received {
  intake: Intake;
}
interface Authenticated extends Received {
  auth: AuthContext;
}
interface Validated extends Authenticated {
  req: SendRequest;
  key: string | undefined;
}
interface Claimed extends Validated {
  /** The Idempotency-Key this submission holds: completed with its outcome, or released (see `run`). */
  claim: { domainId: string; key: string } | null;
  /** The recipients on the suppression list, when the rate-limit step read them with the limit (PostgreSQL). */
  suppressed?: Map<string, string>;
  /** A share of the large-message budget taken after the intake (a large render), given back by `run`. */
  held?: () => void;
}
interface Checked extends Claimed {
  /** The From to send with, after the sender-domain rule. */
  from: Mailbox;
}
interface Composed extends Checked {
  plan: MessagePlan;
  body: SendResponse;
  large: boolean;
}

/**
 * What a step returns to end the pipeline: a refusal or an idempotent replay early, the persist
 * step's outcome at the end. (A value being built never has a `kind`.)
 */
type Done = SubmitResult;
const isDone = (out: object): out is Done => 'kind' in out;

type StepIn<S> = S extends (v: infer I) => unknown ? I : never;
type StepOut<S> = S extends (v: never) => Promise<infer O> ? Exclude<O, Done> : never;
/** `true` when each step of the list takes what the step before it gives: a misordered list does not compile. */
type Chained<S extends readonly unknown[]> = S extends readonly [infer A, infer B, ...infer R]
  ? [StepOut<A>] extends [StepIn<B>]
    ? Chained<readonly [B, ...R]>
    : never
  : true;

/**
 * Builds the pipeline (docs/architecture.md, "The submit pipeline"): the steps below, in the order
 * of `steps`, each taking the value built so far and returning the next one or the result that
 * ends it (a refusal, a replay). 202 is answered only after persist's transaction committed.
 */
export function createSubmitPipeline(
  deps: Deps,
  opts: {
    largeBudget?: number;
    largeWaiting?: number;
    /** Called after each commit of accepted mail: `serve --processes N` wakes its delivery children. */
    onCommitted?: () => void;
  } = {},
): SubmitPipeline {
  const offload = sharedOffload(deps.config.offloadThreads);
  const offloadPool = sharedOffloadPool(deps.config.offloadThreads);
  const largeGate = new ByteGate(opts.largeBudget ?? LARGE_SUBMIT_BUDGET, opts.largeWaiting ?? LARGE_SUBMIT_WAITING);
  // On PostgreSQL with the database's rate limiter, a send's checks are one statement and a group
  // commit one statement too (send/pg-send-path.ts); otherwise the steps below run their own.
  const fast = isDbRateLimiterOf(deps.limiter, deps.db) ? pgSendPath(deps.db) : null;
  const batcher = createBatcher<MessagePlan, PersistResult>(
    async (plans) => {
      const results = await timedCommit(deps.metrics, 'send', () =>
        fast ? fast.persist(plans) : persistMessages(deps.db, plans),
      );
      opts.onCommitted?.();
      return results;
    },
    {
      maxBatch: 256,
      // One transaction at a time: concurrent ones only queue on the account's volume row, while a
      // single flush lets batches grow, and every statement saved is a round trip saved.
      concurrency: 1,
      onBatch: (n) => deps.metrics.commitBatch.observe(n),
    },
  );

  /** Refusals that have recipients leave a `rejected-by-system` event per recipient. */
  async function recordRejection(
    auth: AuthContext,
    req: Pick<SendRequest, 'subject' | 'tags' | 'metadata'>,
    from: string,
    recipients: { address: string; details: Record<string, unknown> }[],
    result: SubmitResult,
    idemKey: string | undefined,
  ) {
    const now = deps.clock.now();
    const messageId = deps.ids.next('msg', now);
    const message = {
      id: messageId,
      accountId: auth.account.id,
      domainId: auth.domain.id,
      from,
      subject: req.subject,
      tags: req.tags,
      metadata: req.metadata ?? {},
    };
    const events: NewEvent[] = recipients.map((r) =>
      newEvent(deps.ids, message, { event: 'rejected-by-system', recipient: r.address, at: now, details: r.details }),
    );
    await deps.db.transaction().execute(async (trx) => {
      await writeEvents(trx, events);
      if (idemKey !== undefined) await completeIdempotencyKey(trx, auth.domain.id, idemKey, toStored(result));
    });
  }

  /**
   * The suppression rule, for the suppression step and `checkRecipient` alike: the addresses of
   * `addresses` on the account's suppression list, with the details of their rejection.
   */
  async function suppressedAmong(
    auth: AuthContext,
    addresses: string[],
    read?: Map<string, string>,
  ): Promise<{ address: string; details: Record<string, unknown> }[]> {
    const suppressed = read ?? (await findSuppressed(deps.db, auth.account.id, addresses));
    return addresses
      .filter((a) => suppressed.has(a.toLowerCase()))
      .map((a) => ({
        address: a,
        details: { reason: 'suppressed', suppression_reason: suppressed.get(a.toLowerCase()) },
      }));
  }

  /**
   * Who is sending: an API key, or the relay's SMTP credential read again for this message. A key
   * the API answered from its cache (`cached`) is checked again by the rate-limit step's statement
   * on PostgreSQL; anywhere else it is read again here, as is one that is about to claim an
   * Idempotency-Key (a write, which a key no longer valid must not make).
   */
  async function authenticate(v: Received): Promise<Authenticated | Done> {
    const c = v.intake.credential;
    let auth: AuthContext | null;
    if (c.kind === 'api-key') {
      auth = c.resolved ?? null;
      const claims = v.intake.request.kind === 'json' && v.intake.request.idempotencyKey !== undefined;
      if (auth === null || (auth.cached && (fast === null || claims))) {
        auth = await authenticateKey(deps, c.authorization);
        rememberKey(deps, c.authorization, auth);
      }
    } else {
      auth = await smtpContext(deps, c.credentialId);
    }
    if (!auth) return refused(UNAUTHORIZED);
    return { ...v, auth };
  }

  /**
   * A refusal of the validate step, after the key it came with is checked when it was answered
   * from the cache: authentication comes first (docs/api.md, Order of the checks), so a key no
   * longer valid is 401 whatever its body.
   */
  async function refusedAs(v: Authenticated, error: ApiError): Promise<Done> {
    const c = v.intake.credential;
    if (v.auth.cached && c.kind === 'api-key') {
      const auth = await authenticateKey(deps, c.authorization);
      rememberKey(deps, c.authorization, auth);
      if (auth === null) return refused(UNAUTHORIZED);
    }
    return refused(error);
  }

  /**
   * What is sent: the JSON body validated (on the offload pool when large), or the whole message
   * read by its intake's parser. The rules on the result (the List-Unsubscribe conflict,
   * docs/tracking.md) are checked once, for both.
   */
  async function validate(v: Authenticated): Promise<Validated | Done> {
    const r = v.intake.request;
    let req: SendRequest;
    let key: string | undefined;
    if (r.kind === 'json') {
      const validated = await offload.validateSend(r.contentType, r.body, r.idempotencyKey !== undefined);
      if ('type' in validated) return refusedAs(v, validated);
      req = validated;
      key = r.idempotencyKey;
    } else {
      const parsed = r.parse();
      if ('type' in parsed) return refusedAs(v, parsed);
      req = parsed.request;
      key = parsed.idempotencyKey;
    }
    if (req.sendAt !== undefined) {
      // The form was read with the request; the window needs the clock (send/send-at.ts).
      const field = r.kind === 'json' ? 'send_at' : 'X-Posthorn-Send-At';
      const outside = sendAtWindowError(req.sendAt, deps.clock.now(), field);
      if (outside !== null) return refusedAs(v, apiError('invalid_request', outside, field));
    }
    const conflict = unsubscribeConflict(resolveTracking(v.auth.domain.tracking, req), req);
    return conflict ? refusedAs(v, conflict) : { ...v, req, key };
  }

  /** One atomic upsert claims the key; a finished one is replayed (docs/api.md, Idempotency). */
  async function idempotency(v: Validated): Promise<Claimed | Done> {
    const { auth, req, key } = v;
    if (key === undefined) return { ...v, claim: null };
    if (!isValidIdempotencyKey(key))
      return refusedAs(
        v,
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
        return { ...v, claim: { domainId: auth.domain.id, key } };
    }
  }

  /**
   * The domain's send rate. On PostgreSQL (`fast`) one statement also checks the credential again,
   * with the domain and account as they are now, and reads the recipients' suppressions for the
   * suppression step, which still answers in its place in the order.
   */
  async function rateLimit(v: Claimed): Promise<Claimed | Done> {
    let { auth } = v;
    let rate;
    let suppressed: Map<string, string> | undefined;
    if (fast) {
      const c = v.intake.credential;
      const verifyKey = auth.cached === true && c.kind === 'api-key';
      const checks = await fast.checks({
        auth,
        verifyKey,
        sandbox: deps.config.sandbox,
        nowMs: deps.clock.now(),
        addresses: allRecipients(v.req).map((m) => m.address),
      });
      if (verifyKey) rememberKey(deps, c.authorization, checks?.auth ?? null);
      if (checks === null) return refused(UNAUTHORIZED);
      // The validate step read the domain's tracking defaults from the cache: had they changed, its
      // List-Unsubscribe rule is applied again with the defaults read now.
      const was = auth.domain.tracking;
      auth = checks.auth;
      const now = auth.domain.tracking;
      if (was.opens !== now.opens || was.clicks !== now.clicks || was.unsubscribe !== now.unsubscribe) {
        const conflict = unsubscribeConflict(resolveTracking(now, v.req), v.req);
        if (conflict) return refused(conflict);
      }
      rate = checks.rate;
      suppressed = checks.suppressed;
    } else {
      rate = await deps.limiter.take(`send:${auth.domain.id}`, auth.account.rateLimit, deps.clock.now());
    }
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
    return { ...v, auth, ...(suppressed ? { suppressed } : {}) };
  }

  /**
   * A templated send's subject, html and text, rendered once (templates/send-template.ts); every
   * later step sees the rendered message. A refusal is remembered under the Idempotency-Key like
   * the refusals of the steps after it. A render that came out large takes its share of the
   * large-message budget now, as its request body was small.
   */
  async function render(v: Claimed): Promise<Claimed | Done> {
    const { req, auth, claim } = v;
    if (req.template === undefined) return v;
    let out;
    try {
      out = await renderForSend(deps, offloadPool, auth.account.id, req.template);
    } catch (err) {
      if (err instanceof OffloadBusyError) return refused(busy());
      throw err;
    }
    // The message limit covers the rendered bodies and the decoded attachments together (docs/api.md, Fields).
    const content =
      'type' in out
        ? 0
        : Buffer.byteLength(out.html ?? '') +
          Buffer.byteLength(out.text ?? '') +
          (req.attachments ?? []).reduce((n, a) => n + a.size, 0);
    if ('type' in out || content > BODY_LIMIT) {
      const result = refused(
        'type' in out
          ? out
          : apiError(
              'payload_too_large',
              `the rendered template and the attachments are ${content} bytes together, over ${BODY_LIMIT} (10 MiB)`,
              'template',
            ),
      );
      if (claim) await completeIdempotencyKey(deps.db, claim.domainId, claim.key, toStored(result));
      return result;
    }
    const rendered: SendRequest = {
      ...req,
      subject: out.subject,
      html: out.html,
      text: out.text,
      rendered: { name: out.name, version: out.version },
    };
    const bytes = (out.html?.length ?? 0) + (out.text?.length ?? 0);
    if (bytes < OFFLOAD_MIN_BYTES || v.intake.size >= OFFLOAD_MIN_BYTES) return { ...v, req: rendered };
    const waiting = largeGate.acquire(bytes);
    if (waiting === null) return refused(busy());
    return { ...v, req: rendered, held: await waiting };
  }

  async function senderDomain(v: Claimed): Promise<Checked | Done> {
    const { auth, req, key: idemKey } = v;
    const from = await checkSenderDomain(deps, auth, req.from);
    if ('type' in from) {
      const result = refused(from);
      await recordRejection(
        auth,
        req,
        req.from.address,
        allRecipients(req).map((m) => ({
          address: m.address,
          details: { reason: 'domain_unverified', message: from.message },
        })),
        result,
        idemKey,
      );
      return result;
    }
    return { ...v, from };
  }

  async function suppression(v: Checked): Promise<Checked | Done> {
    const { auth, req, from, key: idemKey } = v;
    const hits = await suppressedAmong(
      auth,
      allRecipients(req).map((m) => m.address),
      v.suppressed,
    );
    if (hits.length > 0) {
      // The field is the one that holds the first suppressed address: to, cc or bcc.
      const first = hits[0]!.address.toLowerCase();
      const has = (list: Mailbox[] | undefined) => (list ?? []).some((m) => m.address.toLowerCase() === first);
      const field = has(req.to) ? 'to' : has(req.cc) ? 'cc' : 'bcc';
      const result = refused(
        apiError(
          'recipient_suppressed',
          `Recipient${hits.length > 1 ? 's are' : ' is'} on the suppression list: ${hits.map((m) => m.address).join(', ')}. Nothing was sent.`,
          field,
        ),
      );
      await recordRejection(auth, req, from.address, hits, result, idemKey);
      return result;
    }
    return v;
  }

  async function compose(v: Checked): Promise<Composed | Done> {
    const { auth, req, from, key: idemKey } = v;
    // A large message's compose and commit each take tens of ms on this thread: each gets its own
    // turn of the event loop, so other requests are answered between them.
    const attached = (req.attachments ?? []).reduce((n, a) => n + a.content.length, 0);
    const large =
      req.prepared !== undefined ||
      (req.html?.length ?? 0) + (req.text?.length ?? 0) + attached + (req.mime?.raw.length ?? 0) >= OFFLOAD_MIN_BYTES;
    if (large) await yieldToLoop();
    const rewrite = v.intake.request.kind === 'mime' ? v.intake.request.rewrite : undefined;
    const { plan: p, body } = planMessage(deps, { auth, req, from, key: idemKey, rewrite });
    return { ...v, plan: p, body, large };
  }

  /** The group commit; the monthly quota is counted in its transaction, so concurrent sends cannot overshoot it. */
  async function persist(v: Composed): Promise<Done> {
    const { auth, plan: p, body, large } = v;
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

  // The order docs/architecture.md ("The submit pipeline") documents.
  const steps = [
    authenticate,
    validate,
    idempotency,
    rateLimit,
    render,
    senderDomain,
    suppression,
    compose,
    persist,
  ] as const;
  const _ordered: Chained<typeof steps> = true;

  /** Runs the steps in order; a claimed Idempotency-Key is given back on a transient refusal or a fault. */
  async function run(intake: Intake): Promise<SubmitResult> {
    let v: Received & { claim?: Claimed['claim']; held?: () => void } = { intake };
    let result: SubmitResult | undefined;
    try {
      for (const step of steps) {
        // Each step takes what the one before gave (checked by `Chained` at compile time).
        const out = await (step as (v: Received) => Promise<Received | Done>)(v);
        if (isDone(out)) {
          result = out;
          break;
        }
        v = out;
      }
    } catch (err) {
      if (v.claim) await releaseIdempotencyKey(deps.db, v.claim.domainId, v.claim.key).catch(() => undefined);
      throw err;
    } finally {
      v.held?.();
    }
    if (result === undefined) throw new Error('the submit pipeline ended without a result');
    // Transient refusals (429, and 503 for want of room) are not remembered: a retry with the same
    // key must be able to succeed. Nor is a 401 of a key revoked after its claim: it claimed nothing.
    const status = result.kind === 'refused' ? ERROR_TABLE[result.error.type].status : 0;
    if (v.claim && (status === 429 || status === 503 || status === 401))
      await releaseIdempotencyKey(deps.db, v.claim.domainId, v.claim.key);
    return result;
  }

  /** Large submissions go through the byte budget; a full waiting line is 503, a full pool queue too. */
  async function admitted(intake: Intake): Promise<SubmitResult> {
    const size = intake.size;
    if (size < OFFLOAD_MIN_BYTES) return run(intake);
    const waiting = largeGate.acquire(size);
    if (waiting === null) return refused(busy());
    const release = await waiting;
    try {
      return await run(intake);
    } catch (err) {
      if (err instanceof OffloadBusyError) return refused(busy());
      throw err;
    } finally {
      release();
    }
  }

  return {
    async submit(intake) {
      const result = await admitted(intake);
      deps.metrics.sends.inc({
        source: intake.source,
        outcome: result.kind === 'accepted' ? 'accepted' : result.error.type,
      });
      return result;
    },
    async checkRecipient(auth, recipient) {
      const [hit] = await suppressedAmong(auth, [recipient.address]);
      if (hit === undefined) return null;
      const error = apiError(
        'recipient_suppressed',
        `Recipient ${recipient.address} is on the suppression list; not sent.`,
        'to',
      );
      await recordRejection(
        auth,
        { subject: '', tags: [], metadata: {} },
        recipient.from,
        [{ address: hit.address, details: { ...hit.details, via: recipient.source } }],
        refused(error),
        undefined,
      );
      return error;
    },
    refusalForSize: (bytes) => (bytes >= OFFLOAD_MIN_BYTES && largeGate.wouldRefuse(bytes) ? busy() : null),
    drain: () => batcher.drain(),
  };
}

import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { ByteGate, yieldToLoop } from '../offload/offload-pool.js';
import { isPersonalized, renderTracked, trackingUrls } from '../tracking/render.js';
import type { DkimKey } from './dkim/dkim-sign.js';
import { signedCopy, type SignedCopy } from './dkim/signed-copy.js';
import type { Signer } from './dkim/signer-pool.js';
import { classifyReply } from './classify-reply.js';
import type { DeliveryGroup } from './load-claimed.js';
import { renderOffThread } from './render-stored.js';
import { resolveRoute } from './resolve-route.js';
import { groupSubject, makeReturnPath } from './return-path.js';
import { SANDBOX } from '../core/sandbox-names.js';
import { secretBox } from '../secrets/secret-box.js';
import { secretContext } from '../secrets/secret-fields.js';
import type { AttemptResult, Destination, Transport } from './transport.js';
import type { DeliveryHoldTable } from '../storage/database.js';
import { destinationProvider } from './destination-provider.js';
import { planSecurity, type PolicyNote } from './security/plan-security.js';
import { recordTlsResults, type TlsResult } from './security/tls-report-store.js';
import { feedbackIdField } from './feedback-id.js';
import { checkProvider, observeReplies, type ProviderShaping, type ReplyEffects } from './provider-gate.js';
import { sessionRefusal } from './provider-signal.js';
import type { Provider } from './providers.js';

/** What happened to one recipient in this attempt, before retry policy is applied. */
export type RecipientOutcome =
  | { kind: 'delivered'; details: Record<string, unknown> }
  | { kind: 'failed'; details: Record<string, unknown>; suppress: boolean }
  | { kind: 'rejected'; details: Record<string, unknown> }
  | {
      kind: 'deferred';
      details: Record<string, unknown>;
      error: string;
      /** Not retried before this (a reply's "try again in N", a provider's suspension), even if the retry schedule says sooner. */
      notBefore?: number;
    };

export interface GroupResult {
  group: DeliveryGroup;
  /** When the engine took and signed the message (the accepted-by-mta moment), or null if signing failed. */
  signedAt: number | null;
  /** What this signing added, to give the source back later (messages/message-source.ts); null when not signed. */
  signature?: SignedCopy | null;
  outcomes: RecipientOutcome[];
  /** Set when the route led to a provider held by an operator (queue-control/): nothing was sent, and the group goes back unattempted. */
  holdBy?: DeliveryHoldTable;
  /**
   * Not attempted: the provider is paced or suspended (provider-gate.ts). The jobs go back to the
   * queue due at `until`, no attempt counted, nothing recorded; `outcomes` is empty.
   */
  held?: { until: number; reason: string };
}

export { signedCopy, type SignedCopy } from './dkim/signed-copy.js';

export interface DeliveryContext {
  deps: Pick<Deps, 'config' | 'clock' | 'resolver' | 'log' | 'db' | 'ids' | 'dialect' | 'limiter' | 'metrics'>;
  /** Provider limits and adaptive state (provider-gate.ts); without it every destination is sent to unshaped. */
  shaping?: ProviderShaping;
  signer: Signer;
  transport: Transport;
  returnPathSecret: Buffer;
  /** Key of open, click and unsubscribe tokens (tracking/secret.ts). */
  trackingSecret: Buffer;
  /**
   * Outside sandbox mode, the sandbox mailbox that keeps the sandbox domain's mail (queued before
   * a production start in the same data dir) and mail to that domain; without it such mail is
   * rejected. Either way it never reaches the internet.
   */
  localTransport?: Transport;
  /** The hold on mail of `accountId` to `provider`, if one is in force (docs/delivery.md, Holds). */
  heldProvider?: (provider: Provider, accountId: string) => DeliveryHoldTable | undefined;
}

/** Mail that must stay on this machine: everything in sandbox mode, and the sandbox domain's mail in or out in production. */
function staysLocal(ctx: DeliveryContext, group: DeliveryGroup): boolean {
  return ctx.deps.config.sandbox || group.message.sandbox || group.recipientDomain === SANDBOX.domain;
}

/**
 * The group's signing keys, opened if sealed at rest. The box keeps what it opened, so a domain's
 * key is decrypted once per process, not once per message; a key that does not open fails this
 * message's signing (deferred, logged), not the whole claimed batch.
 */
function dkimKeys(ctx: DeliveryContext, group: DeliveryGroup): DkimKey[] {
  const m = group.message;
  const box = secretBox(ctx.deps.config);
  const rsaPem = box.open(m.dkim.privateKeyPem, secretContext('domains.dkim_private_key', m.domainId));
  const keys: DkimKey[] = [
    {
      id: `${m.domainId}:rsa:${m.dkim.selector}`,
      domain: m.domain,
      selector: m.dkim.selector,
      algorithm: 'rsa-sha256',
      privateKeyPem: rsaPem,
    },
  ];
  if (m.dkim.ed25519) {
    const edPem = box.open(m.dkim.ed25519.privateKeyPem, secretContext('domains.ed25519_private_key', m.domainId));
    keys.push({
      id: `${m.domainId}:ed25519:${m.dkim.ed25519.selector}`,
      domain: m.domain,
      selector: m.dkim.ed25519.selector,
      algorithm: 'ed25519-sha256',
      privateKeyPem: edPem,
    });
  }
  return keys;
}

const everyone = (group: DeliveryGroup, o: RecipientOutcome): RecipientOutcome[] => group.items.map(() => o);

const NO_EFFECTS: ReplyEffects = { notBefore: new Map(), deferBlocked: new Set() };

function fromTransaction(
  group: DeliveryGroup,
  result: AttemptResult,
  effects: ReplyEffects = NO_EFFECTS,
): RecipientOutcome[] {
  if (result.kind === 'unreachable') {
    const refused = result.tlsFailures?.[0]?.outcome;
    return group.items.map((item) => {
      const notBefore = effects.notBefore.get(item.address.toLowerCase());
      return {
        kind: 'deferred',
        error: result.error,
        ...(notBefore === undefined ? {} : { notBefore }),
        details: { reason: result.error, hosts_tried: result.hostsTried, ...(refused ? { tls: refused } : {}) },
      };
    });
  }
  const replies = new Map(result.recipients.map((r) => [r.address.toLowerCase(), r.reply]));
  return group.items.map((item) => {
    const address = item.address.toLowerCase();
    const reply = replies.get(address);
    if (!reply) return { kind: 'deferred', error: 'no reply for this recipient', details: { mx_host: result.mxHost } };
    const c = classifyReply(reply);
    const details = {
      mx_host: result.mxHost,
      // The session's TLS as judged against the host's policy (docs/delivery.md).
      tls: result.tlsOutcome ?? result.tls,
      response: reply.raw,
      ...(reply.enhanced ? { enhanced_status: reply.enhanced } : {}),
    };
    const notBefore = effects.notBefore.get(address);
    const wait = notBefore === undefined ? {} : { notBefore };
    // A block of this node's IP suspends the provider (provider-gate.ts): the recipient is not at
    // fault and its mail goes out once the suspension ends, so it is deferred, not failed.
    if (c.outcome === 'failed' && effects.deferBlocked.has(address))
      return {
        kind: 'deferred',
        error: details.response,
        ...wait,
        details: { ...details, bounce_class: c.bounceClass, bounce_reason: c.reason, provider_suspended: true },
      };
    switch (c.outcome) {
      case 'delivered':
        return { kind: 'delivered', details };
      case 'deferred':
        return {
          kind: 'deferred',
          error: details.response,
          ...wait,
          details: { ...details, bounce_class: c.bounceClass, bounce_reason: c.reason },
        };
      case 'failed':
        return {
          kind: 'failed',
          suppress: c.suppress,
          details: { ...details, bounce_class: c.bounceClass, bounce_reason: c.reason, rule: c.rule },
        };
    }
  });
}

/** A tracked message's copy for the one recipient of its group, tracking URLs in place (docs/tracking.md). */
function personalized(ctx: DeliveryContext, group: DeliveryGroup): Buffer {
  const [item, ...rest] = group.items;
  if (item === undefined || rest.length > 0)
    throw new Error(`a tracked message is sent to one recipient per transaction, got ${group.items.length}`);
  return renderTracked(
    group.message,
    group.message.tracking,
    trackingUrls(ctx.trackingSecret, ctx.deps.config.publicUrl, item.recipientId),
  );
}

/**
 * Characters of large messages (load-claimed.ts `deferredSize`) being read, rendered, signed and
 * sent at once per process. Each holds its stored text, its rendering and its signed copy until
 * its SMTP transaction ends; this bounds that to about one 10 MiB message at a time however many large ones are due.
 */
const LARGE_DELIVERY_BUDGET = 12 * 1024 * 1024;
const largeGate = new ByteGate(LARGE_DELIVERY_BUDGET);
/** Large groups that may wait for the budget while holding their lease; more go back to the queue (delivery-worker.ts). */
const LARGE_DELIVERY_WAITING = 4;

/** True when a large group would only wait behind LARGE_DELIVERY_WAITING others: better released for later than holding its lease. */
export function largeDeliveriesBacklogged(): boolean {
  return largeGate.waiting >= LARGE_DELIVERY_WAITING;
}

/**
 * A large message's signed bytes: its stored body read now, rendered (tracking included) and
 * DKIM-signed on an offload thread, so the tens of MB of a rendering cross threads once and are not
 * copied again to a signer thread and back (render-stored.ts, renderFramed).
 */
async function renderDeferred(
  ctx: DeliveryContext,
  group: DeliveryGroup,
  keys: DkimKey[],
  now: number,
  prefix: string,
): Promise<{ message: Buffer; digest: string }> {
  const m = group.message;
  await yieldToLoop(); // reading the body is a synchronous read of megabytes on SQLite: its own turn
  // On SQLite the draft is read as its UTF-8 bytes (the text column cast to a blob): a Buffer
  // outside the JavaScript heap, moved to the offload thread, where a string of it would be a heap
  // copy of megabytes on this thread and another in the copy to the thread. PostgreSQL's driver
  // would send a bytea as hex text, twice the size: its text is read as it is.
  const content =
    ctx.deps.dialect === 'sqlite'
      ? sql<Uint8Array | string | null>`cast(content as blob)`
      : sql<Uint8Array | string | null>`content`;
  const row = await ctx.deps.db
    .selectFrom('messages')
    .select(['mime', content.as('content')])
    .where('id', '=', m.id)
    .executeTakeFirst();
  if (row === undefined || (row.mime === null && row.content === null))
    throw new Error(`the body of message ${m.id} is gone`);
  const item = group.items[0];
  const recipient =
    isPersonalized(m.tracking) && item !== undefined
      ? { secret: ctx.trackingSecret, publicUrl: ctx.deps.config.publicUrl, recipientId: item.recipientId }
      : null;
  if (recipient !== null && group.items.length > 1)
    throw new Error(`a tracked message is sent to one recipient per transaction, got ${group.items.length}`);
  return renderOffThread(ctx.deps.config.offloadThreads, {
    mime: row.mime,
    content: row.content,
    tracking: m.tracking,
    recipient,
    sign: { keys, now },
    prefix,
  });
}

/**
 * One attempt for one group: render (or take the relay's MIME), sign, route, send, and turn the
 * replies into per-recipient outcomes. Never throws for delivery problems: they are outcomes.
 * A large message waits for room in the large-message budget first.
 */
export async function deliverGroup(ctx: DeliveryContext, group: DeliveryGroup): Promise<GroupResult> {
  const size = group.message.deferredSize;
  if (size === 0) return attempt(ctx, group);
  const release = await largeGate.acquire(size)!;
  try {
    return await attempt(ctx, group);
  } finally {
    release();
  }
}

/** The MX route of a group that leaves the machine, or null for mail that stays local. */
type Route = Awaited<ReturnType<typeof resolveRoute>> | null;

/** A group's jobs are never held past the queue lifetime of its oldest: that attempt goes out, and its outcome decides. */
function pastLifetime(ctx: DeliveryContext, group: DeliveryGroup, now: number): boolean {
  const first = Math.min(...group.items.map((i) => i.job.created_at));
  return now >= Number(first) + ctx.deps.config.maxQueueLifetime;
}

async function attempt(ctx: DeliveryContext, group: DeliveryGroup): Promise<GroupResult> {
  const { deps } = ctx;
  const m = group.message;
  const local = staysLocal(ctx, group);
  // The route first, for the provider check: a held group is neither signed nor counted.
  const route: Route = local
    ? null
    : await resolveRoute(deps.resolver, group.recipientDomain, {
        mxPort: deps.config.mxPort,
        relayHost: deps.config.relayHost,
      });
  if (route?.kind === 'deliver') {
    // The most preferred host decides: the others are the same provider's fallbacks.
    const firstHost = route.destinations[0]?.host;
    const provider: Provider = ctx.shaping?.table.of(firstHost) ?? destinationProvider(firstHost);
    // An operator's hold on the provider (docs/delivery.md, Holds) comes before its pace.
    const holdBy = ctx.heldProvider?.(provider, m.accountId);
    if (holdBy !== undefined) return { group, signedAt: null, outcomes: [], holdBy };
    if (ctx.shaping !== undefined) {
      const decision = await checkProvider(deps, ctx.shaping, provider, group.items.length);
      if (decision.kind === 'hold' && !pastLifetime(ctx, group, deps.clock.now()))
        return { group, signedAt: null, outcomes: [], held: { until: decision.until, reason: decision.reason } };
    }
  }
  let signed: Buffer;
  let signedAt: number;
  let signature: SignedCopy;
  try {
    const keys = dkimKeys(ctx, group);
    const prefix = feedbackIdField(m, deps.config.feedbackSenderId);
    if (m.deferredSize > 0) {
      signedAt = deps.clock.now();
      const rendered = await renderDeferred(ctx, group, keys, signedAt, prefix);
      signed = rendered.message;
      // The digest of megabytes was taken on the offload thread (render-stored.ts, renderFramed).
      signature = signedCopy(signed, keys.length + 1, rendered.digest);
      await yieldToLoop(); // the transport may store it synchronously (the sandbox mailbox)
    } else {
      // An API message's draft is rendered by the signer, off the event loop (dkim/sign-message.ts).
      // Stored as latin1 so every byte of a relayed message survives the text column unchanged.
      const message = isPersonalized(m.tracking)
        ? { raw: Buffer.concat([Buffer.from(prefix, 'latin1'), personalized(ctx, group)]) }
        : m.mime !== null
          ? { raw: Buffer.concat([Buffer.from(prefix, 'latin1'), Buffer.from(m.mime, 'latin1')]) }
          : { draft: m.draft!, prefix };
      signedAt = deps.clock.now();
      ({ signed, copy: signature } = await ctx.signer.signMessage(message, keys, signedAt, keys.length + 1));
    }
  } catch (err) {
    // A message that cannot be rendered or signed is never sent unsigned: unsigned mail would fail
    // DMARC and hurt the domain's reputation.
    deps.log.error(
      { err, message_id: m.id, message: m.id, recipient: group.items.map((i) => i.address).join(', ') },
      'could not render or sign a message',
    );
    return {
      group,
      signedAt: null,
      outcomes: everyone(group, {
        kind: 'deferred',
        error: `signing failed: ${(err as Error).message}`,
        details: { reason: 'signing failed' },
      }),
    };
  }
  let destinations: Destination[];
  let notes: PolicyNote[] | null = null;
  let transport = ctx.transport;
  if (route === null) {
    if (!deps.config.sandbox) {
      if (ctx.localTransport === undefined) {
        return {
          group,
          signedAt,
          signature,
          outcomes: everyone(group, {
            kind: 'rejected',
            details: { reason: `mail of the sandbox domain ${SANDBOX.domain} is never sent to the internet` },
          }),
        };
      }
      transport = ctx.localTransport;
    }
    destinations = [{ host: 'sandbox', port: 0 }];
  } else {
    if (route.kind === 'reject')
      return {
        group,
        signedAt,
        signature,
        outcomes: everyone(group, { kind: 'rejected', details: { reason: route.reason } }),
      };
    if (route.kind === 'defer')
      return {
        group,
        signedAt,
        signature,
        outcomes: everyone(group, { kind: 'deferred', error: route.reason, details: { reason: route.reason } }),
      };
    destinations = route.destinations;
    // MTA-STS and DANE are policies of the recipient domain's MX hosts: a smarthost is the operator's choice.
    if (deps.config.relayHost === null) {
      const security = await planSecurity(deps, group.recipientDomain, destinations);
      if (security.kind === 'defer') {
        await countTls(ctx, group.recipientDomain, security.notes, destinations, null);
        return {
          group,
          signedAt,
          signature,
          outcomes: everyone(group, {
            kind: 'deferred',
            error: security.reason,
            details: { reason: security.reason, tls: security.tls },
          }),
        };
      }
      destinations = security.destinations;
      notes = security.notes;
    }
  }
  const subject = group.items.length === 1 ? group.items[0]!.recipientId : groupSubject(group.items[0]!.recipientId);
  const attempt = Math.min(...group.items.map((i) => i.job.attempts)) + 1;
  const result = await transport.send({
    destinations,
    envelopeFrom: makeReturnPath(ctx.returnPathSecret, subject, m.domain),
    recipients: group.items.map((i) => i.address),
    raw: signed,
    // A large message's rendering (renderDeferred) is a buffer of its own, not used after this.
    rawHandedOver: m.deferredSize > 0,
    attempt,
  });
  let effects: ReplyEffects | undefined;
  // The host that answered decides the provider whose state the replies change; a 421 instead of
  // a session (the way some providers throttle) counts as that reply for every recipient.
  const refusal = result.kind === 'unreachable' ? sessionRefusal(result.error) : null;
  const replies =
    result.kind === 'transaction'
      ? result.recipients
      : refusal === null
        ? []
        : group.items.map((i) => ({ address: i.address, reply: refusal }));
  if (replies.length > 0 && ctx.shaping !== undefined && route !== null) {
    const answered = ctx.shaping.table.of(result.kind === 'transaction' ? result.mxHost : result.hostsTried[0]);
    effects = await observeReplies(deps, ctx.shaping, answered, replies, m.accountId).catch((err: unknown) => {
      // Shaping state is advice: a failed write must not lose the outcome of mail already sent.
      deps.log.error({ err, provider: answered }, 'recording what a provider replied failed');
      return undefined;
    });
  }
  if (notes !== null) await countTls(ctx, group.recipientDomain, notes, destinations, result);
  return { group, signedAt, signature, outcomes: fromTransaction(group, result, effects) };
}

/**
 * Counts the attempt for the domain's daily TLS report (RFC 8460): the policy problems found while
 * planning, each host a policy refused, and the session that carried the mail. Only sessions under
 * a policy (MTA-STS or DANE) are counted: a domain without one has nothing to be reported against.
 * A failure to count is logged, never a reason to deliver differently.
 */
async function countTls(
  ctx: DeliveryContext,
  domain: string,
  notes: PolicyNote[],
  destinations: Destination[],
  result: AttemptResult | null,
): Promise<void> {
  const results: TlsResult[] = notes.map((n) => ({
    report: n.report,
    mxHost: '',
    resultType: n.resultType,
    failureReason: n.reason,
  }));
  const reportOf = (host: string) => destinations.find((d) => d.host === host)?.tls?.report;
  for (const f of result?.tlsFailures ?? []) {
    const report = reportOf(f.host);
    if (report)
      results.push({
        report,
        mxHost: f.host,
        resultType: f.outcome.result_type ?? 'validation-failure',
        failureReason: f.outcome.failure ?? '',
      });
  }
  if (result?.kind === 'transaction' && result.tlsOutcome) {
    const o = result.tlsOutcome;
    const host = result.mxHost.replace(/:\d+$/, '');
    const report = reportOf(host);
    if (report)
      results.push({
        report,
        mxHost: host,
        resultType: o.validated ? 'success' : (o.result_type ?? 'validation-failure'),
        ...(o.validated ? {} : { failureReason: o.failure ?? '' }),
      });
  }
  if (results.length === 0) return;
  try {
    await recordTlsResults(ctx.deps.db, domain, ctx.deps.clock.now(), results);
  } catch (err) {
    ctx.deps.log.error({ err, domain }, 'could not count TLS results for the TLS report');
  }
}

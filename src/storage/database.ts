import type { Generated } from 'kysely';
/**
 * Kysely table types: the one description of Posthorn's storage, shared by SQLite and PostgreSQL.
 * Times are epoch milliseconds in BIGINT columns (SQL never calls now(): CONTRIBUTING.md, Conventions),
 * JSON is TEXT, flags are INTEGER 0/1, so both dialects read the same values.
 */
export interface Database {
  accounts: AccountTable;
  domains: DomainTable;
  api_keys: ApiKeyTable;
  smtp_credentials: SmtpCredentialTable;
  messages: MessageTable;
  recipients: RecipientTable;
  events: EventTable;
  suppressions: SuppressionTable;
  idempotency_keys: IdempotencyTable;
  jobs: JobTable;
  volume: VolumeTable;
  rate_limits: RateLimitTable;
  notices: NoticeTable;
  settings: SettingTable;
  sandbox_messages: SandboxMessageTable;
  sandbox_message_parts: SandboxMessagePartTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  inbound_reports: InboundReportTable;
  feedback_keys: FeedbackKeyTable;
  account_tokens: AccountTokenTable;
  users: UserTable;
  user_sessions: UserSessionTable;
  audit_log: AuditLogTable;
  provider_throttles: ProviderThrottleTable;
  provider_suspensions: ProviderSuspensionTable;
  templates: TemplateTable;
  template_versions: TemplateVersionTable;
  message_signatures: MessageSignatureTable;
  cluster_tasks: ClusterTaskTable;
  delivery_holds: DeliveryHoldTable;
  mta_sts_policies: MtaStsPolicyTable;
  tls_report_counts: TlsReportCountTable;
  tls_reports: TlsReportTable;
}

export interface AccountTable {
  id: string;
  name: string;
  /** Sends per second per sending domain (docs/api.md, Rate limits and quota). */
  rate_limit: number;
  /** Accepted recipients per calendar month (UTC); null is unlimited. */
  monthly_quota: number | null;
  created_at: number;
}

export const DOMAIN_STATUSES = ['pending', 'verified', 'warning', 'unverified'] as const;
/** pending: never verified; warning: verified, a record stopped matching (still sends); unverified: lost it. */
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export interface DomainTable {
  id: string;
  account_id: string;
  name: string;
  status: DomainStatus;
  /** 1 for the sandbox domain, verified without DNS: sandbox mail never leaves the machine. */
  sandbox: number;
  dkim_selector: string;
  dkim_private_key: string;
  dkim_public_key: string;
  verified_at: number | null;
  checked_at: number | null;
  /** When a re-check of a verified domain first failed; cleared when it passes again. */
  failing_since: number | null;
  /** JSON of the last DomainChecks. */
  last_checks: string | null;
  created_at: number;
  /** The optional second signature (RFC 8463), on when a key is set. */
  ed25519_selector: string | null;
  ed25519_private_key: string | null;
  /** Raw 32-byte public key, base64 (RFC 8463 §4.2). */
  ed25519_public_key: string | null;
  /** Tracking and unsubscribe defaults for this domain's messages (docs/tracking.md), each overridable per message (0/1). */
  track_opens: number;
  track_clicks: number;
  /** Add List-Unsubscribe and One-Click (RFC 8058) headers. */
  unsubscribe: number;
  /** When the last complaint-rate warning notice was raised (docs/inbound.md, Complaint rate), so it is not repeated on every complaint. */
  complaint_warned_at: number | null;
  /**
   * When the domain was deleted (docs/api.md, Management API): its credentials and webhook ended
   * then; the row stays for the mail it already accepted. Null while it is live; only live names are unique.
   */
  deleted_at: number | null;
  /** When the signing key began to sign: the age POSTHORN_DKIM_ROTATE_DAYS is counted from (docs/delivery.md). */
  dkim_key_created_at: number | null;
  /** The domain's own rotation schedule in days; null follows POSTHORN_DKIM_ROTATE_DAYS, 0 never rotates on schedule. */
  dkim_rotate_days: number | null;
  /** A rotation's new key, waiting for its record to be found in DNS; signing moves to it then. */
  dkim_pending_selector: string | null;
  /** Sealed like dkim_private_key, under its own field name (secrets/secret-fields.ts). */
  dkim_pending_private_key: string | null;
  dkim_pending_public_key: string | null;
  dkim_pending_since: number | null;
  /** JSON of the last CheckResult of the pending record. */
  dkim_pending_check: string | null;
  /** When the "pending record not found yet" notice was raised, so it is raised once. */
  dkim_pending_warned_at: number | null;
  /** The selector signing left at the last switch: its record stays listed until dkim_retired_until. */
  dkim_retired_selector: string | null;
  dkim_retired_public_key: string | null;
  dkim_retired_until: number | null;
}

export interface ApiKeyTable {
  id: string;
  domain_id: string;
  /** Public part shown in listings, e.g. `ph_a1b2c3d4`. */
  prefix: string;
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  key_hash: string;
  created_at: number;
  revoked_at: number | null;
  /** Updated at most once a minute (credentials/authenticate.ts), so a send costs no extra write. */
  last_used_at: number | null;
}

export interface SmtpCredentialTable {
  id: string;
  domain_id: string;
  username: string;
  password_hash: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface MessageTable {
  id: string;
  account_id: string;
  domain_id: string;
  /** Sender address after the from rewrite (docs/api.md, The from rules). */
  from_address: string;
  subject: string;
  /** JSON array of strings. */
  tags: string;
  /**
   * JSON MessageDraft (mime/message-draft.ts) fixed at submit: headers, Message-ID, Date, bodies.
   * Null once purged by body retention (POSTHORN_BODY_RETENTION).
   */
  content: string | null;
  /** The rendered RFC 5322 message, written once when first rendered; purged with `content`. */
  mime: string | null;
  size: number;
  created_at: number;
  /** Tracking and unsubscribe, resolved at submit from the domain's settings and the message's overrides (0/1). */
  track_opens: number;
  track_clicks: number;
  unsubscribe: number;
  /** JSON object of string values given at send (docs/api.md, Sending), carried into events. */
  metadata: string;
  /**
   * JSON `{"name","version"}` of the template the message was rendered from (docs/templates.md),
   * null for any other (optional, so rows written without it read as null). Read it with
   * `messageTemplate` (templates/message-template.ts).
   */
  template?: string | null;
  /** When a scheduled message was asked to go (migration 0018); null or absent: at once. */
  send_at?: number | null;
}

export interface RecipientTable {
  id: string;
  message_id: string;
  address: string;
  /** Lower-cased domain of the address: the delivery engine groups by it. */
  domain: string;
  status: string;
  updated_at: number;
}

export interface EventTable {
  id: string;
  account_id: string;
  domain_id: string;
  message_id: string;
  event: string;
  recipient: string;
  from_address: string;
  subject: string;
  tags: string;
  /**
   * The message's metadata, JSON (migration 0014); the column's default `{}` for events written
   * without it.
   */
  metadata?: string;
  details: string;
  occurred_at: number;
}

export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'unsubscribed', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export interface SuppressionTable {
  account_id: string;
  /** Lower-cased address. */
  address: string;
  reason: SuppressionReason;
  message_id: string | null;
  created_at: number;
  /** The sending domain whose mail caused it (bounce, complaint, unsubscribe), or as imported. */
  domain: string | null;
  /** For a `hard_bounce`: why, in the taxonomy of docs/bounces.md (core/bounce-reason.ts); null otherwise. */
  bounce_reason: string | null;
}

export interface IdempotencyTable {
  domain_id: string;
  key: string;
  /** SHA-256 of the canonical request, to tell a replay from a reuse (docs/api.md, Idempotency). */
  fingerprint: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  /** JSON body of the stored response. */
  response_body: string | null;
  /** An in-flight claim older than this was abandoned by a crash and may be taken over. */
  locked_until: number;
  expires_at: number;
  created_at: number;
}

export interface JobTable {
  id: string;
  kind: string;
  message_id: string;
  recipient_id: string;
  run_at: number;
  attempts: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  /** Mailbox provider of the MX host last tried (migration 0018), null until a route was resolved. */
  provider?: string | null;
  /** Id of the delivery hold that pushed the job back without an attempt (migration 0018), else null. */
  held?: string | null;
  /** When a hold first pushed the job back (migration 0018); the time since is not queue lifetime. */
  held_at?: number | null;
}

/** A held destination (docs/delivery.md): its mail waits, unattempted, until resumed or `until`. */
export interface DeliveryHoldTable {
  /** `<scope>:<value>:<account id or *>`. */
  id: string;
  scope: 'domain' | 'provider';
  /** A recipient domain (lower case) or a provider name (`gmail`, `outlook`, `yahoo`, `other`). */
  value: string;
  /** Null for a hold over every account's mail (the operator's); else the one account it holds. */
  account_id: string | null;
  reason: string | null;
  created_at: number;
  /** When the hold ends by itself; null: until resumed. */
  until: number | null;
  /** Who set it, as the audit log names actors. */
  actor: string;
}

export interface VolumeTable {
  account_id: string;
  /** `YYYY-MM`, UTC. */
  month: string;
  count: number;
}

export interface RateLimitTable {
  key: string;
  /** GCRA theoretical arrival time, epoch microseconds (sub-millisecond intervals for rates above 1,000/s). */
  tat: number;
}

export interface NoticeTable {
  id: string;
  account_id: string;
  domain_id: string | null;
  kind: string;
  message: string;
  details: string;
  created_at: number;
}

export interface SettingTable {
  key: string;
  value: string;
}

/** A message the sandbox transport kept instead of sending it (sandbox mode). */
export interface SandboxMessageTable {
  id: string;
  message_id: string;
  mail_from: string;
  /** JSON array of the envelope recipients. */
  recipients: string;
  /**
   * The message as signed, byte for byte; empty for a message over 1 MiB, whose bytes are in
   * sandbox_message_parts (read either with sandbox/sandbox-raw.ts).
   */
  raw: Buffer;
  created_at: number;
  /** 1 while a recipient's sandbox trigger (open@, click@, unsubscribe@…) has yet to act (sandbox/sandbox-triggers.ts). */
  triggers_pending: number;
}

/** One 1 MiB slice of a large sandbox message, in `seq` order from 0 (sandbox/sandbox-raw.ts). */
export interface SandboxMessagePartTable {
  sandbox_message_id: string;
  seq: number;
  bytes: Buffer;
}

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** The one webhook endpoint of a sending domain (docs/webhooks.md). */
export interface WebhookEndpointTable {
  id: string;
  domain_id: string;
  url: string;
  /** JSON array of {secret, created_at, expires_at|null}; during rotation the old one keeps signing until it expires. */
  secrets: string;
  status: WebhookEndpointStatus;
  /** First failure of the current run of failures; cleared by a 2xx. */
  failing_since: number | null;
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** The durable outbox: one row per event (or notice) per endpoint, written with the event, so neither exists without the other. */
export interface WebhookDeliveryTable {
  id: string;
  endpoint_id: string;
  /** The `webhook-id`: the event's (or notice's) id, the same on every attempt. */
  event_id: string;
  event: string;
  /** The exact JSON body, fixed when the event was written. */
  payload: string;
  state: WebhookDeliveryState;
  attempts: number;
  next_attempt_at: number;
  locked_by: string | null;
  locked_until: number | null;
  created_at: number;
  finished_at: number | null;
}

/** The delivery log: one row per POST attempt. */
export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
  /** HTTP status, null when no response was had (refused, network error, timeout). */
  status: number | null;
  duration_ms: number | null;
  response_snippet: string | null;
  error: string | null;
  attempted_at: number;
}

export const INBOUND_REPORT_STATES = ['pending', 'processed'] as const;
export type InboundReportState = (typeof INBOUND_REPORT_STATES)[number];

/** A report the inbound MX accepted: stored before the 250, processed after (nothing accepted is lost). */
export interface InboundReportTable {
  id: string;
  mail_from: string;
  /** JSON array of envelope recipients. */
  rcpt_to: string;
  remote_address: string;
  /** The raw message, latin1 so every byte survives a text column. */
  raw: string;
  state: InboundReportState;
  /** JSON: what processing found and did. */
  result: string | null;
  received_at: number;
  processed_at: number | null;
}

/** Keys of feedback already applied (`complained:<recipient id>`, ...): a report received twice produces one event. */
export interface FeedbackKeyTable {
  key: string;
  created_at: number;
}

export const TOKEN_ROLES = ['admin', 'viewer'] as const;
/** admin: every management route; viewer: reads only, never a secret (docs/management.md). */
export type TokenRole = (typeof TOKEN_ROLES)[number];

export interface AccountTokenTable {
  id: string;
  account_id: string;
  /** The label given at creation (`--name`), shown in listings and the audit log. */
  name: string;
  role: TokenRole;
  /** `pha_<8 hex>`: the public part, to tell tokens apart. */
  prefix: string;
  /** SHA-256 of the whole token (as API keys: credentials/api-key-format.ts). */
  token_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A dashboard user (docs/management.md, Users and sign-in). */
export interface UserTable {
  id: string;
  account_id: string;
  /** Lower-cased; unique across accounts, as it is the sign-in name. */
  email: string;
  role: TokenRole;
  /** `scrypt$N$r$p$salt$hash` (credentials/password-hash.ts). */
  password_hash: string;
  /** The confirmed TOTP secret (base32), sealed (secrets/secret-fields.ts); null when TOTP is off. */
  totp_secret: string | null;
  /** A secret handed out by enrolment and not yet confirmed with a code, sealed. */
  totp_pending: string | null;
  /** The last TOTP time step accepted, so a code is never taken twice (RFC 6238 §5.2). */
  totp_last_step: number | null;
  /** JSON array of the SHA-256 hashes of the unused recovery codes. */
  recovery_codes: string;
  /** 1 for the sandbox's demo login: refused outside sandbox mode. */
  sandbox: number;
  created_at: number;
  last_sign_in_at: number | null;
}

/** A dashboard session, stored server-side; the cookie holds the value whose SHA-256 is `id_hash`. */
export interface UserSessionTable {
  id_hash: string;
  user_id: string;
  /** Sent back in `X-CSRF-Token` on every state-changing request. */
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  /** `last_seen_at` plus the idle limit (12 h). */
  expires_at: number;
}

export interface AuditLogTable {
  id: string;
  account_id: string;
  at: number;
  /** Who: `token:<name>`, `user:<email>` or `cli`. */
  actor: string;
  /** What, as `<noun>.<verb>`: `domain.add`, `api_key.replace`, `suppression.import`, … */
  action: string;
  /** What it was done to: a domain name, an address, a token name. Never a secret. */
  target: string;
  ip: string | null;
}

/** A template of an account (docs/templates.md); its content is in its versions. */
export interface TemplateTable {
  /** `tmpl_…`. */
  id: string;
  account_id: string;
  /** A slug, `[a-z0-9][a-z0-9-_]{0,63}`, unique per account. */
  name: string;
  /** The newest version's number; versions count from 1. */
  latest_version: number;
  created_at: number;
  /** When the newest version was made. */
  updated_at: number;
}

/** One version of a template: never changed once written. */
export interface TemplateVersionTable {
  template_id: string;
  version: number;
  /** The sources, as given (Handlebars syntax). */
  subject: string;
  html: string | null;
  text: string | null;
  /** JSON array of the variable paths the version uses (`user.name`, `items[].price`). */
  variables: string;
  created_at: number;
}

/**
 * One signing of a delivery group (delivery/deliver-group.ts): the DKIM-Signature fields it put
 * before the message, and the SHA-256 of the whole signed message. With the message's stored body
 * (rendered the same way again, mime/render-mime.ts) they give back the source as delivered
 * (messages/message-source.ts). Purged with the bodies (POSTHORN_BODY_RETENTION).
 */
export interface MessageSignatureTable {
  id: string;
  message_id: string;
  /** JSON array of the `rcp_` ids the signed copy went to (one, for a tracked message). */
  recipient_ids: string;
  /** The signing time (DKIM `t=`), epoch ms. */
  signed_at: number;
  /**
   * The fields delivery prepended to the stored message, CRLF-terminated: the DKIM-Signature fields
   * and, for copies signed since Feedback-ID was added, the Feedback-ID (delivery/dkim/signed-copy.ts).
   */
  fields: string;
  /** SHA-256 of the signed message (fields and message), base64. */
  digest: string;
}

/** One periodic task that runs once per cluster per period (scheduler/cluster-task.ts). */
export interface ClusterTaskTable {
  name: string;
  /** The node running it now, or null between runs. */
  locked_by: string | null;
  /** End of the running node's lease, epoch ms; renewed while the task runs. */
  locked_until: number | null;
  /** When the last run started, epoch ms: the next may start one period later. */
  last_started_at: number;
  last_finished_at: number | null;
  /** Runs started so far, over the whole cluster. */
  runs: number;
}

/** A recipient domain's cached MTA-STS policy (RFC 8461 §5.1; delivery/security/sts-store.ts). */
export interface MtaStsPolicyTable {
  /** The policy domain, lower case. */
  domain: string;
  /** The `id` of the `_mta-sts` TXT record the policy was fetched for. */
  policy_id: string;
  mode: string;
  /** JSON array of the policy's `mx` patterns. */
  mx: string;
  /** `max_age` in seconds. */
  max_age: number;
  /** The policy as served, for TLS-RPT's `policy-string`. */
  policy_text: string;
  fetched_at: number;
  /** fetched_at + max_age: until then the policy is used even when a refresh fails (RFC 8461 §5). */
  expires_at: number;
}

/** One count of a day's TLS outcomes for a recipient domain (RFC 8460 §4.4; delivery/security/tls-report-store.ts). */
export interface TlsReportCountTable {
  domain: string;
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Digest of the fields below: one row per distinct policy, host, result and reason. */
  key: string;
  /** `sts`, `tlsa` or `no-policy-found` (RFC 8460 §4.3). */
  policy_type: string;
  /** JSON array of the policy's lines. */
  policy_string: string;
  /** JSON array of the policy's MX patterns. */
  policy_mx: string;
  /** The receiving MX host name; empty for a result that concerns no host (a policy fetch error). */
  mx_host: string;
  /** `success` or an RFC 8460 §4.3 result type. */
  result_type: string;
  failure_reason: string;
  count: number;
}

/** A (domain, day) whose TLS report was claimed by a node (and sent, once `sent_at` is set). */
export interface TlsReportTable {
  domain: string;
  day: string;
  report_id: string;
  claimed_at: number;
  sent_at: number | null;
  attempts: number;
  last_error: string | null;
}

/** A provider's adaptive pace (delivery/provider-state.ts, rule in delivery/rate-controller.ts). */
export interface ProviderThrottleTable {
  provider: string;
  /** Recipients per minute now. */
  rate: number;
  decreased_at: Generated<number>;
  increased_at: Generated<number>;
  throttle_events: Generated<number>;
  last_throttle_at: number | null;
  last_reply: string | null;
  updated_at: number;
}

/** A provider one node (POSTHORN_HOSTNAME) sends nothing to until `until`, after a reputation block. */
export interface ProviderSuspensionTable {
  provider: string;
  node: string;
  since: number;
  until: number;
  reply: string;
}

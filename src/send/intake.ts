import type { ApiError } from '../core/api-errors.js';
import type { AuthContext } from '../credentials/authenticate.js';
import type { SendRequest } from './send-request.js';

/** Which intake a submission came through: the `source` label of the `sends` metric. */
export type IntakeSource = 'http' | 'smtp';

/**
 * Who is sending, as the intake knows it; the authenticate step resolves it (docs/architecture.md,
 * "The submit pipeline").
 */
export type IntakeCredential =
  | {
      kind: 'api-key';
      /** The raw `Authorization` header. */
      authorization: string | undefined;
      /** The key already resolved from `authorization` (the API checks it before reading the body). */
      resolved?: AuthContext;
    }
  | {
      kind: 'smtp';
      /** The credential the session authenticated with; read again per message, so a revocation mid-session counts. */
      credentialId: string;
    };

/** The headers the compose step fixes on a relayed message (RFC 5322 §3.6). */
export interface OwnedHeaders {
  /** The sender after the sender-domain rule (docs/api.md, The from rules). */
  from: { name: string; address: string };
  messageId: string;
  date: string;
}

/** A request body of `POST /v1/send`: JSON the validate step checks (docs/api.md, Fields). */
export interface JsonRequest {
  kind: 'json';
  contentType: string | undefined;
  body: Buffer | undefined;
  /** The `Idempotency-Key` header. */
  idempotencyKey: string | undefined;
}

/**
 * A message submitted whole (the SMTP relay). Reading and rewriting its MIME are the relay's own
 * rules (smtp/parse-submission.ts, smtp/rewrite-submission.ts), so the intake passes them in as
 * functions: the validate step calls `parse`, the compose step `rewrite`.
 */
export interface WholeMessage {
  kind: 'mime';
  /** The validate step for this message: the request (its Idempotency-Key is a header of it), or the refusal. */
  parse(): { request: SendRequest; idempotencyKey: string | undefined } | ApiError;
  /** The compose step's rewrite: the message's bytes with its owned headers fixed, everything else kept. */
  rewrite(raw: Buffer, owned: OwnedHeaders): Buffer;
}

/**
 * One submission as an intake received it, the one value every intake hands the submit pipeline
 * (send/submit.ts): `http/routes/send.ts` builds it from a request, `smtp/relay-intake.ts` from a
 * message received by the relay.
 */
export interface Intake {
  source: IntakeSource;
  /**
   * Bytes received (the body, or the whole message): a large one goes through the pipeline's
   * byte budget before any step runs (docs/security.md).
   */
  size: number;
  credential: IntakeCredential;
  request: JsonRequest | WholeMessage;
}

import type { SmtpReply } from '../core/smtp-reply.js';
import type { TlsOutcome, TlsRequirement } from './security/tls-outcome.js';

/**
 * The contracts between the delivery engine's parts (docs/architecture.md, Delivery). The worker
 * resolves a route, signs, hands one SMTP transaction to a Transport and classifies each
 * recipient's reply.
 */

/** A host to connect to, in the order to try. */
export interface Destination {
  host: string;
  port: number;
  /** What MTA-STS or DANE asks of the session to this host (security/plan-security.ts); opportunistic TLS when absent. */
  tls?: TlsRequirement;
}

/** A host refused because its session did not meet its transport-security policy. */
export interface TlsFailure {
  host: string;
  outcome: TlsOutcome;
}

/** One SMTP transaction: one message to up to 100 recipients of one domain. */
export interface DeliveryAttempt {
  /** MX hosts in preference order (or the smarthost); the transport tries them in order. */
  destinations: Destination[];
  /** MAIL FROM: the signed return path on `bounce.<domain>`. */
  envelopeFrom: string;
  recipients: string[];
  /** The signed message. */
  raw: Buffer;
  /**
   * True when `raw`'s ArrayBuffer holds this message alone (at most a frame around it) and the
   * caller is done with it: a transport may then move those bytes to another thread instead of
   * copying them (the sandbox's, sandbox-transport.ts), and `raw` reads as empty afterwards.
   */
  rawHandedOver?: boolean;
  /** 1 for the first attempt of these recipients, 2 for the first retry… */
  attempt: number;
}

/** Each recipient's reply: its RCPT rejection, or the reply to the end of DATA. */
export interface RecipientReply {
  address: string;
  reply: SmtpReply;
}

export type AttemptResult =
  | {
      kind: 'transaction';
      /** The host that answered (for events' details). */
      mxHost: string;
      /** Negotiated TLS protocol (e.g. `TLSv1.3`), or null when the session stayed in plain text. */
      tls: string | null;
      /** The session's TLS judged against the host's policy; absent from transports without TLS (the sandbox mailbox). */
      tlsOutcome?: TlsOutcome;
      /** Hosts tried before this one that a policy refused (for TLS-RPT). */
      tlsFailures?: TlsFailure[];
      recipients: RecipientReply[];
    }
  | {
      /** No host took the transaction to the end of DATA (refused, timed out, dropped): retry everyone later. */
      kind: 'unreachable';
      error: string;
      hostsTried: string[];
      /** Hosts whose sessions did not meet their transport-security policy. */
      tlsFailures?: TlsFailure[];
    };

/** Sends transactions; implementations: SMTP over the network, and the sandbox mailbox. */
export interface Transport {
  send(attempt: DeliveryAttempt): Promise<AttemptResult>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

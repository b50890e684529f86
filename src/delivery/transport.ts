import type { SmtpReply } from '../core/smtp-reply.js';

/**
 * The contracts between the delivery engine's parts (docs/architecture.md, Delivery). The worker
 * resolves a route, signs, hands one SMTP transaction to a Transport and classifies each
 * recipient's reply.
 */

/** A host to connect to, in the order to try. */
export interface Destination {
  host: string;
  port: number;
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
      recipients: RecipientReply[];
    }
  | {
      /** No host took the transaction to the end of DATA (refused, timed out, dropped): retry everyone later. */
      kind: 'unreachable';
      error: string;
      hostsTried: string[];
    };

/** Sends transactions; implementations: SMTP over the network, and the sandbox mailbox. */
export interface Transport {
  send(attempt: DeliveryAttempt): Promise<AttemptResult>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

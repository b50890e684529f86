/**
 * What kind of refusal: the request is malformed or breaks a rule (`invalid`), names something that
 * does not exist (`not_found`), clashes with what is stored (`conflict`: a name already taken, a
 * concurrent change), or needs a verified domain (`unverified`: an API key is issued for a verified
 * sending domain only).
 */
export type RefusalReason = 'invalid' | 'not_found' | 'conflict' | 'unverified';

/** What a refusal is about, so an interface can say what to do next in its own terms. */
export interface RefusalSubject {
  kind: 'account' | 'domain' | 'webhook' | 'smtp_credential' | 'suppression' | 'template';
  /** Its name as the caller gave it, or as stored when it was found (a webhook: its domain's name). */
  name: string;
}

export interface RefusalDetails {
  /** The input at fault (`url`, `address`, `name`, …), when one is. */
  field?: string;
  subject?: RefusalSubject;
  /** A concurrent change got there first: the same request again may succeed. */
  retry?: boolean;
}

/**
 * A feature operation refused what it was asked (accounts, domains, credentials, suppression,
 * webhooks): thrown by the feature, in feature terms, and translated by each interface — the CLI
 * (`cli/refusal.ts`: its one-line stderr reason, exit status 1) and the HTTP API
 * (`http/refusal.ts`: an ApiError of `core/api-errors.ts`). The message says what is wrong; what to
 * run next is the interface's to add (`subject`, `retry`).
 */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
  readonly reason: RefusalReason;
  readonly field: string | undefined;
  readonly subject: RefusalSubject | undefined;
  readonly retry: boolean;

  constructor(reason: RefusalReason, message: string, details: RefusalDetails = {}) {
    super(message);
    this.reason = reason;
    this.field = details.field;
    this.subject = details.subject;
    this.retry = details.retry ?? false;
  }
}

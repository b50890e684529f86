import type { Intake } from '../send/intake.js';
import type { SendRequest } from '../send/send-request.js';
import { parseSubmission, type Envelope } from './parse-submission.js';
import { rewriteSubmission } from './rewrite-submission.js';

/**
 * A message received by the relay as the submit pipeline's intake value: the session's credential
 * (read again by the authenticate step), and the message with the relay's own parser and rewrite
 * (parse-submission.ts, rewrite-submission.ts), which the pipeline calls at its validate and
 * compose steps, after authentication and inside its budget for large messages.
 */
export function relayIntake(input: { credentialId: string; raw: Buffer; envelope: Envelope }): Intake {
  const { raw, envelope } = input;
  return {
    source: 'smtp',
    size: raw.length,
    credential: { kind: 'smtp', credentialId: input.credentialId },
    request: {
      kind: 'mime',
      parse() {
        const sub = parseSubmission(raw, envelope);
        if ('error' in sub) return sub.error;
        const request: SendRequest = {
          from: sub.from,
          to: sub.recipients,
          subject: sub.subject,
          html: null,
          text: null,
          tags: sub.tags,
          headers: [],
          mime: { raw, fingerprint: sub.fingerprint },
          tracking: {
            ...(sub.options.trackOpens !== undefined ? { opens: sub.options.trackOpens } : {}),
            ...(sub.options.trackClicks !== undefined ? { clicks: sub.options.trackClicks } : {}),
            ...(sub.options.unsubscribe !== undefined ? { unsubscribe: sub.options.unsubscribe } : {}),
          },
        };
        if (sub.options.sendAt !== undefined) request.sendAt = sub.options.sendAt;
        return { request, idempotencyKey: sub.idempotencyKey };
      },
      rewrite: rewriteSubmission,
    },
  };
}

import type { Mailbox } from '../core/mailbox.js';

/**
 * What the compose step fixes at submit time and stores with the message (messages.content):
 * everything that makes the message what it is — Message-ID, Date, the rewritten From, bodies and
 * custom headers — so every delivery attempt renders the same message. Rendering to MIME
 * (render-mime.ts) is left to the delivery engine, off the request path.
 */
export interface MessageDraft {
  messageId: string;
  date: string;
  from: { name: string; address: string };
  to: { name: string; address: string }[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: [string, string][];
}

/** Builds the draft: Message-ID on `{smtp_host}` carrying the message id, so replies and bounces that quote it can be matched. */
export function composeDraft(input: {
  id: string;
  hostname: string;
  now: number;
  from: Mailbox;
  to: Mailbox[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: [string, string][];
}): MessageDraft {
  return {
    messageId: `<${input.id}@${input.hostname}>`,
    date: new Date(input.now).toUTCString().replace('GMT', '+0000'),
    from: { name: input.from.name, address: input.from.address },
    to: input.to.map((m) => ({ name: m.name, address: m.address })),
    subject: input.subject,
    html: input.html,
    text: input.text,
    headers: input.headers,
  };
}

import type { Mailbox } from '../core/mailbox.js';

/** A file of the message as stored: its bytes as base64 (RFC 4648 §4), ready for the MIME part. */
export interface DraftAttachment {
  filename: string;
  contentType: string;
  /** Set for an inline part the html refers to as `cid:<contentId>` (RFC 2392). */
  contentId: string | null;
  content: string;
}

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
  /**
   * Cc and Reply-To, when given. Bcc recipients are not in the draft at all: they have recipients
   * rows and deliveries, and the message every recipient gets never names them. Absent in drafts
   * stored before these fields existed.
   */
  cc?: { name: string; address: string }[];
  replyTo?: { name: string; address: string }[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: [string, string][];
  attachments?: DraftAttachment[];
}

/** Builds the draft: Message-ID on `{smtp_host}` carrying the message id, so replies and bounces that quote it can be matched. */
export function composeDraft(input: {
  id: string;
  hostname: string;
  now: number;
  from: Mailbox;
  to: Mailbox[];
  cc?: Mailbox[] | undefined;
  replyTo?: Mailbox[] | undefined;
  subject: string;
  html: string | null;
  text: string | null;
  headers: [string, string][];
  attachments?: DraftAttachment[] | undefined;
}): MessageDraft {
  const mailboxes = (list: Mailbox[]) => list.map((m) => ({ name: m.name, address: m.address }));
  const draft: MessageDraft = {
    messageId: `<${input.id}@${input.hostname}>`,
    date: new Date(input.now).toUTCString().replace('GMT', '+0000'),
    from: { name: input.from.name, address: input.from.address },
    to: mailboxes(input.to),
    subject: input.subject,
    html: input.html,
    text: input.text,
    headers: input.headers,
  };
  // Set only when given, so a draft without them is stored as it always was.
  if (input.cc && input.cc.length > 0) draft.cc = mailboxes(input.cc);
  if (input.replyTo && input.replyTo.length > 0) draft.replyTo = mailboxes(input.replyTo);
  if (input.attachments && input.attachments.length > 0)
    draft.attachments = input.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      contentId: a.contentId,
      content: a.content,
    }));
  return draft;
}

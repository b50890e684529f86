import { isAscii } from 'node:buffer';
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

/** What composeDraft takes from the request: everything of the draft but its Message-ID, Date, From, To and Subject. */
export interface DraftBodiesInput {
  html: string | null;
  text: string | null;
  headers: [string, string][];
  cc?: Mailbox[] | undefined;
  replyTo?: Mailbox[] | undefined;
  attachments?: DraftAttachment[] | undefined;
}

/** The fields of a draft that come after its Subject, in the order the stored JSON has them. */
export type DraftBodies = Pick<MessageDraft, 'html' | 'text' | 'headers' | 'cc' | 'replyTo' | 'attachments'>;

const mailboxes = (list: Mailbox[]) => list.map((m) => ({ name: m.name, address: m.address }));

/**
 * The draft's fields from `html` on. They depend on the request alone, so a large message's are
 * serialised on the offload thread that validated it (src/send/offload.ts) and joined to the rest
 * by storedDraft: the same text as `JSON.stringify(composeDraft(...))`, as they are the members
 * composeDraft writes after the Subject, in its order.
 */
export function draftBodies(input: DraftBodiesInput): DraftBodies {
  const bodies: DraftBodies = { html: input.html, text: input.text, headers: input.headers };
  setOptionalBodies(bodies, input);
  return bodies;
}

/** The draft's members after `headers`, set only when given, so a draft without them is stored as it always was. */
function setOptionalBodies(target: DraftBodies, input: DraftBodiesInput): void {
  if (input.cc && input.cc.length > 0) target.cc = mailboxes(input.cc);
  if (input.replyTo && input.replyTo.length > 0) target.replyTo = mailboxes(input.replyTo);
  if (input.attachments && input.attachments.length > 0)
    target.attachments = input.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      contentId: a.contentId,
      content: a.content,
    }));
}

/** The draft's fields before its bodies. */
export type DraftHead = Pick<MessageDraft, 'messageId' | 'date' | 'from' | 'to' | 'subject'>;

export function draftHead(input: {
  id: string;
  hostname: string;
  now: number;
  from: Mailbox;
  to: Mailbox[];
  subject: string;
}): DraftHead {
  return {
    messageId: `<${input.id}@${input.hostname}>`,
    date: new Date(input.now).toUTCString().replace('GMT', '+0000'),
    from: { name: input.from.name, address: input.from.address },
    to: mailboxes(input.to),
    subject: input.subject,
  };
}

/** Builds the draft: Message-ID on `{smtp_host}` carrying the message id, so replies and bounces that quote it can be matched. */
export function composeDraft(
  input: {
    id: string;
    hostname: string;
    now: number;
    from: Mailbox;
    to: Mailbox[];
    subject: string;
  } & DraftBodiesInput,
): MessageDraft {
  // One literal, not draftHead and draftBodies spread together: the small sends' path, where
  // building and stringifying the merged object cost half as much again (a few µs a send). The
  // members are those of draftHead and draftBodies in the same order (test/storage/large-messages.test.ts).
  const head = draftHead(input);
  const draft: MessageDraft = {
    messageId: head.messageId,
    date: head.date,
    from: head.from,
    to: head.to,
    subject: head.subject,
    html: input.html,
    text: input.text,
    headers: input.headers,
  };
  setOptionalBodies(draft, input);
  return draft;
}

/**
 * The stored JSON (messages.content) of a draft whose bodies were serialised elsewhere:
 * `bodiesJson` is the UTF-8 of `JSON.stringify(draftBodies(...))`. The result is the text
 * `JSON.stringify(composeDraft(...))` would be, as bytes (off the JavaScript heap) and as a string
 * to bind; a string that is all ASCII, as JSON of Latin or escaped text is, is decoded as latin1,
 * which Node keeps outside the heap for a large one instead of a heap copy.
 */
export function storedDraft(
  input: { id: string; hostname: string; now: number; from: Mailbox; to: Mailbox[]; subject: string },
  bodiesJson: Uint8Array,
): { content: string; bytes: number } {
  if (bodiesJson[0] !== 0x7b || bodiesJson[bodiesJson.length - 1] !== 0x7d)
    throw new Error('the serialised bodies of a draft are not a JSON object');
  const head = JSON.stringify(draftHead(input));
  // `{...head}` + `{...bodies}` → `{...head,...bodies}`: the same members in the same order.
  const json = Buffer.concat([Buffer.from(`${head.slice(0, -1)},`, 'utf8'), bodiesJson.subarray(1)]);
  return { content: json.toString(isAscii(json) ? 'latin1' : 'utf8'), bytes: json.length };
}

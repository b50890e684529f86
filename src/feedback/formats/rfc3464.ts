import { bodyText } from '../../mime/parse-mime.js';
import { dsnFound } from '../dsn.js';
import type { BounceFormat } from './types.js';

/** RFC 3464 §2.1 and RFC 6533 §6.1 (message/global-delivery-status, UTF-8 fields). */
const DELIVERY_STATUS_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);

/**
 * Standard delivery status notifications: a message/delivery-status part, in a multipart/report
 * (RFC 6522) or, as some servers send it, in a multipart/mixed.
 */
export const rfc3464: BounceFormat = {
  id: 'rfc3464',
  family: 'RFC 3464 delivery status notification (any MTA)',
  detect: (ctx) => ctx.own.some((p) => DELIVERY_STATUS_TYPES.has(p.type)),
  extract: (ctx) => ctx.own.filter((p) => DELIVERY_STATUS_TYPES.has(p.type)).flatMap((p) => dsnFound(bodyText(p))),
  source: 'RFC 3464 §2 (Final-Recipient, Action, Status, Diagnostic-Code); RFC 6522 §3 (multipart/report)',
};

/**
 * Delivery-status fields written into a text part instead of their own part (Amazon WorkMail,
 * some gateways): `Final-Recipient:`, `Action:`, `Status:` lines in the body text.
 */
export const rfc3464Text: BounceFormat = {
  id: 'rfc3464-text',
  family: 'RFC 3464 fields in a text part (Amazon WorkMail, gateways)',
  detect: (ctx) =>
    /^(?:Final|Original)-Recipient:\s*\S/im.test(ctx.mtaText) && /^(?:Action|Status):/im.test(ctx.mtaText),
  extract: (ctx) =>
    dsnFound(ctx.mtaText.replace(/^[ \t]+(?=(?:Final|Original)-Recipient:|Action:|Status:|Diagnostic-Code:)/gim, '')),
  source:
    'Amazon WorkMail: "An error occurred while trying to deliver the mail to the following recipients:" then "Technical report:" with "Action: failed", "Final-Recipient: rfc822; …", "Status: 5.1.1"',
};

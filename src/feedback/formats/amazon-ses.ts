import type { BounceReason } from '../../core/bounce-reason.js';
import type { BounceFormat, FoundRecipient } from './types.js';

/**
 * Amazon SES bounce and complaint notifications delivered by email (an SNS subscription or SES's
 * own feedback forwarding): a JSON object with `notificationType` (or `eventType`) `Bounce` or
 * `Complaint`. The bounce type and sub-type say the reason outright.
 */
const SUBTYPE_REASON: Record<string, BounceReason> = {
  noemail: 'user_unknown',
  suppressed: 'user_unknown',
  onaccountsuppressionlist: 'user_unknown',
  mailboxfull: 'mailbox_full',
  messagetoolarge: 'message_too_big',
  contentrejected: 'content_filtered',
  attachmentrejected: 'content_filtered',
};

interface SesRecipient {
  emailAddress?: unknown;
  action?: unknown;
  status?: unknown;
  diagnosticCode?: unknown;
}

function json(text: string): Record<string, unknown> | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  // Long JSON lines arrive folded by the mail system: a line break and one space inserted.
  const body = text.slice(start, end + 1);
  for (const candidate of [body, body.replace(/\r?\n /g, ''), body.replace(/\r?\n\s*/g, ' ')]) {
    const v = parsed(candidate);
    if (v) return v;
  }
  return null;
}

function parsed(body: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(body);
    if (typeof v !== 'object' || v === null) return null;
    // An SNS envelope carries the SES notification as a JSON string in Message.
    const msg = (v as { Message?: unknown }).Message;
    if (typeof msg === 'string') return json(msg);
    return v as Record<string, unknown>;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export const amazonSes: BounceFormat = {
  id: 'amazon-ses',
  family: 'Amazon SES (JSON notification)',
  detect: (ctx) => /\\?"(?:notificationType|eventType)\\?"\s*:\s*\\?"(?:Bounce|Complaint)\\?"/.test(ctx.text),
  extract: (ctx) => {
    const n = json(ctx.text);
    if (!n) return [];
    const type = str(n.notificationType) ?? str(n.eventType);
    if (type === 'Complaint') {
      const c = (n.complaint ?? {}) as { complainedRecipients?: SesRecipient[]; complaintFeedbackType?: unknown };
      return (c.complainedRecipients ?? []).flatMap((r): FoundRecipient[] => {
        const address = str(r.emailAddress);
        return address
          ? [
              {
                address,
                action: null,
                status: null,
                diagnostic: '',
                feedbackType: str(c.complaintFeedbackType) ?? 'abuse',
              },
            ]
          : [];
      });
    }
    const b = (n.bounce ?? {}) as { bouncedRecipients?: SesRecipient[]; bounceType?: unknown; bounceSubType?: unknown };
    const permanent = str(b.bounceType) === 'Permanent';
    const sub = (str(b.bounceSubType) ?? '').toLowerCase();
    return (b.bouncedRecipients ?? []).flatMap((r): FoundRecipient[] => {
      const address = str(r.emailAddress);
      if (!address) return [];
      const known = SUBTYPE_REASON[sub];
      return [
        {
          address,
          action: str(r.action) ?? 'failed',
          status: str(r.status) ?? (permanent ? '5.0.0' : '4.0.0'),
          diagnostic: str(r.diagnosticCode) ?? `${str(b.bounceType) ?? ''} ${str(b.bounceSubType) ?? ''}`.trim(),
          ...(known && (permanent || !['user_unknown'].includes(known)) ? { reason: known } : {}),
        },
      ];
    });
  },
  source:
    'Amazon SES Developer Guide, "Contents of notifications": {"notificationType":"Bounce","bounce":{"bounceType":"Permanent","bounceSubType":"General","bouncedRecipients":[{"emailAddress":…,"status":"5.1.1","diagnosticCode":"smtp; 550 5.1.1 user unknown"}]}}',
};

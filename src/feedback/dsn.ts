import { addressOf, field, fieldLines, parseFieldGroups, typedValue } from './dsn-fields.js';
import { classifyRecipient, findStatus, inferAction, replyFrom } from './classify-recipient.js';
import type { ReportRecipient } from './types.js';

/**
 * The recipients of a delivery-status body (RFC 3464 §2.3): Final-Recipient (or Original-Recipient
 * when the final one is missing), Action, Status, Diagnostic-Code. The first group is per-message
 * (RFC 3464 §2.2) and is skipped; a group without any recipient field is skipped too.
 */
export function dsnRecipients(body: string): ReportRecipient[] {
  const groups = parseFieldGroups(body);
  const perRecipient = groups.filter((g) => g.has('final-recipient') || g.has('original-recipient'));
  return perRecipient.flatMap((group) => {
    const address = addressOf(field(group, 'final-recipient')) ?? addressOf(field(group, 'original-recipient'));
    if (address === null) return [];
    const status = findStatus(field(group, 'status'));
    const action = inferAction(field(group, 'action'), status);
    const rawDiagnostic = fieldLines(group, 'diagnostic-code');
    const diagnosticText = rawDiagnostic === null ? null : typedValue(rawDiagnostic).text;
    const reply = replyFrom(diagnosticText, status);
    const diagnostic = diagnosticText === null ? null : diagnosticText.replace(/\s*\n\s*/g, ' ');
    return [{ address, action, status, class: classifyRecipient(action, reply), diagnostic }];
  });
}

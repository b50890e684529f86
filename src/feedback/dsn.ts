import { addressOf, field, fieldLines, parseFieldGroups, typedValue } from './dsn-fields.js';
import { findStatus, inferAction } from './classify-recipient.js';
import type { FoundRecipient } from './formats/types.js';

/**
 * The recipients of a delivery-status body (RFC 3464 §2.3): Final-Recipient, else
 * X-Actual-Recipient (Sendmail, Exchange) or Original-Recipient when the final one is missing or not
 * an address, Action, Status, Diagnostic-Code. The first group is per-message (RFC 3464 §2.2); a
 * group without any recipient field is skipped, and so is a recipient already named.
 */
export function dsnFound(body: string): FoundRecipient[] {
  const groups = parseFieldGroups(body);
  const perRecipient = groups.filter(
    (g) => g.has('final-recipient') || g.has('original-recipient') || g.has('x-actual-recipient'),
  );
  const seen = new Set<string>();
  return perRecipient.flatMap((group) => {
    const candidates = [
      addressOf(field(group, 'final-recipient')),
      addressOf(field(group, 'x-actual-recipient')),
      addressOf(field(group, 'original-recipient')),
    ];
    const address = candidates.find((a) => a !== null && a.includes('@')) ?? candidates.find((a) => a !== null);
    if (!address || seen.has(address.toLowerCase())) return [];
    seen.add(address.toLowerCase());
    const rawDiagnostic = fieldLines(group, 'diagnostic-code');
    const diagnostic = rawDiagnostic === null ? '' : typedValue(rawDiagnostic).text;
    const status = findStatus(field(group, 'status'));
    return [{ address, action: inferAction(field(group, 'action'), status), status, diagnostic }];
  });
}

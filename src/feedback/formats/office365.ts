import { addressesInLine, isAddress, lastReply, linesAfter, oneLine } from './text-helpers.js';
import type { BounceFormat, FoundRecipient } from './types.js';

/**
 * Exchange 2010+ and Microsoft 365 text NDRs: "Delivery has failed to these recipients or groups:",
 * each address on its own line (often followed by `<mailto:…>`), then the explanation; the remote
 * reply is under "Diagnostic information for administrators" as `Remote Server returned '550 …'`.
 */
export const office365: BounceFormat = {
  id: 'office365',
  family: 'Microsoft Exchange 2010+ / Microsoft 365 / Outlook.com (text NDR)',
  detect: (ctx) =>
    /Delivery has failed to these recipients or groups:|Your message (?:to .* )?couldn'?t be delivered|Your message wasn'?t delivered to/i.test(
      ctx.mtaText,
    ),
  extract: (ctx) => {
    const text = ctx.mtaText;
    const lines = linesAfter(
      text,
      /Delivery has failed to these recipients or groups:|couldn'?t be delivered|wasn'?t delivered to/i,
    );
    const addresses = [
      ...new Set(
        lines
          .slice(0, 40)
          .filter((l) => /^\s*\S+@\S+/.test(l))
          .flatMap((l) => addressesInLine(l).slice(0, 1))
          .filter(isAddress),
      ),
    ];
    const remote = /Remote Server returned '([^']*)'?/i.exec(text)?.[1] ?? null;
    const status = /#([45]\.\d{1,3}\.\d{1,3})/.exec(text)?.[1] ?? null;
    const explanation = oneLine(
      lines
        .slice(0, 12)
        .filter((l) => !/@/.test(l))
        .join(' '),
    );
    return addresses.map((address): FoundRecipient => ({
      address,
      action: 'failed',
      status,
      diagnostic: oneLine(remote ?? lastReply(text) ?? explanation),
    }));
  },
  source:
    'Microsoft 365 NDR: "Delivery has failed to these recipients or groups: user@example.org … The email address wasn\'t found at the destination domain." and "Remote Server returned \'550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup\'"',
};

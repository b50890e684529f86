import { isAddress, oneLine } from './text-helpers.js';
import type { BounceFormat, FoundRecipient } from './types.js';

/**
 * `<address>: reason` with the reason's further lines indented (Postfix's bounce(8) text, also
 * used by OpenSMTPD-like and many appliance MTAs). A line `<address> (expanded from <alias>): …`
 * counts too.
 */
export function angleColonBlocks(text: string): FoundRecipient[] {
  const out: FoundRecipient[] = [];
  let current: { address: string; lines: string[] } | null = null;
  const flush = () => {
    if (current)
      out.push({ address: current.address, action: null, status: null, diagnostic: oneLine(current.lines.join(' ')) });
    current = null;
  };
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s{0,4}<([^<>\s]+@[^<>\s]+)>(?:\s*\(expanded from [^)]*\))?\s*:\s*(.*)$/.exec(line);
    if (m && isAddress(m[1] as string)) {
      flush();
      current = { address: m[1] as string, lines: [m[2] as string] };
    } else if (current && /^\s+\S/.test(line)) current.lines.push(line.trim());
    else flush();
  }
  flush();
  return out;
}

export const postfix: BounceFormat = {
  id: 'postfix',
  family: 'Postfix (text report)',
  detect: (ctx) => /This is the (?:Postfix program|mail system) at host /i.test(ctx.mtaText),
  extract: (ctx) => {
    const delayed = /THIS IS A WARNING ONLY|Delayed Mail \(still being retried\)/i.test(ctx.mtaText + ctx.subject);
    return angleColonBlocks(ctx.mtaText).map((r) => ({ ...r, action: delayed ? 'delayed' : 'failed' }));
  },
  source:
    'Postfix bounce(8) default template: "This is the mail system at host mx.example.com. I\'m sorry to have to inform you that your message could not be delivered to one or more recipients." then "<user@example.org>: host mx.example.org[192.0.2.1] said: 550 5.1.1 … (in reply to RCPT TO command)"',
};

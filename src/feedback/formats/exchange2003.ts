import { isAddress, oneLine } from './text-helpers.js';
import type { BounceFormat, FoundRecipient } from './types.js';

/**
 * Exchange 5.5/2000/2003 text NDRs: "Your message … did not reach the following recipient(s):",
 * then `address on DATE` and the indented reason ("The recipient name is not recognized",
 * `MSEXCH:IMS:… Unknown Recipient`).
 */
export const exchange2003: BounceFormat = {
  id: 'exchange2003',
  family: 'Microsoft Exchange 5.5–2003 (text NDR)',
  detect: (ctx) => /did not reach the following recipient\(s\):/i.test(ctx.mtaText),
  extract: (ctx) => {
    const out: FoundRecipient[] = [];
    const lines = ctx.mtaText.split(/\r?\n/);
    const start = lines.findIndex((l) => /did not reach the following recipient\(s\):/i.test(l));
    let current: FoundRecipient | null = null;
    for (const line of lines.slice(start + 1)) {
      const m = /^\s*'?([^\s'<>]+@[^\s'<>]+?)'?\s+on\s+\S.*$/.exec(line);
      if (m && isAddress(m[1] as string)) {
        current = { address: m[1] as string, action: 'failed', status: null, diagnostic: '' };
        out.push(current);
      } else if (current && /^\s+\S/.test(line)) {
        if (!/MTS-ID|^\s*;l=/.test(line)) current.diagnostic = oneLine(`${current.diagnostic} ${line}`);
      } else if (line.trim() !== '' && current) current = null;
    }
    return out;
  },
  source:
    'Exchange 2003 NDR: "Your message … did not reach the following recipient(s): user@example.org on DATE The recipient name is not recognized … MSEXCH:IMS:… Unknown Recipient"',
};

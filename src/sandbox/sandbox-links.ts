import { splitMessage } from '../mime/split-message.js';
import { htmlBodies } from '../tracking/mime.js';

/** The tracking tokens a delivered message carries, as a reader's mail client would find them. */
export interface DeliveredTokens {
  open: string | null;
  /** Click tokens in document order: the first is the first tracked link. */
  clicks: string[];
  unsubscribe: string | null;
}

const TOKEN = '([A-Za-z0-9_-]+)';

/** Reads the pixel, the tracked links and the List-Unsubscribe URL out of a signed message. */
export function deliveredTokens(raw: Buffer): DeliveredTokens {
  const html = htmlBodies(raw.toString('latin1')).join('\n');
  const open = new RegExp(`<img[^>]+src="[^"]*/t/o/${TOKEN}"`).exec(html)?.[1] ?? null;
  const clicks = [...html.matchAll(new RegExp(`href="[^"]*/t/c/${TOKEN}"`, 'g'))].map((m) => m[1] as string);
  const field = splitMessage(raw).fields.find((f) => f.name === 'list-unsubscribe');
  const unsubscribe = field
    ? (new RegExp(`<[^>]*/u/${TOKEN}>`).exec(field.text.replace(/\r\n[ \t]/g, ' '))?.[1] ?? null)
    : null;
  return { open, clicks, unsubscribe };
}

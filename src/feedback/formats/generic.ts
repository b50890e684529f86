import { addressesIn } from '../arf.js';
import { header } from '../../mime/parse-mime.js';
import { addressesInLine, lastReply, oneLine } from './text-helpers.js';
import type { BounceFormat, FoundRecipient, ReportContext } from './types.js';

/**
 * The last resort for reports no family module claims (Domino, Notes, the Japanese carriers,
 * appliances and gateways, localised servers): a message that says it is a delivery failure (by
 * its sender, subject or wording) whose own text names the failed addresses. Each address gets
 * the text written around it; the quoted SMTP reply, when there is one, is the diagnostic.
 */
const BOUNCE_SENDER =
  /\b(?:mailer-daemon|post_?master|mail ?delivery|mail ?deliver(?:y)? ?(?:system|subsystem|service)|mdaemon|mail ?administrator|bounces?|no-?reply|nobody|daemon)\b/i;
const BOUNCE_SUBJECT =
  /undeliver|not (?:be )?delivered|deliver(?:y|ed)? (?:status|fail|failure|has failed|problem|error|notification|incomplete)|returned mail|return(?:ed)? to sender|failure notice|\bfailure\b|error sending|mail (?:delivery|system) (?:failed|error)|could not (?:be )?(?:send|deliver)|non remis|non recapitabile|unzustellbar|nicht zustellbar|no entregado|error de entrega|rejected|failed|bounce|warning|delayed|エラー|配信|返送|未達|不達/i;
const BOUNCE_TEXT =
  /could not be delivered|couldn'?t be delivered|undeliverable|delivery (?:to the following|has failed|failed|problem)|permanent(?:ly)? (?:error|fatal|failure)|failed permanently|following (?:address|recipient)|was rejected|not be delivered|unable to deliver|had delivery (?:errors|problems)|non-delivered|returned (?:mail|message)|failure reasons?|error message below|trouble delivering|rejected recipient|error sending|invalid (?:user|recipient) address|incorrectly constructed|could not be delivered|配信|届きません|送信できません/i;

/** Local parts that are the reporting system, not a failed recipient. */
const SYSTEM_LOCAL =
  /^(?:postmaster|mailer-daemon|mail-daemon|mdaemon|root|abuse|noreply|no-reply|bounces?|nobody|daemon|mailerdaemon)$/i;

export function looksLikeBounce(ctx: ReportContext): boolean {
  const returnPath = header(ctx.root.headers, 'return-path') ?? '';
  const nullSender = /^<\s*>$/.test(returnPath.trim());
  const sender = BOUNCE_SENDER.test(ctx.from);
  const subject = BOUNCE_SUBJECT.test(ctx.subject);
  const words = BOUNCE_TEXT.test(ctx.mtaText);
  return (words && (sender || subject || nullSender)) || (sender && subject) || (nullSender && subject);
}

function excluded(ctx: ReportContext): Set<string> {
  const own = ['to', 'from', 'reply-to', 'sender', 'delivered-to', 'x-original-to'].flatMap((n) =>
    addressesIn(header(ctx.root.headers, n)),
  );
  const original = ctx.original
    ? ['from', 'return-path', 'sender', 'reply-to'].flatMap((n) => addressesIn(header(ctx.original ?? [], n)))
    : [];
  return new Set([...own, ...original].map((a) => a.toLowerCase()));
}

/** A text that quotes a reply itself: a code at its start, after `<<<`, `said:` or a bracket. */
const QUOTES_REPLY = /(?:^|<<<\s*|said:\s*|\[)[245]\d\d(?:[ -]|$)/;

/** The text near line `i`: that line and the next few non-empty ones, up to a blank line after content. */
function around(lines: string[], i: number): string {
  const out: string[] = [lines[i] as string];
  // A line holding only the address: the reason is usually the line before it (Notes) or after it.
  const previous = lines[i - 1]?.trim() ?? '';
  if (
    /^\s*<?[^\s<>]+@[^\s<>]+>?\s*$/.test(lines[i] as string) &&
    previous !== '' &&
    !/^-{3,}|:\s*$/.test(previous) &&
    !/@/.test(previous)
  )
    out.unshift(previous);
  const ownReply = /^\s*[245]\d\d\b/.test(lines[i] as string);
  for (const line of lines.slice(i + 1, i + 8)) {
    if (line.trim() === '' && out.length > 1) break;
    // A transcript: the next reply, or the next address, is about someone else.
    if (addressesInLine(line).length > 0 || (ownReply && /^\s*(?:<<<|>>>)?\s*[245]\d\d\b/.test(line))) break;
    if (/^\s*-{3,}/.test(line)) break;
    if (line.trim() !== '') out.push(line.trim());
  }
  // The line before often says what happened ("The following address failed:", a reason heading).
  return oneLine(out.join(' '));
}

export const generic: BounceFormat = {
  id: 'generic',
  family: 'any other delivery failure report (wording)',
  detect: looksLikeBounce,
  extract: (ctx) => {
    const skip = excluded(ctx);
    const lines = ctx.mtaText.split(/\r?\n/);
    const found = new Map<string, FoundRecipient>();
    const reply = lastReply(ctx.mtaText);
    const delayed =
      /\b(?:will (?:continue|keep) (?:trying|to try|retrying)|has not yet been delivered|not yet been delivered|delivery (?:has been |is )?delayed|warning message only|still (?:being )?(?:retried|trying))\b/i.test(
        ctx.mtaText,
      );
    lines.forEach((line, i) => {
      // In a line naming one address in angle brackets and others bare, the bracketed one is the address.
      const angled = [...line.matchAll(/<([^<>\s]+@[^<>\s]+)>/g)].map((m) => m[1] as string);
      const inLine = angled.length > 0 ? addressesInLine(angled.join(' ')) : addressesInLine(line);
      for (const address of inLine) {
        const key = address.toLowerCase();
        const local = key.slice(0, key.lastIndexOf('@'));
        if (skip.has(key) || SYSTEM_LOCAL.test(local) || found.has(key)) continue;
        // Addresses in Received-style lines or URLs are not recipients.
        if (/^\s*(?:Received|Message-Id|In-Reply-To|References|From|Return-Path|Reply-To|Sender):/i.test(line))
          continue;
        const near = around(lines, i);
        const diagnostic = reply && !QUOTES_REPLY.test(near) ? `${near} ${reply}` : near;
        found.set(key, {
          address,
          action: delayed ? 'delayed' : 'failed',
          status: null,
          diagnostic: oneLine(diagnostic),
        });
      }
    });
    if (found.size > 0) {
      // Each recipient's diagnostic is its own text, plus the report's wording when that is all there is.
      const whole = oneLine(ctx.mtaText).slice(0, 2000);
      return [...found.values()].map((r) => (r.diagnostic.length < 12 ? { ...r, diagnostic: whole } : r));
    }
    // No address in the report's own words: the returned original's recipients are the ones it is about.
    const to = ctx.original
      ? ['to', 'cc']
          .flatMap((n) => addressesIn(header(ctx.original ?? [], n)))
          .filter((a) => !skip.has(a.toLowerCase()))
      : [];
    const whole = oneLine(ctx.mtaText).slice(0, 2000);
    return [...new Set(to)].slice(0, 1).map((address) => ({
      address,
      action: delayed ? 'delayed' : 'failed',
      status: null,
      diagnostic: reply ? `${reply} ${whole}` : whole,
    }));
  },
  source:
    'Wording of reports from Lotus Domino/Notes, KDDI au, EZweb, BIGLOBE, mFILTER, iMail, Trend Micro, McAfee and other gateways',
};

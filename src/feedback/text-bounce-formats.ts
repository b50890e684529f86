/**
 * Non-standard bounces: plain-text reports from MTAs that send no RFC 3464 delivery-status part.
 * Each format names the MTA it comes from, the wording that identifies it, and how its failed
 * addresses and their diagnostics are laid out, as data rather than code, so a new MTA is one
 * entry. First match wins.
 */

/** One failed address and the text the MTA gave for it (usually the remote server's SMTP reply). */
export interface TextFailure {
  address: string;
  diagnostic: string;
}

export interface TextBounceFormat {
  id: string;
  mta: string;
  /** Wording that appears in this format and in no ordinary message. */
  signature: RegExp;
  /** `delayed` for warnings that the MTA is still retrying (they never suppress). */
  action: 'failed' | 'delayed';
  extract: (text: string) => TextFailure[];
  source: string;
}

const ADDRESS = /^[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+$/;
const isAddress = (s: string) => ADDRESS.test(s);

/** Where the attached copy of the original message begins; nothing after it is the MTA's own text. */
const COPY_MARKER =
  /^[ \t]*-{2,}[ \t]*(?:This is a copy of the message|Below this line is a copy|Original message|Undelivered message|Unsent message below|The original message)/im;

/** The MTA's own text, without the copy of the original that follows it. */
export function beforeCopy(text: string): string {
  const m = COPY_MARKER.exec(text);
  return m ? text.slice(0, m.index) : text;
}

/** Lines after the first line matching `start`, up to the copy marker. */
function linesAfter(text: string, start: RegExp): string[] {
  const lines = beforeCopy(text).split(/\r?\n/);
  const at = lines.findIndex((l) => start.test(l));
  return at < 0 ? [] : lines.slice(at + 1);
}

/**
 * qmail and Yahoo: `<address>:` on a line of its own, then the reason up to an empty line; the
 * remote reply follows `Remote host said:` when there is one.
 */
function angleBlocks(text: string): TextFailure[] {
  const out: TextFailure[] = [];
  const lines = beforeCopy(text).split(/\r?\n/);
  lines.forEach((line, i) => {
    const m = /^<([^<>\s]+)>:\s*$/.exec(line.trim());
    if (!m || !isAddress(m[1] as string)) return;
    const body: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.trim() === '' || /^<[^<>\s]+>:\s*$/.test(next.trim())) break;
      // qmail's closing "Giving up on 192.0.2.1." names the host, not the reason.
      if (!/^Giving up on /i.test(next.trim())) body.push(next.trim());
    }
    const joined = body.join('\n');
    const said = /Remote host said:\s*([\s\S]*)/i.exec(joined);
    out.push({
      address: m[1] as string,
      diagnostic: (said ? (said[1] as string) : joined).replace(/\s*\n\s*/g, ' ').trim(),
    });
  });
  return out;
}

/** Exim: after the heading, each address indented by two spaces, its reasons indented further. */
function indentedBlocks(start: RegExp) {
  return (text: string): TextFailure[] => {
    const blocks: { address: string; lines: string[] }[] = [];
    let current: { address: string; lines: string[] } | null = null;
    for (const line of linesAfter(text, start)) {
      const addr = /^ {1,3}<?([^\s<>]+@[^\s<>]+?)>?:?\s*(?:\(.*\))?\s*$/.exec(line);
      if (addr && isAddress(addr[1] as string)) {
        current = { address: addr[1] as string, lines: [] };
        blocks.push(current);
      } else if (current && /^\s{4,}\S/.test(line)) {
        current.lines.push(line.trim());
      } else if (line.trim() !== '') {
        current = null;
      }
    }
    return blocks.map((b) => ({ address: b.address, diagnostic: b.lines.join(' ') }));
  };
}

/** Sendmail: `<address>` lines under the heading, each followed by `(reason: …)`. */
function sendmailBlocks(text: string): TextFailure[] {
  const out: TextFailure[] = [];
  for (const line of linesAfter(
    text,
    /-{3,}\s*The following addresses had (?:permanent fatal|transient non-fatal) errors/i,
  )) {
    if (/^\s*-{3,}/.test(line)) break;
    const addr = /^<?([^\s<>]+@[^\s<>]+)>?\s*$/.exec(line.trim());
    if (addr && isAddress(addr[1] as string)) out.push({ address: addr[1] as string, diagnostic: '' });
    const reason = /^\s*\(reason:\s*(.*)\)\s*$/i.exec(line);
    const last = out[out.length - 1];
    if (reason && last) last.diagnostic = reason[1] as string;
  }
  if (out.some((f) => f.diagnostic === '')) {
    // No `(reason: …)` line: the transcript's last reply from the remote server (`<<< 550 …`) says it.
    const replies = [...text.matchAll(/^<<<\s*([45]\d\d[ -].*)$/gm)].map((m) => m[1] as string);
    const fallback = replies[replies.length - 1] ?? '';
    for (const f of out) if (f.diagnostic === '') f.diagnostic = fallback;
  }
  return out;
}

/**
 * Exchange 2003–2007 text NDRs: `address on DATE` under the heading, then the explanation and
 * `<host #5.1.1 smtp;550 5.1.1 …>`, whose smtp part is the remote reply.
 */
function exchangeBlocks(text: string): TextFailure[] {
  const out: TextFailure[] = [];
  let current: { address: string; lines: string[] } | null = null;
  for (const line of linesAfter(text, /following recipient\(s\) (?:cannot|could not) be reached/i)) {
    const addr = /^\s+'?([^\s'<>]+@[^\s'<>]+?)'?\s+on\s+\S.*$/.exec(line);
    if (addr && isAddress(addr[1] as string)) {
      current = { address: addr[1] as string, lines: [] };
      out.push({ address: current.address, diagnostic: '' });
      continue;
    }
    if (current && line.trim() !== '') current.lines.push(line.trim());
    const last = out[out.length - 1];
    if (current && last) {
      const joined = current.lines.join(' ');
      const smtp = /#([245]\.\d{1,3}\.\d{1,3})\s+smtp;\s*([^>]*)>/i.exec(joined);
      last.diagnostic = smtp ? (smtp[2] as string).trim() || `#${smtp[1] as string}` : joined;
    }
  }
  return out;
}

export const TEXT_BOUNCE_FORMATS: readonly TextBounceFormat[] = [
  {
    id: 'qmail',
    mta: 'qmail (qmail-send)',
    signature: /Hi\. This is the qmail-send program at /,
    action: 'failed',
    extract: angleBlocks,
    source:
      'qmail-send bounce: "Hi. This is the qmail-send program at mail.example.com. I\'m afraid I wasn\'t able to deliver your message to the following addresses. This is a permanent error; I\'ve given up. Sorry it didn\'t work out." then "<user@example.org>:" and the reason (qmail-send.c, bounce text)',
  },
  {
    id: 'yahoo',
    mta: 'Yahoo Mail (outbound MTA)',
    signature: /Sorry, we were unable to deliver your message to the following address/i,
    action: 'failed',
    extract: angleBlocks,
    source:
      'Yahoo bounce: "Sorry, we were unable to deliver your message to the following address." then "<user@example.org>:" and "Remote host said: 554 delivery error: dd This user doesn\'t have a yahoo.com account (…) [0] - mta…"',
  },
  {
    id: 'exim-delayed',
    mta: 'Exim (delay warning)',
    signature: /A message that you sent has not yet been delivered to one or more of its\s+recipients/i,
    action: 'delayed',
    extract: indentedBlocks(/address(?:es)? to which the message has not yet been delivered (?:is|are):/i),
    source:
      'Exim warning message (spec.txt ch. 50, warn_message_file; default text): "A message that you sent has not yet been delivered to one or more of its recipients after more than 24 hours on the queue"',
  },
  {
    id: 'exim',
    mta: 'Exim',
    signature:
      /(?:This message was created automatically by (?:mail delivery software|the SMTP relay)|could not be delivered to (?:one or more|all) of its\s+recipients)[\s\S]*following address(?:\(es\))? failed:/i,
    action: 'failed',
    extract: indentedBlocks(/following address(?:\(es\))? failed:/i),
    source:
      'Exim bounce (default bounce_message_text): "This message was created automatically by mail delivery software. A message that you sent could not be delivered to one or more of its recipients. This is a permanent error. The following address(es) failed:"',
  },
  {
    id: 'sendmail-delayed',
    mta: 'Sendmail (warning, pre-DSN text)',
    signature: /-{3,}\s*The following addresses had transient non-fatal errors/i,
    action: 'delayed',
    extract: sendmailBlocks,
    source:
      'Sendmail 8 warning: "**********************************************\\n**      THIS IS A WARNING MESSAGE ONLY      **" and "----- The following addresses had transient non-fatal errors -----"',
  },
  {
    id: 'sendmail',
    mta: 'Sendmail (pre-DSN text)',
    signature: /-{3,}\s*The following addresses had permanent fatal errors/i,
    action: 'failed',
    extract: sendmailBlocks,
    source:
      'Sendmail 8 returned mail: "----- The following addresses had permanent fatal errors -----" then "<user@example.org>" and "(reason: 550 5.1.1 <user@example.org>... User unknown)"',
  },
  {
    id: 'exchange-text',
    mta: 'Microsoft Exchange 2003/2007 (text NDR)',
    signature:
      /Your message did not reach some or all of the intended recipients[\s\S]*following recipient\(s\) (?:cannot|could not) be reached/i,
    action: 'failed',
    extract: exchangeBlocks,
    source:
      'Exchange NDR: "Your message did not reach some or all of the intended recipients." … "The following recipient(s) cannot be reached:" … "<mail.example.org #5.1.1 smtp;550 5.1.1 User unknown>"',
  },
];

/** The first format whose signature the text carries, or null. */
export function matchTextFormat(text: string): TextBounceFormat | null {
  return TEXT_BOUNCE_FORMATS.find((f) => f.signature.test(text)) ?? null;
}

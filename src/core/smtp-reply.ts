/**
 * An SMTP reply, read the same way whether a receiving server sent it during delivery or a bounce
 * report quotes it: the delivery role records it in events and classifies it
 * (delivery/classify-reply.ts), the inbound role classifies the reply a DSN's Diagnostic-Code
 * carries (feedback/classify-recipient.ts).
 */
export interface SmtpReply {
  /** The basic reply code (RFC 5321 §4.2): the three digits that start the reply; 0 when it does not start with them. */
  code: number;
  /**
   * The enhanced status code (RFC 3463 §2, `class.subject.detail`, subject and detail of one to
   * three digits) that starts the text of the reply's first line, or null: missing, malformed
   * (`5.7.1x`, `1.2.3`, a `(#5.1.1)` inside the text), or of another class than `code` (RFC 3463 §3.1,
   * RFC 2034 §4: the class matches the reply's first digit, so a code that contradicts the reply is
   * not trusted).
   */
  enhanced: string | null;
  /**
   * The text, cleaned, for reading: each line without its basic code and separator and without a
   * repeat of `enhanced` at its start, trimmed, empty lines dropped, the lines joined with one
   * space. A phrase a server broke across lines reads as one, so the wording rules of
   * delivery/classify-reply.ts see the same text in a live reply and in a quoted one.
   */
  message: string;
  /**
   * The reply verbatim: every line with its code, as the server sent it (lines joined by `\n` as
   * nodemailer hands them over) or from its code on as the report quotes it, without the final
   * line break. What events show (`details.response`, docs/api.md).
   */
  raw: string;
}

/**
 * Three digits (not four) at the start of a line and the separator after them: `-` (more lines
 * follow), a space, or a colon as some reports quote it. A missing separator is tolerated, so a
 * sloppy server's code is still read rather than the reply taken for no reply at all.
 */
const BASIC = /^(\d{3})(?!\d)(?:[ -]|:\s*)?/;
/** RFC 3463 §2: class 2, 4 or 5, subject and detail of 1–3 digits, then white space or the end. */
const ENHANCED = /^([245])\.\d{1,3}\.\d{1,3}(?=\s|$)/;

/**
 * Reads one SMTP reply.
 *
 * Input: the reply's lines from the basic code on, as received (one line, or the lines of a
 * multi-line reply, RFC 5321 §4.2.1: `550-first` … `550 last`, joined by CRLF or LF), or as a
 * DSN's Diagnostic-Code quotes it (RFC 3464 §2.3.6, the text after `smtp;`, where a report may
 * write `550: text` and continuation lines lose their indentation). Whatever precedes the code in
 * a diagnostic is the caller's to cut off (feedback/classify-recipient.ts `replyFrom`).
 *
 * - `code` comes from the first line; each further line loses its prefix only when it repeats that
 *   code (RFC 5321 §4.2.1 has every line of a reply carry it), otherwise it is kept as text.
 * - `enhanced` is read from the first line only, where RFC 2034 §4 puts it; servers repeat it on
 *   every line, and those repeats are removed from `message`. A reply whose first line has none, or
 *   a malformed one, or one of another class, has `enhanced` null and its text is left whole.
 * - `message` is cleaned and `raw` verbatim, as their fields say. Never throws: text that is not a
 *   reply gives code 0, no enhanced code, and the text.
 */
export function parseSmtpReply(text: string): SmtpReply {
  const raw = text.replace(/\r?\n$/, '');
  const lines = raw.split(/\r?\n/).map((line) => line.trim());
  const basic = BASIC.exec(lines[0] ?? '');
  const code = basic ? Number(basic[1]) : 0;
  const texts = lines.map((line, i) => {
    if (i === 0) return basic ? line.slice(basic[0].length) : line;
    const repeat = BASIC.exec(line);
    return repeat && Number(repeat[1]) === code ? line.slice(repeat[0].length) : line;
  });
  const found = ENHANCED.exec(texts[0] ?? '');
  const enhanced = found !== null && basic !== null && found[1] === (basic[1] as string)[0] ? found[0] : null;
  const message = texts
    .map((t) => (enhanced !== null && ENHANCED.exec(t)?.[0] === enhanced ? t.slice(enhanced.length) : t).trim())
    .filter((t) => t !== '')
    .join(' ');
  return { code, enhanced, message, raw };
}

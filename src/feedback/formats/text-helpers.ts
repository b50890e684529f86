/** Helpers shared by the text format modules (feedback/formats/*.ts). */

const ADDRESS = /^[^\s<>@()"',;:[\]]+@[^\s<>@()"',;:[\]]+\.[^\s<>@()"',;:[\]]+$/;

export const isAddress = (s: string): boolean => ADDRESS.test(s) && s.length <= 254;

/** Addresses written anywhere in a line of text: bare, in angle brackets, or in `mailto:`. */
export function addressesInLine(line: string): string[] {
  const out: string[] = [];
  // Split on the characters that cannot be in a bare address, then keep the pieces that are one:
  // linear in the line's length. A regex that looked for `x@y` anywhere in the line went back over
  // a long run without an `@` from each of its characters (quadratic: a 80 KB line took 25 s).
  for (const piece of line.split(/[\s<>()"',;:[\]]+/)) {
    if (!piece.includes('@')) continue;
    const a = piece.replace(/[.]+$/, '');
    if (isAddress(a)) out.push(a);
  }
  return out;
}

/** Text with its white space runs (line breaks included) as single spaces. */
export const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The lines after the first one matching `start` (empty when none does). */
export function linesAfter(text: string, start: RegExp): string[] {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => start.test(l));
  return at < 0 ? [] : lines.slice(at + 1);
}

/** One line holding an SMTP reply (`550 5.1.1 …`, `<<< 550 …`, `… said: 550 …`); group 1 is the reply. */
const REPLY_LINE = /^[ \t]*(?:<<<[ \t]*|.*?\bsaid:[ \t]*)?([245]\d\d[ -](?:[245]\.\d{1,3}\.\d{1,3}\s)?.*)$/;

/**
 * The last SMTP reply quoted in a text, or null. Line by line, from the end: one multi-line regex
 * over the whole text let its leading `\s*` run across every following blank line from each line
 * start (quadratic: 40,000 empty lines took 9 s).
 */
export function lastReply(text: string): string | null {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = REPLY_LINE.exec(lines[i]!);
    if (m) return m[1]!;
  }
  return null;
}

/** Helpers shared by the text format modules (feedback/formats/*.ts). */

const ADDRESS = /^[^\s<>@()"',;:[\]]+@[^\s<>@()"',;:[\]]+\.[^\s<>@()"',;:[\]]+$/;

export const isAddress = (s: string): boolean => ADDRESS.test(s) && s.length <= 254;

/** Addresses written anywhere in a line of text: bare, in angle brackets, or in `mailto:`. */
export function addressesInLine(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/[^\s<>()"',;:[\]]+@[^\s<>()"',;:[\]]+/g)) {
    const a = m[0].replace(/^mailto:/i, '').replace(/[.]+$/, '');
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

/** The last SMTP reply quoted in a text (`550 5.1.1 …`, `<<< 550 …`), or null. */
export function lastReply(text: string): string | null {
  const replies = [
    ...text.matchAll(/^\s*(?:<<<\s*|.*?\bsaid:\s*)?([245]\d\d[ -](?:[245]\.\d{1,3}\.\d{1,3}\s)?.*)$/gm),
  ].map((m) => m[1] as string);
  return replies[replies.length - 1] ?? null;
}

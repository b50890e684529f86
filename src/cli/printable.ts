/**
 * Text as a terminal may show it: what the internet sends (reports, SMTP replies) could carry
 * escape sequences that rewrite the operator's screen. Control characters other than tab and line
 * ends become `\xNN` (the JSON output escapes them by itself).
 */
export function printable(text: string): string {
  return text.replace(/\r(?!\n)|[^\P{Cc}\t\n\r]/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

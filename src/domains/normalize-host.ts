/**
 * A DNS name in the form we compare and concatenate: trimmed, lower-case (names compare
 * case-insensitively, RFC 4343) and without the trailing root dot.
 */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

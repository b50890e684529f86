import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalises a domain name to lower-case A-labels (IDNA, so `bücher.example` and its punycode are
 * one domain), or returns null when it is not a valid host name with at least two labels.
 */
export function normalizeDomain(name: string): string | null {
  const trimmed = name.trim().replace(/\.$/, '');
  if (trimmed === '' || trimmed.length > 253) return null;
  const ascii = domainToASCII(trimmed).toLowerCase();
  if (ascii === '' || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1] as string)) return null; // an IP address, not a domain
  return ascii;
}

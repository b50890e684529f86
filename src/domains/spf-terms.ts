/** One term of an SPF record (RFC 7208 §4.6.1): a mechanism with its qualifier, or a modifier. */
export interface SpfTerm {
  kind: 'mechanism' | 'modifier';
  qualifier: '+' | '-' | '~' | '?';
  name: string;
  /** The domain-spec, cidr-length or modifier value; '' when the term has none. */
  value: string;
}

/** RFC 7208 §4.5: an SPF record starts with exactly "v=spf1", ended by a space or the record's end. */
export function isSpfRecord(txt: string): boolean {
  return /^v=spf1( |$)/i.test(txt);
}

/** Splits an SPF record into its terms, after the version; names are lower-cased. */
export function spfTerms(record: string): SpfTerm[] {
  return record
    .split(' ')
    .slice(1)
    .filter((term) => term !== '')
    .map(parseTerm);
}

/** RFC 7208 §4.6.1: modifier = name "=" value; mechanism = [qualifier] name [":" spec | "/" cidr]. */
function parseTerm(term: string): SpfTerm {
  const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(term);
  if (modifier) return { kind: 'modifier', qualifier: '+', name: modifier[1].toLowerCase(), value: modifier[2] };
  const mechanism = /^([+\-~?]?)([a-z][a-z0-9_-]*)(?:[:/](.*))?$/i.exec(term);
  if (!mechanism) return { kind: 'mechanism', qualifier: '+', name: term.toLowerCase(), value: '' };
  const qualifier = (mechanism[1] || '+') as SpfTerm['qualifier'];
  return { kind: 'mechanism', qualifier, name: mechanism[2].toLowerCase(), value: mechanism[3] ?? '' };
}

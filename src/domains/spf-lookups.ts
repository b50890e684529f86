import type { DnsResolver } from '../core/dns-resolver.js';
import { lookupTxt } from './dns-lookup.js';
import { normalizeHost } from './normalize-host.js';
import { isSpfRecord, spfTerms } from './spf-terms.js';

/** RFC 7208 §4.6.4: mechanisms and modifiers that cost a DNS query when evaluated. */
const LOOKUP_MECHANISMS = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

/** Past this depth of nested includes we stop following; real records are a few levels deep. */
const MAX_DEPTH = 10;

/** How many DNS-querying terms an SPF record costs, and what could not be followed. */
export interface SpfLookupCount {
  count: number;
  notes: string[];
}

interface Walk {
  resolver: DnsResolver;
  notes: string[];
  /** Counts already worked out per domain: a diamond (two includes of one domain) costs twice. */
  memo: Map<string, number>;
}

/**
 * Counts the DNS-querying terms of `record`, following include: and redirect= through the
 * resolver (RFC 7208 §4.6.4 limit of 10). Unresolvable or looping targets are noted, not counted.
 */
export async function countSpfLookups(resolver: DnsResolver, domain: string, record: string): Promise<SpfLookupCount> {
  const walk: Walk = { resolver, notes: [], memo: new Map() };
  const count = await countRecord(walk, record, [normalizeHost(domain)]);
  return { count, notes: walk.notes };
}

/** Counts one record's own lookups plus those of the records it includes or redirects to. */
async function countRecord(walk: Walk, record: string, path: string[]): Promise<number> {
  const terms = spfTerms(record);
  // RFC 7208 §6.1: redirect= is ignored when the record has an "all" mechanism.
  const hasAll = terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
  let count = 0;
  for (const term of terms) {
    const isRedirect = term.kind === 'modifier' && term.name === 'redirect' && !hasAll;
    const isLookup = term.kind === 'mechanism' && LOOKUP_MECHANISMS.has(term.name);
    if (!isRedirect && !isLookup) continue;
    count += 1;
    if (isRedirect || term.name === 'include') count += await countTarget(walk, term.value, path);
  }
  return count;
}

/** Fetches and counts the SPF record of an include/redirect target, guarding loops and depth. */
async function countTarget(walk: Walk, spec: string, path: string[]): Promise<number> {
  const target = normalizeHost(spec);
  if (target.includes('%')) return note(walk, `${target} uses SPF macros; its lookups are not counted`);
  if (path.includes(target)) return note(walk, `include loop: ${[...path, target].join(' -> ')} was not followed`);
  if (path.length > MAX_DEPTH) return note(walk, `includes nest deeper than ${MAX_DEPTH}; ${target} was not followed`);
  const known = walk.memo.get(target);
  if (known !== undefined) return known;
  const answer = await lookupTxt(walk.resolver, target);
  if (!answer.ok) return note(walk, `could not look up the SPF record of ${target} (${answer.code})`);
  const records = answer.records.filter(isSpfRecord);
  // RFC 7208 §5.2: an include whose target has no (or no single) SPF record is a permerror.
  if (records.length === 0) return note(walk, `${target} has no SPF record, so including it is an error`);
  if (records.length > 1) return note(walk, `${target} has ${records.length} SPF records; not counted`);
  const count = await countRecord(walk, records[0], [...path, target]);
  walk.memo.set(target, count);
  return count;
}

/** Records a note and counts nothing for the target that could not be followed. */
function note(walk: Walk, text: string): number {
  if (!walk.notes.includes(text)) walk.notes.push(text);
  return 0;
}

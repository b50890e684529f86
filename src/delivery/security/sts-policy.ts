/**
 * MTA-STS (RFC 8461) as data: the `_mta-sts` TXT record, the policy file and MX pattern matching.
 * Pure functions; fetching and caching are in fetch-sts-policy.ts and sts-store.ts.
 */

export const STS_MODES = ['enforce', 'testing', 'none'] as const;
export type StsMode = (typeof STS_MODES)[number];

/** A parsed policy file (RFC 8461 §3.2). */
export interface StsPolicy {
  mode: StsMode;
  /** MX host patterns: a name, or `*.` and a name (one leftmost label, §4.1). */
  mx: string[];
  /** Seconds the policy may be cached (at most 31557600, one year). */
  maxAge: number;
  /** The policy's lines as served, for TLS-RPT's `policy-string` (RFC 8460 §4.4). */
  lines: string[];
}

/** Why a record or policy was refused: says what is wrong, for logs and TLS-RPT's failure reason. */
export class StsSyntaxError extends Error {}

/** RFC 8461 §3.2: max_age is "a plaintext non-negative integer seconds, maximum value of 31557600". */
const MAX_AGE_LIMIT = 31_557_600;

/**
 * The policy id of a domain's `_mta-sts` TXT answer (RFC 8461 §3.1), or null when there is no
 * usable record: records not starting with `v=STSv1;` are ignored, and anything but exactly one
 * remaining record means "no policy". Throws StsSyntaxError for one record that is malformed.
 */
export function parseStsRecord(txt: string[][]): string | null {
  const records = txt.map((chunks) => chunks.join('')).filter((r) => /^v=STSv1\s*(;|$)/.test(r));
  if (records.length !== 1) return null;
  const fields = new Map<string, string>();
  for (const part of records[0]!.split(';')) {
    const t = part.trim();
    if (t === '') continue;
    const eq = t.indexOf('=');
    if (eq <= 0) throw new StsSyntaxError(`malformed field "${t}" in the _mta-sts TXT record`);
    const key = t.slice(0, eq).trim();
    if (!fields.has(key)) fields.set(key, t.slice(eq + 1).trim());
  }
  const id = fields.get('id');
  if (id === undefined) throw new StsSyntaxError('the _mta-sts TXT record has no id');
  // sts-id = 1*32(ALPHA / DIGIT)
  if (!/^[A-Za-z0-9]{1,32}$/.test(id)) throw new StsSyntaxError(`invalid id "${id}" in the _mta-sts TXT record`);
  return id;
}

/**
 * Parses a policy file (RFC 8461 §3.2): `key: value` lines ending in CRLF or LF, unknown keys
 * ignored, `version: STSv1`, `mode`, `max_age` and (unless mode is none) at least one `mx`.
 * Throws StsSyntaxError naming the field at fault.
 */
export function parseStsPolicy(text: string): StsPolicy {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/[ \t]+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const fields = new Map<string, string>();
  const mx: string[] = [];
  for (const line of lines) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new StsSyntaxError(`policy line "${line}" is not "key: value"`);
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (key === 'mx') {
      if (!/^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?$/.test(value))
        throw new StsSyntaxError(`policy mx "${value}" is not a host name or *.pattern`);
      mx.push(normalize(value));
    } else if (!fields.has(key)) fields.set(key, value);
  }
  const version = fields.get('version');
  if (version !== 'STSv1')
    throw new StsSyntaxError(
      version === undefined ? 'policy has no version' : `policy version "${version}" is not STSv1`,
    );
  const mode = fields.get('mode');
  if (mode === undefined) throw new StsSyntaxError('policy has no mode');
  if (!(STS_MODES as readonly string[]).includes(mode))
    throw new StsSyntaxError(`policy mode "${mode}" is not enforce, testing or none`);
  const maxAgeText = fields.get('max_age');
  if (maxAgeText === undefined) throw new StsSyntaxError('policy has no max_age');
  if (!/^\d{1,10}$/.test(maxAgeText) || Number(maxAgeText) > MAX_AGE_LIMIT)
    throw new StsSyntaxError(`policy max_age "${maxAgeText}" is not an integer from 0 to ${MAX_AGE_LIMIT}`);
  if (mx.length === 0 && mode !== 'none') throw new StsSyntaxError('policy has no mx');
  return { mode: mode as StsMode, mx, maxAge: Number(maxAgeText), lines: lines.filter((l) => l !== '') };
}

/**
 * Whether an MX host name matches one of the patterns (RFC 8461 §4.1): names compare
 * case-insensitively; `*.example.com` stands for exactly one leftmost label, so it matches
 * `mx1.example.com` but neither `example.com` nor `a.b.example.com`.
 */
export function mxMatches(patterns: readonly string[], host: string): boolean {
  const name = normalize(host);
  return patterns.some((pattern) => {
    const p = normalize(pattern);
    if (!p.startsWith('*.')) return p === name;
    const dot = name.indexOf('.');
    return dot > 0 && name.slice(dot + 1) === p.slice(2);
  });
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

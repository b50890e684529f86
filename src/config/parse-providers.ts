import { parseDnsName } from './parse-value.js';

/**
 * One provider as POSTHORN_PROVIDERS gives it (docs/delivery.md): MX host name suffixes to
 * add to it, and any of its limits to change. delivery/providers.ts merges these with the built-in
 * table; a limit left out keeps the built-in one (or `other`'s, for a new provider).
 */
export interface ProviderSetting {
  name: string;
  suffixes: string[];
  connections?: number;
  messagesPerConnection?: number;
  /** Messages (recipients) per minute to the provider; null: no per-minute limit. */
  perMinute?: number | null;
}

/** A provider's name: what POSTHORN_PROVIDERS accepts, and the queue's filters and holds (as a JSON-schema pattern). */
export const PROVIDER_NAME_PATTERN = '^[a-z][a-z0-9_-]{0,31}$';
const NAME = new RegExp(PROVIDER_NAME_PATTERN);

/**
 * POSTHORN_PROVIDERS: a JSON object `{"gmail": {"suffixes": ["…"], "connections": 20,
 * "messages_per_connection": 100, "per_minute": 1200}, …}`, or the short form
 * `name=suffix,suffix;name=suffix` (suffixes only). Throws naming the provider and field at fault.
 */
export function parseProviders(text: string): ProviderSetting[] {
  const t = text.trim();
  if (t === '') return [];
  return t.startsWith('{') ? parseJsonForm(t) : parseShortForm(t);
}

function parseShortForm(text: string): ProviderSetting[] {
  const seen = new Set<string>();
  return text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0)
        throw new Error(`expected name=suffix,suffix (e.g. gmail=google.com;corp=mx.corp.example), got "${part}"`);
      const name = providerName(part.slice(0, eq), seen);
      return { name, suffixes: suffixList(name, part.slice(eq + 1).split(',')) };
    });
}

function parseJsonForm(text: string): ProviderSetting[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`expected a JSON object of providers: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('expected a JSON object of providers, e.g. {"gmail": {"suffixes": ["google.com"]}}');
  const seen = new Set<string>();
  return Object.entries(value).map(([key, spec]) => {
    const name = providerName(key, seen);
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
      throw new Error(
        `provider ${name}: expected an object with suffixes, connections, messages_per_connection, per_minute`,
      );
    const setting: ProviderSetting = { name, suffixes: [] };
    for (const [field, v] of Object.entries(spec as Record<string, unknown>)) {
      if (field === 'suffixes') {
        if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
          throw new Error(`provider ${name}: suffixes must be an array of DNS names`);
        setting.suffixes = suffixList(name, v as string[]);
      } else if (field === 'per_minute') {
        setting.perMinute = limit(name, field, v);
      } else if (field === 'connections' || field === 'messages_per_connection') {
        const n = limit(name, field, v) as number;
        if (field === 'connections') setting.connections = n;
        else setting.messagesPerConnection = n;
      } else {
        throw new Error(
          `provider ${name}: unknown field "${field}" (expected suffixes, connections, messages_per_connection, per_minute)`,
        );
      }
    }
    return setting;
  });
}

function providerName(raw: string, seen: Set<string>): string {
  const name = raw.trim().toLowerCase();
  if (!NAME.test(name))
    throw new Error(`provider name "${raw}" must be 1 to 32 of a-z, 0-9, _ and -, starting with a letter`);
  if (seen.has(name)) throw new Error(`provider ${name} is given twice`);
  seen.add(name);
  return name;
}

function suffixList(name: string, raw: string[]): string[] {
  return raw
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return parseDnsName(s);
      } catch {
        throw new Error(`provider ${name}: "${s}" is not a DNS name suffix such as google.com`);
      }
    });
}

function limit(name: string, field: string, v: unknown): number | null {
  if (field === 'per_minute' && v === null) return null;
  const max = field === 'per_minute' ? 1_000_000 : field === 'connections' ? 1000 : 100_000;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max)
    throw new Error(
      `provider ${name}: ${field} must be a whole number from 1 to ${max}${field === 'per_minute' ? ' (or null: no limit)' : ''}, got ${JSON.stringify(v)}`,
    );
  return v;
}

import { readFileSync } from 'node:fs';
import { CONFIG_SCHEMA, type Config } from './schema.js';

/** A configuration problem that names the variable at fault. */
export class ConfigError extends Error {}

type Source = Readonly<Record<string, string | undefined>>;

function readFile(path: string): Record<string, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`POSTHORN_CONFIG_FILE: cannot read ${path} as JSON: ${(err as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`POSTHORN_CONFIG_FILE: ${path} must hold a JSON object of POSTHORN_* keys`);
  }
  const known = new Set(CONFIG_SCHEMA.map((e) => e.env));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!known.has(k)) throw new ConfigError(`POSTHORN_CONFIG_FILE: ${path} has unknown key ${k}`);
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw new ConfigError(`${k} (in ${path}): expected a string, number or boolean`);
    }
    out[k] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  }
  return out;
}

/**
 * Resolves the configuration: environment > config file > default, each value parsed and checked,
 * the result frozen. Throws ConfigError naming the first bad variable.
 */
export function loadConfig(env: Source = process.env): Readonly<Config> {
  const fileName = env.POSTHORN_CONFIG_FILE?.trim() || undefined;
  const file = fileName ? readFile(fileName) : {};
  // An empty variable (as `${VAR:-}` in compose files produces) counts as unset, so the file's value still applies.
  const given = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v);
  const raw = (name: string): string | undefined => given(env[name]) ?? given(file[name]);
  // Sandbox is the default when no config is given, so a first `posthorn serve` works without DNS
  // (README, Quick start).
  const configGiven =
    fileName !== undefined || raw('POSTHORN_HOSTNAME') !== undefined || raw('POSTHORN_DATABASE_URL') !== undefined;
  const resolved: Partial<Record<keyof Config, unknown>> = {};
  for (const entry of CONFIG_SCHEMA) {
    const text = raw(entry.env);
    if (text === undefined) {
      resolved[entry.key] = entry.key === 'sandbox' ? !configGiven : entry.default(resolved as Partial<Config>);
      continue;
    }
    try {
      resolved[entry.key] = entry.parse(text);
    } catch (err) {
      throw new ConfigError(`${entry.env}: ${(err as Error).message}`);
    }
  }
  const config = resolved as Config;
  // A production server named `localhost` would sign Message-IDs and EHLO with a name nobody can
  // resolve, and publish spf.localhost in customers' records: refuse rather than guess.
  if (!config.sandbox && raw('POSTHORN_HOSTNAME') === undefined) {
    throw new ConfigError(
      'POSTHORN_HOSTNAME: required when not in sandbox mode (the name this server sends and receives mail as)',
    );
  }
  if (config.secretsKey !== null && config.secretsKeyFile !== null) {
    throw new ConfigError('POSTHORN_SECRETS_KEY and POSTHORN_SECRETS_KEY_FILE: set one of them, not both');
  }
  if ((config.tlsCert === null) !== (config.tlsKey === null)) {
    throw new ConfigError('POSTHORN_TLS_CERT and POSTHORN_TLS_KEY must be set together');
  }
  return Object.freeze({
    ...config,
    dnsServers: Object.freeze([...config.dnsServers]) as string[],
    retrySchedule: Object.freeze([...config.retrySchedule]) as number[],
  });
}

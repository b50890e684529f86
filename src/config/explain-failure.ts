import { CONFIG_SCHEMA, type Config } from './schema.js';

/**
 * Start-up failures as an operator reads them: which setting or resource is at fault and what to
 * do about it (docs/deploy.md, "When it does not start"). The drivers' own messages ("connect
 * ECONNREFUSED", "role does not exist", "EADDRINUSE") say what happened but not which variable
 * leads there; this maps each to the POSTHORN_* variable and the fix. Undefined for anything
 * else, which the CLI then reports as it is.
 */
export function explainFailure(err: unknown, config: Readonly<Config>): string | undefined {
  const e = err as NodeError;
  if (typeof e !== 'object' || e === null) return undefined;
  if (err instanceof AggregateError && err.errors.length > 0) {
    // A connection to a name with several addresses (localhost: ::1 and 127.0.0.1) fails with one
    // error per address; they say the same thing about the setting.
    return explainFailure(err.errors[0], config);
  }
  return explainListen(e, config) ?? explainDatabase(e, config) ?? explainDataDir(e, config);
}

interface NodeError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
  /** PostgreSQL's own error fields, as pg passes them on. */
  severity?: string;
  routine?: string;
}

/** The POSTHORN_*_PORT variables whose value is `port`. */
function portVariables(port: number, config: Readonly<Config>): string[] {
  return CONFIG_SCHEMA.filter((e) => e.env.endsWith('_PORT') && config[e.key] === port).map((e) => e.env);
}

function explainListen(e: NodeError, config: Readonly<Config>): string | undefined {
  if (e.syscall !== 'listen' && e.syscall !== 'bind') return undefined;
  const where = `${e.address ?? config.listenHost}:${e.port ?? '?'}`;
  const vars = e.port === undefined ? [] : portVariables(e.port, config);
  const setting = vars.length > 0 ? vars.join(' or ') : 'the POSTHORN_*_PORT variable of that listener';
  switch (e.code) {
    case 'EADDRINUSE':
      return (
        `port ${where} is already in use by another program (${setting}); stop that program, or set ` +
        `${setting} to a free port`
      );
    case 'EACCES':
      return (
        `not allowed to listen on ${where} (${setting}): ports below 1024 need root or the ` +
        `CAP_NET_BIND_SERVICE capability (docs/deploy.md); grant it, or set ${setting} to a port above 1023`
      );
    case 'EADDRNOTAVAIL':
      return (
        `cannot listen on ${where}: this host has no address ${e.address ?? config.listenHost} ` +
        `(POSTHORN_LISTEN_HOST); set POSTHORN_LISTEN_HOST to one of this host's addresses, or 0.0.0.0`
      );
    default:
      return undefined;
  }
}

/** POSTHORN_DATABASE_URL as it may be printed: without its password. */
export function redactedDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return '(POSTHORN_DATABASE_URL is not a valid URL)';
  }
}

/** A PostgreSQL identifier as SQL may name it: bare when it is a plain lowercase name, quoted otherwise. */
function ident(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

function explainDatabase(e: NodeError, config: Readonly<Config>): string | undefined {
  if (config.databaseUrl === null) return undefined;
  let url: URL;
  try {
    url = new URL(config.databaseUrl);
  } catch {
    return undefined;
  }
  const shown = redactedDatabaseUrl(config.databaseUrl);
  // pg's own default is the operating-system user; the URL is expected to name the role.
  const user = decodeURIComponent(url.username) || 'postgres';
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || user;
  // SQLSTATE codes: PostgreSQL documentation, appendix A "PostgreSQL Error Codes".
  switch (e.code) {
    case '28P01':
      return (
        `PostgreSQL refused the password of role ${user} (POSTHORN_DATABASE_URL=${shown}); put the role's ` +
        `password in POSTHORN_DATABASE_URL, or set it in PostgreSQL: ALTER ROLE ${ident(user)} PASSWORD '...';`
      );
    case '28000':
      if (/role .* does not exist/.test(e.message)) {
        return (
          `PostgreSQL has no role ${user} (POSTHORN_DATABASE_URL=${shown}); create it as a superuser: ` +
          `CREATE ROLE ${ident(user)} LOGIN PASSWORD '...'; CREATE DATABASE ${ident(database)} OWNER ${ident(user)};`
        );
      }
      return (
        `PostgreSQL refused role ${user} (POSTHORN_DATABASE_URL=${shown}): ${e.message}; allow it in ` +
        `pg_hba.conf or use another role in POSTHORN_DATABASE_URL`
      );
    case '3D000':
      return (
        `PostgreSQL has no database ${database} (POSTHORN_DATABASE_URL=${shown}); create it as a superuser: ` +
        `CREATE DATABASE ${ident(database)} OWNER ${ident(user)};`
      );
    case '42501':
      return (
        `role ${user} may not create Posthorn's tables in database ${database} (POSTHORN_DATABASE_URL=${shown}): ` +
        `${e.message}; make it the owner: ALTER DATABASE ${ident(database)} OWNER TO ${ident(user)};`
      );
    case 'ECONNREFUSED':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      // Only a failure to reach the database's own host and port (a command such as `webhook test`
      // connects elsewhere too).
      if (e.syscall === 'connect' ? e.port !== Number(url.port || 5432) : e.hostname !== url.hostname) return undefined;
      return (
        `cannot reach PostgreSQL at ${shown} (POSTHORN_DATABASE_URL): ${e.code === 'ENOTFOUND' ? `no host named ${url.hostname}` : e.code}; ` +
        `start PostgreSQL or correct the host and port in POSTHORN_DATABASE_URL`
      );
    default:
      return undefined;
  }
}

function explainDataDir(e: NodeError, config: Readonly<Config>): string | undefined {
  if (config.databaseUrl !== null) return undefined;
  if (e.code === 'SQLITE_CANTOPEN' || ((e.code === 'EACCES' || e.code === 'EPERM') && e.syscall !== undefined)) {
    return (
      `cannot open the SQLite database in ${config.dataDir} (POSTHORN_DATA_DIR): ${e.message}; make the ` +
      `directory writable by the user Posthorn runs as, or set POSTHORN_DATA_DIR to one that is`
    );
  }
  return undefined;
}

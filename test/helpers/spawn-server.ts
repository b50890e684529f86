import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { childEnv, REPO_ROOT } from './run-cli.js';

/** A `posthorn serve` child process listening on a free port. */
export interface RunningServer {
  /** `https://host:port` from the `api listening` log line. */
  url: string;
  /** `http://host:port` from the `metrics listening` log line, or null when the listener is off. */
  metricsUrl: string | null;
  child: ChildProcess;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far (the JSON log lines). */
  stderr(): string;
  /** SIGTERM, then the exit code once it has exited (null when a signal ended it). */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash would. */
  kill9(): Promise<void>;
}

/**
 * Spawns `posthorn serve [args]` with free ports (POSTHORN_HTTP_PORT=0, POSTHORN_SMTP_PORT=0,
 * POSTHORN_INBOUND_PORT=0, POSTHORN_METRICS_PORT=0, the implicit-TLS relay off) and logs at info, and
 * resolves once the `api listening` line names its URL. Fails with the child's stderr when it
 * exits first or does not get there within `timeoutMs`.
 */
export function startServer(
  env: Record<string, string>,
  opts: { args?: string[]; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), 'bin/posthorn.js', 'serve', ...(opts.args ?? [])], {
    cwd: REPO_ROOT,
    env: childEnv(
      {
        POSTHORN_HTTP_PORT: '0',
        POSTHORN_SMTP_PORT: '0',
        POSTHORN_SMTPS_PORT: '0',
        POSTHORN_INBOUND_PORT: '0',
        POSTHORN_METRICS_PORT: '0',
        POSTHORN_LOG_LEVEL: 'info',
      },
      env,
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let metricsUrl: string | null = null;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  // 'close', not 'exit': by then stdout and stderr are fully read, so stdout() is complete.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  const kill9 = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`posthorn serve ${why}; stderr:\n${err}`));
    };
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const timer = setTimeout(() => fail(`did not log "api listening" within ${timeoutMs} ms`), timeoutMs);
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before listening`));
    createInterface({ input: child.stderr }).on('line', (line) => {
      err += `${line}\n`;
      metricsUrl ??= listeningUrl(line, 'metrics listening') ?? null;
      const url = listeningUrl(line);
      if (url === undefined || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ url, metricsUrl, child, stdout: () => out, stderr: () => err, stop, kill9 });
    });
  });
}

function listeningUrl(line: string, msg = 'api listening'): string | undefined {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
    return entry.msg === msg && typeof entry.url === 'string' ? entry.url : undefined;
  } catch {
    return undefined; // not a log line (e.g. a Node warning)
  }
}

/**
 * The settings of a production server (sandbox off) listening on loopback that delivers for real:
 * MX lookups through the loopback DNS server `dns`, mail to the sink MX `sink`.
 */
export function deliveringEnv(dns: { address: string }, sink: { port: number }): Record<string, string> {
  return {
    POSTHORN_SANDBOX: '0',
    POSTHORN_HOSTNAME: 'mail.posthorn.test',
    POSTHORN_LISTEN_HOST: '127.0.0.1',
    POSTHORN_DNS_SERVERS: dns.address,
    POSTHORN_MX_PORT: String(sink.port),
  };
}

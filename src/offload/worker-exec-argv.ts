/**
 * The execArgv for worker threads: the flags of this process that a worker needs to load the same
 * code the same way (module loaders and hooks such as tsx's, --conditions, source maps, warnings),
 * and no others. V8's own options (--max-old-space-size, --max-semi-space-size, --stack-size) are
 * per-process too: a worker refuses them in its execArgv, so an operator's heap size for the
 * process would stop the first worker from starting; a worker's heap is set by its `resourceLimits`. An allow-list rather than dropping the known-bad ones: a worker
 * refuses per-process flags (ERR_WORKER_INVALID_EXEC_ARGV), and Node 24's test runner hands each
 * test file an execArgv of every option's default, many of them per-process (--node-snapshot,
 * --tls-cipher-list, --v8-pool-size, ...); flags that pick the main thread's entry (-e, --input-type,
 * --test, --watch) would break a file worker as well.
 */

/** Flags kept with their value, written either as `--flag=value` or as `--flag value`. */
const KEEP_WITH_VALUE = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
]);
/** Flags kept as they are. */
const KEEP = new Set([
  '--enable-source-maps',
  '--no-warnings',
  '--no-deprecation',
  '--trace-warnings',
  '--trace-uncaught',
  '--experimental-vm-modules',
]);

/** The flags of `argv` that worker threads get. */
export function workerExecArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=', 1)[0]!;
    if (KEEP_WITH_VALUE.has(name)) {
      out.push(arg);
      // The value is the next element when not written as `--flag=value`.
      if (name === arg && i + 1 < argv.length) out.push(argv[++i]!);
    } else if (KEEP.has(arg)) {
      out.push(arg);
    }
  }
  return out;
}

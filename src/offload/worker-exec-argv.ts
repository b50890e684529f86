/**
 * The execArgv for worker threads: this process's flags (loaders, --conditions, source maps,
 * memory limits apply in workers too) minus those that choose what the main thread runs. Those
 * break a file worker: `--input-type` is refused for a file entry, `-e <code>` would run the
 * code, `--watch` throws ERR_WORKER_INVALID_EXEC_ARGV.
 */

/** Flags dropped with the value that follows them when not written as `--flag=value`. */
const DROP_WITH_VALUE = new Set([
  '-e',
  '--eval',
  '-p',
  '--print',
  '--input-type',
  '--watch-path',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-concurrency',
  '--test-shard',
  '--test-timeout',
]);
const DROP = /^(?:-i|--interactive|-c|--check|--watch(?:-[a-z-]+)?|--test(?:-[a-z-]+)?)$/;

/** `argv` without the flags that only make sense for the main thread's entry. */
export function workerExecArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=', 1)[0]!;
    if (DROP_WITH_VALUE.has(name)) {
      if (name === arg) i++; // the value is the next element
      continue;
    }
    if (DROP.test(name)) continue;
    out.push(arg);
  }
  return out;
}

import fc from 'fast-check';

/**
 * How the fuzz suite is bounded and replayed (README "Tests"):
 * - POSTHORN_FUZZ_SECONDS: time each property runs for (default 8 s, so `npm test` stays short;
 *   `npm run test:fuzz` sets more). Properties stop generating at the limit and pass if nothing failed.
 * - POSTHORN_FUZZ_SEED: the seed of every property (default: random, printed on a failure).
 * - POSTHORN_FUZZ_PATH: with the seed, replays the one counterexample a failure printed; pick the
 *   failing property with `--test-name-pattern` (the failure message gives the whole command).
 */
export function fuzzSeconds(): number {
  const raw = process.env.POSTHORN_FUZZ_SECONDS;
  if (raw === undefined || raw === '') return 8;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`POSTHORN_FUZZ_SECONDS must be a positive number of seconds, not ${JSON.stringify(raw)}`);
  return n;
}

function fuzzSeed(): number {
  const raw = process.env.POSTHORN_FUZZ_SEED;
  if (raw === undefined || raw === '') return (Math.random() * 0x7fffffff) | 0;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`POSTHORN_FUZZ_SEED must be an integer, not ${JSON.stringify(raw)}`);
  return n;
}

/** One seed per test process, so every property of a run can be replayed from the one printed value. */
const SEED = fuzzSeed();

/** A property whose runs are tracked, so the one cut off by the time limit can be waited for (see runFuzz). */
export interface FuzzProperty<T> {
  property: fc.IAsyncPropertyWithHooks<[T]>;
  /** Settles when the latest run has; holds the first error a run threw after fast-check stopped waiting for it. */
  latest(): Promise<void>;
  late: { error: unknown; value: T } | null;
}

/** An async property over one arbitrary (use fc.tuple for several). */
export function fuzzProperty<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>): FuzzProperty<T> {
  let latest: Promise<void> = Promise.resolve();
  const tracked: FuzzProperty<T> = {
    late: null,
    latest: () => latest,
    property: fc.asyncProperty(arb, (value) => {
      const run = predicate(value);
      latest = run.then(
        () => undefined,
        (error: unknown) => {
          tracked.late ??= { error, value };
        },
      );
      return run;
    }),
  };
  return tracked;
}

/**
 * Runs `prop` for the configured time (or replays POSTHORN_FUZZ_SEED/POSTHORN_FUZZ_PATH) and
 * throws fast-check's report plus the exact replay command when a run fails.
 * `file` and `name` are the test file and test name, used only to print that command.
 */
export async function runFuzz<T>(file: string, name: string, prop: FuzzProperty<T>): Promise<{ runs: number }> {
  const path = process.env.POSTHORN_FUZZ_PATH;
  const seconds = fuzzSeconds();
  const params: fc.Parameters<[T]> = {
    seed: SEED,
    // The time limit is the bound: runs go on until it, however many that is.
    numRuns: 1_000_000,
    interruptAfterTimeLimit: seconds * 1000,
    markInterruptAsFailure: false,
    ...(path ? { path, endOnFailure: true } : {}),
  };
  prop.late = null;
  const out = await fc.check(prop.property, params);
  // At the limit fast-check stops waiting for the run in flight but does not stop it: it is waited
  // for here, so it neither overlaps the next test nor fails unseen.
  await prop.latest();
  const pattern = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const command = (p: string | null) =>
    `POSTHORN_FUZZ_SEED=${out.seed}${p === null ? '' : ` POSTHORN_FUZZ_PATH=${p}`} node --import tsx --test --test-name-pattern='${pattern}' ${file}`;
  if (out.failed) {
    // Counterexamples can be megabytes (long strings are generated on purpose): each line is cut for the log.
    const report = (fc.defaultReportMessage(out) ?? 'property failed')
      .split('\n')
      .map((line) => (line.length > 3000 ? `${line.slice(0, 3000)}… (${line.length} characters)` : line))
      .join('\n');
    const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
    throw new Error(
      `fuzz property failed: ${name}\n${cause.slice(0, 3000)}\nreplay with:\n  ${command(out.counterexamplePath)}\n\n${report}`,
    );
  }
  // Set by the runs (TypeScript still sees the null assigned above).
  const late = prop.late as FuzzProperty<T>['late'];
  if (late !== null) {
    const { error, value } = late;
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(
      `fuzz property failed in its last run, cut off by the time limit: ${name}\n${cause.slice(0, 3000)}\nreplay the same sequence with:\n  ${command(null)}\n\ninput: ${fc.stringify(value).slice(0, 3000)}`,
    );
  }
  return { runs: out.numRuns };
}

/** Strings that parsers tend to get wrong: control characters, unicode, lone surrogates, very long, look-alikes of syntax. */
export function oddString(maxLength = 200): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom(
      '',
      ' ',
      '\r\n',
      '\r',
      '\n',
      '\0',
      '\t',
      '\u2028',
      '\ufeff',
      '\ud800',
      '\udfff',
      'a\u0000b',
      '\x1b[31m',
      '😀',
      'é',
      '\u202e',
      '=?utf-8?B?w6k=?=',
      '<>',
      '@',
      'a@b',
      '"@"@x.test',
      '\\',
      '%00',
      '${x}',
      '__proto__',
      'constructor',
      'null',
      '[]',
      '{}',
    ),
    fc
      .tuple(fc.constantFrom('a', 'é', '\r\n', ' ', '<', '\\'), fc.integer({ min: 990, max: 70_000 }))
      .map(([c, n]) => c.repeat(n)),
  );
}

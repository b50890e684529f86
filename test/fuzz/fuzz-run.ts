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
  if (!Number.isFinite(n) || n <= 0) throw new Error(`POSTHORN_FUZZ_SECONDS must be a positive number of seconds, not ${JSON.stringify(raw)}`);
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

/**
 * Runs `property` for the configured time (or replays POSTHORN_FUZZ_SEED/POSTHORN_FUZZ_PATH) and
 * throws fast-check's report plus the exact replay command when a run fails.
 * `file` and `name` are the test file and test name, used only to print that command.
 */
export async function runFuzz<Ts>(file: string, name: string, property: fc.IAsyncPropertyWithHooks<Ts>): Promise<{ runs: number }> {
  const path = process.env.POSTHORN_FUZZ_PATH;
  const seconds = fuzzSeconds();
  const params: fc.Parameters<Ts> = {
    seed: SEED,
    // The time limit is the bound: runs go on until it, however many that is.
    numRuns: 1_000_000,
    interruptAfterTimeLimit: seconds * 1000,
    markInterruptAsFailure: false,
    ...(path ? { path, endOnFailure: true } : {}),
  };
  const out = await fc.check(property, params);
  if (out.failed) {
    const pattern = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const replay = `POSTHORN_FUZZ_SEED=${out.seed} POSTHORN_FUZZ_PATH=${out.counterexamplePath ?? ''} node --import tsx --test --test-name-pattern='${pattern}' ${file}`;
    // Counterexamples can be megabytes (long strings are generated on purpose): each line is cut for the log.
    const report = (fc.defaultReportMessage(out) ?? 'property failed').split('\n')
      .map((line) => (line.length > 3000 ? `${line.slice(0, 3000)}… (${line.length} characters)` : line)).join('\n');
    const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
    throw new Error(`fuzz property failed: ${name}\n${cause.slice(0, 3000)}\nreplay with:\n  ${replay}\n\n${report}`);
  }
  return { runs: out.numRuns };
}

/** Strings that parsers tend to get wrong: control characters, unicode, lone surrogates, very long, look-alikes of syntax. */
export function oddString(maxLength = 200): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom('', ' ', '\r\n', '\r', '\n', '\0', '\t', '\u2028', '\ufeff', '\ud800', '\udfff', 'a\u0000b', '\x1b[31m', '😀', 'é', '\u202e',
      '=?utf-8?B?w6k=?=', '<>', '@', 'a@b', '"@"@x.test', '\\', '%00', '${x}', '__proto__', 'constructor', 'null', '[]', '{}'),
    fc.tuple(fc.constantFrom('a', 'é', '\r\n', ' ', '<', '\\'), fc.integer({ min: 990, max: 70_000 })).map(([c, n]) => c.repeat(n)),
  );
}

/** Wall-clock time in epoch milliseconds; the only source of "now": side effects come in through Deps, and SQL never calls now() (CONTRIBUTING.md, Conventions). */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() }; // eslint-disable-line no-restricted-properties

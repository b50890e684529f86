/** Wall-clock time in epoch milliseconds; the only source of "now" (DESIGN.md convention 1 and 2). */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() }; // eslint-disable-line no-restricted-properties

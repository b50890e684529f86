import type { Clock } from '../../src/core/clock.js';

/** A clock tests move by hand instead of sleeping. */
export interface FakeClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

/** Starts at `start` (default 2026-11-21T12:00:00.000Z). */
export function fakeClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): FakeClock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => {
      t = ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/**
 * The adaptive pace of one provider (docs/delivery.md, Adaptive throttling): additive
 * increase, multiplicative decrease (AIMD, the rule TCP congestion control uses, RFC 5681 §3.1),
 * in recipients per minute between a floor and the provider's configured `per_minute`.
 *
 * - A throttling reply halves the rate, at most once per ROUND_MS: the replies of transactions
 *   already under way when the first came, on any node, are one signal, not many.
 * - A ROUND_MS with deliveries and no throttling reply adds a tenth of the maximum, so a provider
 *   halved down to its floor is back at its maximum within about 100 s of clean sending.
 *
 * Pure functions of the stored state (provider_throttles) and the clock, so every node and the
 * SQL in provider-state.ts apply the same rule.
 */

/** The length of one round: at most one decrease, and at most one increase, per round. */
export const ROUND_MS = 10_000;
/** Each throttling reply (once per round) multiplies the rate by this. */
export const DECREASE_FACTOR = 0.5;
/** The floor is the maximum divided by this (six halvings), and never under one per minute. */
export const FLOOR_DIVISOR = 64;
/** Each clean round adds the maximum divided by this. */
export const INCREASE_DIVISOR = 10;

export interface RateState {
  /** Recipients per minute now. */
  rate: number;
  /** When the rate was last halved (0: never). */
  decreasedAt: number;
  /** When the rate was last raised (0: never). */
  increasedAt: number;
}

/** The lowest the rate goes for a provider whose maximum is `max`. */
export function floorRate(max: number): number {
  return Math.min(max, Math.max(1, max / FLOOR_DIVISOR));
}

/** The state after a throttling reply at `now`: halved, unless it was halved less than a round ago. */
export function afterThrottle(s: RateState, max: number, now: number): RateState {
  if (now - s.decreasedAt < ROUND_MS) return s;
  return { ...s, rate: Math.max(floorRate(max), Math.min(s.rate, max) * DECREASE_FACTOR), decreasedAt: now };
}

/** The state after a delivery at `now`: a tenth of `max` more when a whole round passed since any change. */
export function afterSuccess(s: RateState, max: number, now: number): RateState {
  if (s.rate >= max || now - s.decreasedAt < ROUND_MS || now - s.increasedAt < ROUND_MS) return s;
  return { ...s, rate: Math.min(max, s.rate + max / INCREASE_DIVISOR), increasedAt: now };
}

/** The burst the pace allows: one second's worth of the rate, at least one recipient. */
export function burstOf(rate: number): number {
  return Math.max(1, Math.floor(rate / 60));
}

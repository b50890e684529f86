/** The ten event types of spec part 6, in lifecycle order. */
export const EVENT_NAMES = [
  'accepted-by-system',
  'rejected-by-system',
  'accepted-by-mta',
  'rejected-by-mta',
  'delivered',
  'failed',
  'opened',
  'clicked',
  'complained',
  'unsubscribed',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

const known: ReadonlySet<string> = new Set(EVENT_NAMES);

/** True when `name` is one of the ten event types (decisions §11: anything else is a 400). */
export function isEventName(name: string): name is EventName {
  return known.has(name);
}

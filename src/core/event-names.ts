/** The ten event types (docs/api.md, `GET /v1/events`), in lifecycle order. */
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

/** True when `name` is one of the ten event types (a `type` filter naming anything else is a 400). */
export function isEventName(name: string): name is EventName {
  return known.has(name);
}

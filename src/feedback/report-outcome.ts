import type { ReportClass } from './classify-recipient.js';
import type { ParsedReport, ReportRecipient } from './types.js';

/** What one recipient of a matched report leads to. */
export type ReportOutcome =
  | { kind: 'failed'; bounceClass: 'hard' | 'soft' | 'block' | 'unknown'; suppress: boolean; why: string }
  | { kind: 'complained'; suppress: boolean; why: string }
  | { kind: 'none'; why: string };

/**
 * `Action: failed` by the bounce class (docs/inbound.md, What is recorded). RFC 3464 §2.3.3:
 * `failed` means the reporting MTA gave up, so the message has failed for that recipient whatever
 * the class; only a mailbox that does not exist (hard) is the address's fault and suppressed. A
 * policy block is the sending IP's problem, and a soft or unreadable status (mailbox full, 4.x.x)
 * may pass, so neither empties the customer's list.
 */
export const FAILED_OUTCOMES: Readonly<Record<Exclude<ReportClass, 'complaint'>, ReportOutcome & { kind: 'failed' }>> =
  {
    hard: {
      kind: 'failed',
      bounceClass: 'hard',
      suppress: true,
      why: 'permanent failure of the address (5.1.x, 5.2.1 or their wording): suppressed as hard_bounce',
    },
    block: {
      kind: 'failed',
      bounceClass: 'block',
      suppress: false,
      why: "policy or reputation block (5.7.x, blocklist): not the address's fault, not suppressed",
    },
    soft: {
      kind: 'failed',
      bounceClass: 'soft',
      suppress: false,
      why: 'the remote server gave up on a temporary condition (4.x.x): failed, not suppressed',
    },
    unknown: {
      kind: 'failed',
      bounceClass: 'unknown',
      suppress: false,
      why: 'failed without a status Posthorn can classify: failed, not suppressed',
    },
  };

/**
 * Actions that report no failure (RFC 3464 §2.3.3): `delayed` means the MTA is still trying and
 * never suppresses; the success actions are not problems at all. None of them is an event.
 */
export const NO_EVENT_ACTIONS: Readonly<Record<string, string>> = {
  delayed: 'delayed: the remote server is still trying; no event, never suppressed',
  delivered: 'delivered: a success notification; no event',
  relayed: 'relayed: passed to a system that sends no notifications; no event',
  expanded: 'expanded: delivered to a list or alias; no event',
};

/** The outcome for one recipient of a report, by its kind, action and class (the tables above). */
export function reportOutcome(kind: ParsedReport['kind'], r: Pick<ReportRecipient, 'action' | 'class'>): ReportOutcome {
  if (kind === 'complaint')
    return { kind: 'complained', suppress: true, why: 'complaint report (ARF): suppressed as complaint' };
  if (kind === 'unknown') return { kind: 'none', why: 'not a bounce or complaint report' };
  const action = r.action?.toLowerCase() ?? null;
  if (action !== null && action in NO_EVENT_ACTIONS) return { kind: 'none', why: NO_EVENT_ACTIONS[action] as string };
  if (action !== 'failed') return { kind: 'none', why: `action ${action ?? '(none)'} is not a failure; no event` };
  return FAILED_OUTCOMES[r.class === 'complaint' ? 'unknown' : r.class];
}

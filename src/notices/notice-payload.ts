/** A notice as its webhook body carries it (notices go to the domain's webhook too: docs/webhooks.md). */
export interface NoticeRecord {
  id: string;
  /** The notice kind (`domain.warning`, …): a name outside the ten event names, which consumers must tolerate (docs/webhooks.md, What is sent). */
  event: string;
  /** `YYYY-MM-DDTHH:MM:SS.sssZ`, as events have. */
  occurred_at: string;
  domain: string;
  message: string;
  details: object;
}

/** The JSON body of a notice webhook, fields in a fixed order (the body is signed). */
export function noticePayload(n: NoticeRecord): string {
  const body: NoticeRecord = {
    id: n.id,
    event: n.event,
    occurred_at: n.occurred_at,
    domain: n.domain,
    message: n.message,
    details: n.details,
  };
  return JSON.stringify(body);
}

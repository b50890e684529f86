import type { SuppressionReason } from '../storage/database.js';
import { SUPPRESSION_REASONS } from '../storage/database.js';
import { isSuppressionReason, memoNormalizeDomain, suppressedAddressOrNull } from './manage-suppressions.js';

/**
 * The columns of a suppression export, in this order, and the columns an import accepts
 * (docs/api.md, Suppressions): `address` is required, the others optional, so an export imports
 * unchanged into another account or server.
 */
export const SUPPRESSION_COLUMNS = ['address', 'reason', 'created_at', 'domain', 'message_id'] as const;
export type SuppressionColumn = (typeof SUPPRESSION_COLUMNS)[number];

/** One row as read from an import file, before it is checked; an empty string or null is "not given". */
export type ImportFields = Partial<Record<SuppressionColumn, string | null>>;

/** A row ready to insert. */
export interface CheckedRow {
  address: string;
  reason: SuppressionReason;
  created_at: number;
  domain: string | null;
  message_id: string | null;
}

/** Why a row was not imported: the value at fault and what is wrong with it. */
export interface RowProblem {
  value: string;
  message: string;
}

// RFC 3339 §5.6 date-time, as the export writes it (`toISOString()`), with any offset.
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)$/i;
// Posthorn's message ids: `msg_` and a ULID (docs/api.md).
const MESSAGE_ID = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;
/** How far ahead of now an imported created_at may be: a day covers any clock skew between servers. */
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;
/** Values quoted back in a problem are cut to this many characters. */
const SHOWN_VALUE = 200;

export function shownValue(value: string): string {
  return value.length > SHOWN_VALUE ? `${value.slice(0, SHOWN_VALUE)}…` : value;
}

const given = (v: string | null | undefined): v is string => v !== undefined && v !== null && v !== '';

/**
 * Checks one imported row: the address as `posthorn suppression add` checks it, a known reason
 * (default `manual`), created_at as an RFC 3339 date-time not more than a day ahead (default
 * `now`), domain as a domain name, message_id as a Posthorn message id. Values are trimmed.
 */
export function checkRow(fields: ImportFields, now: number): CheckedRow | RowProblem {
  const rawAddress = fields.address;
  if (!given(rawAddress) || rawAddress.trim() === '') return { value: rawAddress ?? '', message: 'address is empty' };
  const address = suppressedAddressOrNull(rawAddress);
  if (address === null)
    return {
      value: shownValue(rawAddress),
      message: `address ${JSON.stringify(shownValue(rawAddress))} is not an email address (expected local@domain.example)`,
    };

  let reason: SuppressionReason = 'manual';
  if (given(fields.reason)) {
    const r = fields.reason.trim();
    if (!isSuppressionReason(r))
      return {
        value: shownValue(fields.reason),
        message: `reason ${JSON.stringify(shownValue(fields.reason))} is not one of ${SUPPRESSION_REASONS.join(', ')}`,
      };
    reason = r;
  }

  let createdAt = now;
  if (given(fields.created_at)) {
    const text = fields.created_at.trim();
    const ms = DATE_TIME.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(ms) || ms < 0)
      return {
        value: shownValue(fields.created_at),
        message: `created_at ${JSON.stringify(shownValue(fields.created_at))} is not an RFC 3339 date-time such as 2026-11-21T16:09:00.000Z`,
      };
    if (ms > now + FUTURE_SLACK_MS)
      return { value: fields.created_at, message: `created_at ${JSON.stringify(fields.created_at)} is in the future` };
    createdAt = ms;
  }

  let domain: string | null = null;
  if (given(fields.domain)) {
    domain = memoNormalizeDomain(fields.domain);
    if (domain === null)
      return {
        value: shownValue(fields.domain),
        message: `domain ${JSON.stringify(shownValue(fields.domain))} is not a domain name`,
      };
  }

  let messageId: string | null = null;
  if (given(fields.message_id)) {
    const id = fields.message_id.trim();
    if (!MESSAGE_ID.test(id))
      return {
        value: shownValue(fields.message_id),
        message: `message_id ${JSON.stringify(shownValue(fields.message_id))} is not a Posthorn message id (msg_ and 26 characters)`,
      };
    messageId = id;
  }
  return { address, reason, created_at: createdAt, domain, message_id: messageId };
}

export function isProblem(row: CheckedRow | RowProblem): row is RowProblem {
  return (row as RowProblem).message !== undefined;
}

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_EVENTS_OFFSET, parseEventsQuery, type EventsFilter } from '../../../src/events/parse-events-query.js';

const ULID = '01JD8Z3V5X6Y7Z8A9B0C1D2E3F';

/** The filter, failing the test on a 400. */
function ok(query: Record<string, unknown>): EventsFilter {
  const r = parseEventsQuery(query);
  if (!r.ok) assert.fail(`expected a filter, got 400 ${r.error.field}: ${r.error.message}`);
  return r.filter;
}

/** Asserts a 400 invalid_request naming `field`; returns the message. */
function rejects(query: Record<string, unknown>, field: string): string {
  const r = parseEventsQuery(query);
  if (r.ok) assert.fail(`expected 400 on ${field}, got ${JSON.stringify(r.filter)}`);
  assert.equal(r.error.type, 'invalid_request');
  assert.equal(r.error.field, field);
  assert.ok(r.error.message.length > 0);
  return r.error.message;
}

describe('parseEventsQuery', () => {
  test('no parameters: limit 25, offset 0, no filters', () => {
    assert.deepEqual(ok({}), { limit: 25, offset: 0 });
    assert.deepEqual(parseEventsQuery(undefined), { ok: true, filter: { limit: 25, offset: 0 } });
  });

  test('limit is an integer from 1 to 100', () => {
    assert.equal(ok({ limit: '1' }).limit, 1);
    assert.equal(ok({ limit: '100' }).limit, 100);
    assert.equal(ok({ limit: '007' }).limit, 7);
    for (const bad of ['0', '101', '-1', '1.5', 'ten', '', ' 5', '5 ', '+5', '1e2', '0x10', '99999999999999999999']) {
      const message = rejects({ limit: bad }, 'limit');
      assert.match(message, /limit must be an integer from 1 to 100/);
    }
  });

  test('offset is a non-negative integer up to the cap', () => {
    assert.equal(ok({ offset: '0' }).offset, 0);
    assert.equal(ok({ offset: '50' }).offset, 50);
    assert.equal(ok({ offset: String(MAX_EVENTS_OFFSET) }).offset, MAX_EVENTS_OFFSET);
    for (const bad of ['-1', '2.5', 'x', '']) assert.match(rejects({ offset: bad }, 'offset'), /non-negative integer/);
    assert.match(rejects({ offset: String(MAX_EVENTS_OFFSET + 1) }, 'offset'), /at most 1000000.*start and end/);
  });

  test('event must be one of the ten names, exactly', () => {
    for (const name of ['accepted-by-system', 'delivered', 'failed', 'unsubscribed'])
      assert.equal(ok({ event: name }).event, name);
    for (const bad of ['Delivered', 'bounced', 'delivered ', '', 'domain.warning']) {
      assert.match(rejects({ event: bad }, 'event'), /event must be one of accepted-by-system, .*unsubscribed/);
    }
  });

  test('message_id with or without the msg_ prefix, any case, normalised to the stored form', () => {
    const want = `msg_${ULID}`;
    assert.equal(ok({ message_id: `msg_${ULID}` }).messageId, want);
    assert.equal(ok({ message_id: ULID }).messageId, want);
    assert.equal(ok({ message_id: ULID.toLowerCase() }).messageId, want);
    assert.equal(ok({ message_id: `msg_${ULID.toLowerCase()}` }).messageId, want);
    for (const bad of [
      '',
      'msg_',
      `evt_${ULID}`,
      `msg_${ULID}0`,
      ULID.slice(1),
      `msg_${ULID.slice(0, 25)}I`, // I is not Crockford base32
      `8${ULID.slice(1)}`, // first character above 7 overflows the 48-bit time
      `msg-${ULID}`,
      ` ${ULID}`,
    ]) {
      assert.match(rejects({ message_id: bad }, 'message_id'), /message_id must be a message id/);
    }
  });

  test('start and end as Unix seconds, integer or decimal', () => {
    assert.equal(ok({ start: '1763726400' }).start, 1_763_726_400_000);
    assert.equal(ok({ end: '1763726400' }).end, 1_763_726_400_000);
    assert.equal(ok({ start: '0' }).start, 0);
    assert.equal(ok({ start: '1763726400.5' }).start, 1_763_726_400_500);
    assert.equal(ok({ start: '1763726400.123' }).start, 1_763_726_400_123);
    assert.equal(ok({ end: '1763726400.123' }).end, 1_763_726_400_123);
    // Below the millisecond: start rounds up and end rounds down, so inclusive bounds stay exact.
    assert.equal(ok({ start: '1763726400.1234' }).start, 1_763_726_400_124);
    assert.equal(ok({ end: '1763726400.1239' }).end, 1_763_726_400_123);
    assert.equal(ok({ start: '1763726400.123000' }).start, 1_763_726_400_123);
  });

  test('start and end as ISO-8601 dates and date-times', () => {
    const noon = Date.UTC(2026, 10, 21, 12, 0, 0);
    assert.equal(ok({ start: '2026-11-21' }).start, Date.UTC(2026, 10, 21));
    assert.equal(ok({ end: '2026-11-21' }).end, Date.UTC(2026, 10, 21));
    assert.equal(ok({ start: '2026-11-21T12:00:00Z' }).start, noon);
    assert.equal(ok({ start: '2026-11-21t12:00:00z' }).start, noon);
    assert.equal(ok({ start: '2026-11-21T12:00:00' }).start, noon, 'no zone means UTC');
    assert.equal(ok({ start: '2026-11-21T12:00:00.250Z' }).start, noon + 250);
    assert.equal(ok({ start: '2026-11-21T12:00:00.25Z' }).start, noon + 250);
    assert.equal(ok({ start: '2026-11-21T12:00:00.123456789Z' }).start, noon + 124);
    assert.equal(ok({ end: '2026-11-21T12:00:00.123456789Z' }).end, noon + 123);
    assert.equal(ok({ start: '2026-11-21T13:00:00+01:00' }).start, noon);
    assert.equal(ok({ start: '2026-11-21T06:30:00-05:30' }).start, noon);
    assert.equal(ok({ start: '2026-11-21T12:00:00+00:00' }).start, noon);
    assert.equal(ok({ start: '2024-02-29' }).start, Date.UTC(2024, 1, 29), 'leap day');
    assert.equal(ok({ start: '0001-01-01' }).start, -62_135_596_800_000, 'years below 100 are not read as 19xx');
  });

  test('start and end reject anything else, naming the parameter and the formats', () => {
    for (const field of ['start', 'end'] as const) {
      for (const bad of [
        '',
        'yesterday',
        '-1',
        '1.',
        '.5',
        '1e9',
        '1763726400,5',
        '2026-11-21T12:00Z',
        '2026-11-21 12:00:00Z',
        '2026-11-21T12:00:00+0100',
        '2026-11-21T12:00:00+01',
        '26-11-21',
        '2026-1-21',
        '2026-11-21T',
        ' 2026-11-21',
        '2026-11-21T12:00:00.Z',
        '2026-11-21T12:00:00.1234567890Z',
      ]) {
        const message = rejects({ [field]: bad }, field);
        assert.ok(message.startsWith(`${field} `), message);
        assert.match(message, /Unix timestamp in seconds .* ISO-8601/);
      }
      for (const bad of ['2026-13-01', '2026-00-10', '2026-02-29', '2026-04-31', '2026-11-00']) {
        assert.match(rejects({ [field]: bad }, field), /not a calendar date/);
      }
      for (const bad of ['2026-11-21T24:00:00Z', '2026-11-21T12:60:00Z', '2026-11-21T12:00:60Z']) {
        assert.match(rejects({ [field]: bad }, field), /not a valid time of day/);
      }
      assert.match(rejects({ [field]: '2026-11-21T12:00:00+24:00' }, field), /invalid UTC offset/);
      // Milliseconds sent where seconds are expected land after year 9999.
      assert.match(rejects({ [field]: '1763726400000' }, field), /seconds, not milliseconds/);
      assert.match(rejects({ [field]: '9999-12-31T23:59:59-01:00' }, field), /after the year 9999/);
    }
  });

  test('an unencoded + offset (decoded to a space) gets a message that says how to fix it', () => {
    assert.match(rejects({ start: '2026-11-21T13:00:00 01:00' }, 'start'), /%2B/);
  });

  test('start after end is a 400 on end; equal bounds are allowed', () => {
    assert.match(rejects({ start: '1763726401', end: '1763726400' }, 'end'), /end must not be before start/);
    assert.match(rejects({ start: '2026-11-22', end: '2026-11-21T23:59:59.999Z' }, 'end'), /before start/);
    // Compared exactly, below the millisecond too.
    rejects({ start: '1763726400.0005', end: '1763726400.0004' }, 'end');
    const same = ok({ start: '2026-11-21T12:00:00Z', end: '1795262400' });
    assert.equal(same.start, same.end);
    // Mixed formats compare as instants: 13:00+01:00 is 12:00Z.
    assert.deepEqual(ok({ start: '2026-11-21T13:00:00+01:00', end: '2026-11-21T12:00:00Z' }), {
      limit: 25,
      offset: 0,
      start: Date.UTC(2026, 10, 21, 12),
      end: Date.UTC(2026, 10, 21, 12),
    });
  });

  test('unknown parameters are refused by name', () => {
    assert.match(
      rejects({ page: '2' }, 'page'),
      /unknown query parameter "page"; expected one of limit, offset, event, message_id, start, end/,
    );
    rejects({ Limit: '5' }, 'Limit');
    rejects({ limit: '5', type: 'delivered' }, 'type');
    rejects({ 'event[]': 'delivered' }, 'event[]');
  });

  test('repeated parameters are refused', () => {
    assert.match(rejects({ limit: ['5', '6'] }, 'limit'), /limit must be given at most once/);
    rejects({ event: ['delivered', 'failed'] }, 'event');
    rejects({ start: ['1', '2'] }, 'start');
  });

  test('all parameters together', () => {
    assert.deepEqual(
      ok({
        limit: '10',
        offset: '20',
        event: 'delivered',
        message_id: ULID.toLowerCase(),
        start: '2026-11-01',
        end: '1795262400.5',
      }),
      {
        limit: 10,
        offset: 20,
        event: 'delivered',
        messageId: `msg_${ULID}`,
        start: Date.UTC(2026, 10, 1),
        end: 1_795_262_400_500,
      },
    );
  });

  test("the caller's value is quoted and cut short in the message", () => {
    const message = rejects({ event: 'x'.repeat(500) }, 'event');
    assert.ok(message.length < 400, message);
    assert.match(message, /"x{64}…"/);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextStatus } from '../../../src/domains/check-domain.js';
import { DOMAIN_STATUSES, type DomainStatus } from '../../../src/storage/database.js';

const H = 3_600_000;
const GRACE = 72 * H;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

/** The domain status rules (`nextStatus`) as a table: (status before, failing_since, check ok) → (status after, failing_since). */
const CASES: {
  status: DomainStatus;
  failingSince: number | null;
  ok: boolean;
  want: { status: DomainStatus; failingSince: number | null };
  why: string;
}[] = [
  {
    status: 'pending',
    failingSince: null,
    ok: true,
    want: { status: 'verified', failingSince: null },
    why: 'all four records published',
  },
  {
    status: 'pending',
    failingSince: null,
    ok: false,
    want: { status: 'pending', failingSince: null },
    why: 'never verified: no warning, no grace clock',
  },
  {
    status: 'verified',
    failingSince: null,
    ok: true,
    want: { status: 'verified', failingSince: null },
    why: 'still matching',
  },
  {
    status: 'verified',
    failingSince: null,
    ok: false,
    want: { status: 'warning', failingSince: NOW },
    why: 'a record stopped matching: warning at once',
  },
  {
    status: 'warning',
    failingSince: NOW - H,
    ok: true,
    want: { status: 'verified', failingSince: null },
    why: 'fixed within the grace period',
  },
  {
    status: 'warning',
    failingSince: NOW - H,
    ok: false,
    want: { status: 'warning', failingSince: NOW - H },
    why: 'still failing, within grace: the clock keeps its start',
  },
  {
    status: 'warning',
    failingSince: NOW - GRACE + 1,
    ok: false,
    want: { status: 'warning', failingSince: NOW - GRACE + 1 },
    why: 'one ms before the grace period ends',
  },
  {
    status: 'warning',
    failingSince: NOW - GRACE,
    ok: false,
    want: { status: 'unverified', failingSince: null },
    why: 'grace period over',
  },
  {
    status: 'warning',
    failingSince: NOW - 10 * GRACE,
    ok: false,
    want: { status: 'unverified', failingSince: null },
    why: 'long past the grace period',
  },
  {
    status: 'warning',
    failingSince: null,
    ok: false,
    want: { status: 'warning', failingSince: NOW },
    why: 'a warning without a start starts the clock now',
  },
  {
    status: 'unverified',
    failingSince: null,
    ok: true,
    want: { status: 'verified', failingSince: null },
    why: 'records fixed after losing verification',
  },
  {
    status: 'unverified',
    failingSince: null,
    ok: false,
    want: { status: 'unverified', failingSince: null },
    why: 'still failing: stays unverified',
  },
];

/** `now-1h`, or in ms when not whole hours. */
const ago = (since: number | null): string =>
  since === null ? 'null' : Number.isInteger((NOW - since) / H) ? `now-${(NOW - since) / H}h` : `now-${NOW - since}ms`;

for (const c of CASES) {
  test(`${c.status} (failing since ${ago(c.failingSince)}) + ${c.ok ? 'ok' : 'failing'} → ${c.want.status}: ${c.why}`, () => {
    assert.deepEqual(nextStatus({ status: c.status, failing_since: c.failingSince }, c.ok, NOW, GRACE), c.want);
  });
}

test('the table covers every (status, ok) pair', () => {
  for (const status of DOMAIN_STATUSES) {
    for (const ok of [true, false]) {
      assert.ok(
        CASES.some((c) => c.status === status && c.ok === ok),
        `${status} + ${ok} is not covered`,
      );
    }
  }
});

test('a passing check always ends at verified with the grace clock cleared, whatever came before', () => {
  for (const status of DOMAIN_STATUSES) {
    assert.deepEqual(
      nextStatus({ status, failing_since: NOW - GRACE * 2 }, true, NOW, GRACE),
      { status: 'verified', failingSince: null },
      status,
    );
  }
});

test('the grace period is a parameter: a shortened one ends sooner', () => {
  const since = NOW - 10 * 60_000;
  assert.equal(nextStatus({ status: 'warning', failing_since: since }, false, NOW, 10 * 60_000).status, 'unverified');
  assert.equal(nextStatus({ status: 'warning', failing_since: since }, false, NOW, 10 * 60_000 + 1).status, 'warning');
});

test('nextStatus is pure: the input is not changed', () => {
  const before = Object.freeze({ status: 'warning' as const, failing_since: NOW - H });
  nextStatus(before, false, NOW, GRACE);
  assert.deepEqual(before, { status: 'warning', failing_since: NOW - H });
});

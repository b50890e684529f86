import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/load.js';
import { unknownVariableWarnings } from '../../../src/config/unknown-variables.js';
import { RefusedError } from '../../../src/core/refused-error.js';
import { ROLES } from '../../../src/core/roles.js';
import { parseProcesses, planProcesses } from '../../../src/processes/plan.js';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof RefusedError, `a RefusedError, got ${String(err)}`);
    return err.message;
  }
  assert.fail('not refused');
};

test('parseProcesses: whole numbers 1 to 64; anything else refused naming the value', () => {
  assert.equal(parseProcesses('1'), 1);
  assert.equal(parseProcesses(' 2 '), 2);
  assert.equal(parseProcesses('64'), 64);
  for (const bad of ['0', '65', '-1', '1.5', 'two', '', '2x'])
    assert.match(
      refusal(() => parseProcesses(bad)),
      new RegExp(`from 1 to 64, got "${bad}"`),
    );
});

test('planProcesses: 1 runs every role here; N ≥ 2 moves delivery to N − 1 children', () => {
  assert.deepEqual(planProcesses(1, [...ROLES], 'sqlite'), { own: [...ROLES], children: 0 });
  assert.deepEqual(planProcesses(1, ['api'], 'sqlite'), { own: ['api'], children: 0 });
  assert.deepEqual(planProcesses(2, [...ROLES], 'sqlite'), {
    own: ['api', 'smtp', 'inbound', 'webhooks', 'scheduler'],
    children: 1,
  });
  assert.deepEqual(planProcesses(4, ['api', 'delivery'], 'postgres'), { own: ['api'], children: 3 });
  // Only delivery chosen: this process only supervises (and serves the metrics listener).
  assert.deepEqual(planProcesses(2, ['delivery'], 'sqlite'), { own: [], children: 1 });
});

test('planProcesses refuses N ≥ 2 without delivery, and more than one delivery process on SQLite', () => {
  assert.match(
    refusal(() => planProcesses(2, ['api', 'smtp'], 'postgres')),
    /--processes 2 runs the delivery role in 1 child process, but delivery is not among the roles \(api, smtp\)/,
  );
  const sqlite = refusal(() => planProcesses(3, [...ROLES], 'sqlite'));
  assert.match(sqlite, /--processes 3 on SQLite: at most 2/);
  assert.match(sqlite, /provider pacing and per-destination connection caps/);
  assert.match(sqlite, /PostgreSQL/);
  assert.doesNotThrow(() => planProcesses(3, [...ROLES], 'postgres'));
  assert.match(
    refusal(() => planProcesses(3, [...ROLES], 'postgres', { sandbox: true })),
    /--processes 3 in sandbox mode: at most 2/,
  );
  assert.doesNotThrow(() => planProcesses(2, [...ROLES], 'postgres', { sandbox: true }));
});

test('POSTHORN_PROCESSES: 1 by default, 1 to 64, a bad value named; POSTHORN_SUPERVISED is no unknown setting', () => {
  assert.equal(loadConfig({}).processes, 1);
  assert.equal(loadConfig({ POSTHORN_PROCESSES: '2' }).processes, 2);
  assert.throws(() => loadConfig({ POSTHORN_PROCESSES: '0' }), /POSTHORN_PROCESSES/);
  assert.throws(() => loadConfig({ POSTHORN_PROCESSES: 'many' }), /POSTHORN_PROCESSES/);
  assert.deepEqual(unknownVariableWarnings({ POSTHORN_PROCESSES: '2', POSTHORN_SUPERVISED: 'delivery-1' }), []);
});

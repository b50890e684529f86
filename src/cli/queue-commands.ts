import { findAccount } from '../accounts/accounts.js';
import { CLI_ACTOR } from '../core/actor.js';
import { listHolds, resumeDelivery, suspendDelivery, type HoldOwner } from '../queue-control/delivery-holds.js';
import { parseHoldUntil } from '../queue-control/hold-until.js';
import { listQueue, QUEUE_STATUSES, showQueue, type QueueJob, type QueueStatus } from '../queue-control/list-queue.js';
import { cancelMessage, retryQueue, type RetryTarget } from '../queue-control/queue-actions.js';
import type { QueueScope } from '../queue-control/queue-scope.js';
import type { HoldScope } from '../queue/holds.js';
import type { Runtime } from '../main.js';
import { withDeps, type CliOptions, type Command } from './command.js';
import { UsageError } from './parse-argv.js';
import { printable } from './printable.js';

/** `--account NAME` narrows the queue to one account's messages; without it the operator sees every account's. */
async function scopeOf(deps: Runtime, options: CliOptions): Promise<QueueScope> {
  if (options.account === undefined) return { any: true };
  return { accountId: (await findAccount(deps, options.account)).id };
}

/** `--account NAME` makes a hold over that account's mail only; without it the hold is over every account's. */
async function ownerOf(deps: Runtime, options: CliOptions): Promise<HoldOwner> {
  if (options.account === undefined) return { node: true };
  return { accountId: (await findAccount(deps, options.account)).id };
}

/** Exactly one of --domain and --provider, for `words`. */
function destination(words: string, options: CliOptions): { scope: HoldScope; value: string } {
  if ((options.domain === undefined) === (options.provider === undefined))
    throw new UsageError(`${words} needs exactly one of --domain D or --provider P`);
  return options.domain !== undefined
    ? { scope: 'domain', value: options.domain }
    : { scope: 'provider', value: options.provider! };
}

function limitOf(text: string | undefined): number {
  if (text === undefined) return 100;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1000) throw new UsageError(`--limit must be 1 to 1000, got "${text}"`);
  return n;
}

function statusOf(text: string | undefined): QueueStatus | undefined {
  if (text === undefined || (QUEUE_STATUSES as readonly string[]).includes(text))
    return text as QueueStatus | undefined;
  throw new UsageError(`--status must be one of ${QUEUE_STATUSES.join(', ')}, got "${text}"`);
}

function table(jobs: QueueJob[]): string {
  if (jobs.length === 0) return 'the queue is empty';
  const rows = [
    ['MESSAGE', 'RECIPIENT', 'DOMAIN', 'PROVIDER', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'],
    ...jobs.map((j) => [
      j.message_id,
      j.recipient,
      j.domain,
      j.provider ?? '-',
      j.in_attempt ? `${j.status}*` : j.status,
      String(j.attempts),
      j.next_attempt_at,
      j.last_reply ?? '-',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return printable(
    rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n'),
  );
}

/** `queue list [--domain D] [--provider P] [--status S] [--account A] [--limit N]`. */
export const queueList: Command = {
  words: 'queue list',
  args: [],
  options: ['domain', 'provider', 'status', 'account', 'limit'],
  run: ({ config, options }) => {
    const limit = limitOf(options.limit);
    const status = statusOf(options.status);
    return withDeps(config, async (deps) => {
      const page = await listQueue(deps, await scopeOf(deps, options), {
        limit,
        ...(options.domain !== undefined ? { domain: options.domain } : {}),
        ...(options.provider !== undefined ? { provider: options.provider } : {}),
        ...(status !== undefined ? { status } : {}),
      });
      const more = page.next_cursor !== null ? `\n(more than ${limit}: narrow the filters or raise --limit)` : '';
      return { json: { jobs: page.jobs, more: page.next_cursor !== null }, text: `${table(page.jobs)}${more}` };
    });
  },
};

/** `queue show ID`. */
export const queueShow: Command = {
  words: 'queue show',
  args: ['ID'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const q = await showQueue(deps, { any: true }, args[0]!);
      const lines = [
        `${q.message_id}${q.send_at !== null ? `  scheduled for ${q.send_at}` : ''}`,
        ...q.recipients.map((r) => {
          const j = r.job;
          const job =
            j === null
              ? 'no job left'
              : `${j.status}${j.in_attempt ? ' (in an attempt now)' : ''}, ${j.attempts} attempts, next ${j.next_attempt_at}, provider ${j.provider ?? '-'}${j.last_reply !== null ? `, last error: ${j.last_reply}` : ''}`;
          return `  ${r.address}  ${r.status}  ${job}`;
        }),
      ];
      return { json: q, text: printable(lines.join('\n')) };
    }),
};

/** `queue retry ID` / `queue retry --domain D` / `queue retry --provider P`. */
export const queueRetry: Command = {
  words: 'queue retry',
  args: [],
  optionalArgs: ['ID'],
  options: ['domain', 'provider'],
  run: ({ config, args, options }) => {
    const given = [args[0], options.domain, options.provider].filter((v) => v !== undefined).length;
    if (given !== 1) throw new UsageError('queue retry needs exactly one of ID, --domain D or --provider P');
    const target: RetryTarget =
      args[0] !== undefined
        ? { messageId: args[0] }
        : options.domain !== undefined
          ? { domain: options.domain }
          : { provider: options.provider! };
    return withDeps(config, async (deps) => {
      const out = await retryQueue(deps, { any: true }, target, CLI_ACTOR);
      return { json: out, text: `${out.retried} job${out.retried === 1 ? '' : 's'} due now` };
    });
  },
};

/** `queue cancel ID`. */
export const queueCancel: Command = {
  words: 'queue cancel',
  args: ['ID'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await cancelMessage(deps, { any: true }, args[0]!, CLI_ACTOR);
      return {
        json: out,
        text: `cancelled ${out.cancelled} recipient${out.cancelled === 1 ? '' : 's'}: failed with reason cancelled`,
      };
    }),
};

/** `queue suspend --domain D | --provider P [--until TIME] [--reason TEXT] [--account A]`. */
export const queueSuspend: Command = {
  words: 'queue suspend',
  args: [],
  options: ['domain', 'provider', 'until', 'reason', 'account'],
  run: ({ config, options }) => {
    const dest = destination('queue suspend', options);
    return withDeps(config, async (deps) => {
      const until = options.until === undefined ? undefined : parseHoldUntil(options.until, deps.clock.now());
      const hold = await suspendDelivery(
        deps,
        await ownerOf(deps, options),
        { ...dest, until, reason: options.reason },
        CLI_ACTOR,
      );
      return {
        json: { [hold.scope]: hold.value, suspended: true, until: hold.until, reason: hold.reason },
        text: `delivery to ${hold.scope} ${hold.value} suspended${hold.account_only ? ` for account ${options.account}` : ''}${hold.until !== null ? ` until ${hold.until}` : ' until resumed'}`,
      };
    });
  },
};

/** `queue resume --domain D | --provider P [--account A]`. */
export const queueResume: Command = {
  words: 'queue resume',
  args: [],
  options: ['domain', 'provider', 'account'],
  run: ({ config, options }) => {
    const dest = destination('queue resume', options);
    return withDeps(config, async (deps) => {
      const out = await resumeDelivery(deps, await ownerOf(deps, options), dest, CLI_ACTOR);
      const value = dest.scope === 'domain' ? dest.value.toLowerCase() : dest.value;
      return {
        json: { [dest.scope]: value, suspended: false, released: out.released },
        text: `delivery to ${dest.scope} ${value} resumed; ${out.released} held job${out.released === 1 ? '' : 's'} due now`,
      };
    });
  },
};

/** `queue holds [--account A]`: the holds in force. */
export const queueHolds: Command = {
  words: 'queue holds',
  args: [],
  options: ['account'],
  run: ({ config, options }) =>
    withDeps(config, async (deps) => {
      const holds = await listHolds(
        deps,
        options.account === undefined ? { node: true } : await ownerOf(deps, options),
      );
      const text =
        holds.length === 0
          ? 'no delivery holds'
          : holds
              .map(
                (h) =>
                  `${h.scope} ${h.value}${h.account_only ? ' (one account)' : ''}  since ${h.created_at}  ${h.until ?? 'until resumed'}  by ${h.actor}${h.reason !== null ? `  ${h.reason}` : ''}`,
              )
              .join('\n');
      return { json: { holds }, text: printable(text) };
    }),
};

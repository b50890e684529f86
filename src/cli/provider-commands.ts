import { listProviders, showProvider, type ProviderView } from '../delivery/provider-status.js';
import { withDeps, type Command } from './command.js';

/** One provider on one line: its pace against its maximum, and any suspension. */
function line(p: ProviderView): string {
  const pace = p.per_minute === null ? 'no pace limit' : `${p.rate}/${p.per_minute} per minute`;
  const state = p.suspended
    ? `suspended until ${p.suspensions.map((s) => `${s.until} (${s.node})`).join(', ')}`
    : p.throttled
      ? `throttled (${p.throttle_events} throttling replies)`
      : 'ok';
  return `${p.provider.padEnd(10)}  ${String(p.connections).padStart(4)} conn  ${String(p.messages_per_connection).padStart(5)} per conn  ${pace.padEnd(24)}  ${state}`;
}

/** `provider list`: every mailbox provider, its limits and its automatic shaping state. */
export const providerList: Command = {
  words: 'provider list',
  args: [],
  options: [],
  run: ({ config }) =>
    withDeps(config, async (deps) => {
      const providers = await listProviders(deps);
      return { json: { providers }, text: providers.map(line).join('\n') };
    }),
};

/** `provider show P`: one provider in full, with the last throttling reply and the suspensions' replies. */
export const providerShow: Command = {
  words: 'provider show',
  args: ['PROVIDER'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const p = await showProvider(deps, args[0] as string);
      const text = [
        line(p),
        `suffixes: ${p.suffixes.join(', ') || '(every host of no other provider)'}`,
        ...(p.last_reply === null ? [] : [`last throttling reply (${p.last_throttle_at}): ${p.last_reply}`]),
        ...p.suspensions.map((s) => `suspended on ${s.node} since ${s.since} until ${s.until}: ${s.reply}`),
      ].join('\n');
      return { json: p, text };
    }),
};

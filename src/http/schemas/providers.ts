import { Type } from 'typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });

export const ProviderState = Type.Object(
  {
    provider: Type.String({
      description: 'The provider’s name; `other` is every host of no provider.',
      examples: ['gmail'],
    }),
    suffixes: Type.Array(Type.String(), {
      description: 'MX host name suffixes that roll up into it.',
      examples: [['google.com', 'googlemail.com', 'gmail.com']],
    }),
    connections: Type.Integer({ description: 'SMTP sessions at once to all its hosts (`other`: per host).' }),
    messages_per_connection: Type.Integer({ description: 'Transactions per session before it is closed.' }),
    per_minute: Nullable(Type.Integer(), 'The configured maximum pace, recipients per minute; null: none.'),
    adaptive: Type.Boolean({
      description: 'Whether throttling replies and blocks change its state (every provider but `other`).',
    }),
    rate: Nullable(
      Type.Number(),
      'The pace now, recipients per minute, over the cluster; null without a per-minute limit.',
    ),
    throttled: Type.Boolean({ description: 'True while the pace is below the maximum after throttling replies.' }),
    throttle_events: Type.Integer({ description: 'Throttling replies received from it.' }),
    last_throttle_at: Nullable(Type.String({ format: 'date-time' }), 'When the last throttling reply came.'),
    last_reply: Nullable(Type.String(), 'The last throttling reply, verbatim.'),
    suspended: Type.Boolean({ description: 'True while any node sends nothing to it after a reputation block.' }),
    suspensions: Type.Array(
      Type.Object(
        {
          node: Type.String({ description: 'The node (its POSTHORN_HOSTNAME) that is suspended.' }),
          since: Type.String({ format: 'date-time' }),
          until: Type.String({ format: 'date-time' }),
          reply: Type.String({ description: 'The block reply, verbatim.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The suspensions in force, one per node.' },
    ),
  },
  { additionalProperties: false },
);

export const ProviderList = Type.Object(
  { providers: Type.Array(ProviderState, { description: 'Every provider, `other` last.' }) },
  { additionalProperties: false },
);

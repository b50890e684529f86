import { Type } from 'typebox';

/** `YYYY-MM`, a calendar month (UTC). */
const month = (description: string) =>
  Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description, examples: ['2026-11'] });

export const UsageQuery = Type.Object(
  { month: Type.Optional(month('The month to report, `YYYY-MM` (UTC); the current month when left out.')) },
  { additionalProperties: false },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const UsageDay = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'The UTC day, `YYYY-MM-DD`.', examples: ['2026-11-21'] }),
    accepted: Count('Recipients accepted (`accepted-by-system` events).'),
    delivered: Count('`delivered` events.'),
    failed: Count('`failed` events (hard, soft and block bounces, and mail given up on).'),
    complained: Count('`complained` events (spam complaints).'),
    opened: Count('`opened` events, every load of the pixel.'),
    clicked: Count('`clicked` events, every tracked link followed.'),
  },
  { additionalProperties: false },
);

const complaintRate = (description: string) =>
  Type.Object(
    {
      complaints: Count('`complained` events in the window.'),
      delivered: Count('`delivered` events in the window.'),
      rate: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
        description: 'complaints / delivered; null when nothing was delivered in the window.',
      }),
      threshold: Type.Number({ description: 'The acceptable use policy’s limit (0.001 = 0.1%).' }),
      warning_at: Type.Number({ description: 'A domain above this rate gets a `domain.complaint_rate` notice.' }),
      window_days: Type.Integer({ description: 'The rolling window, in days, ending now.' }),
      min_delivered: Type.Integer({ description: 'No notice is raised below this many deliveries in the window.' }),
    },
    {
      additionalProperties: false,
      description,
      examples: [
        {
          complaints: 1,
          delivered: 5120,
          rate: 0.000195,
          threshold: 0.001,
          warning_at: 0.0008,
          window_days: 30,
          min_delivered: 1000,
        },
      ],
    },
  );

export const Usage = Type.Object(
  {
    month: month('The month reported, `YYYY-MM` (UTC).'),
    accepted: Count(
      'Recipients accepted this month over every domain of the account: the count the quota is held against.',
    ),
    quota: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'The account’s monthly quota in accepted recipients; null when there is none.',
    }),
    days: Type.Array(UsageDay, {
      description:
        'One entry per UTC day of the month, oldest first: up to today for the current month, every day for a past one, none for a month to come.',
    }),
    complaint_rate: complaintRate(
      'The account’s rolling 30-day complaint rate as of now, over all its domains (the same figures as `GET /v1/domain` gives per domain), whatever `month` asks for.',
    ),
  },
  {
    additionalProperties: false,
    description: 'The month’s usage.',
    examples: [
      {
        month: '2026-11',
        accepted: 1250,
        quota: 50000,
        days: [{ date: '2026-11-01', accepted: 40, delivered: 39, failed: 1, complained: 0, opened: 12, clicked: 3 }],
        complaint_rate: {
          complaints: 1,
          delivered: 5120,
          rate: 0.000195,
          threshold: 0.001,
          warning_at: 0.0008,
          window_days: 30,
          min_delivered: 1000,
        },
      },
    ],
  },
);

/**
 * The template engine: Handlebars (docs/templates.md), locked down. An isolated Handlebars
 * environment with only the helpers of docs/templates.md (the built-in `if`, `unless`, `each`,
 * `with`, and `eq`, `default`, `date`), no partials, no decorators, no `log` or `lookup`; parts
 * are compiled with `knownHelpersOnly` from the tree template-syntax.ts checked and rewrote, and
 * rendered with prototype access denied. Every helper call, write and block entry spends from a
 * render budget (steps and characters), so a render ends, refused, long before it can hang the
 * process or fill its memory.
 */
import Handlebars from 'handlebars';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { INTERNAL_HELPERS, type ParsedPart, type TemplatePart } from './template-syntax.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Why a render stopped: over its step or size budget, or a helper given a value it cannot use. */
export class RenderStop extends Error {
  override readonly name = 'RenderStop';
  constructor(
    readonly kind: 'steps' | 'output' | 'value',
    message: string,
  ) {
    super(message);
  }
}

/** What one render may spend. */
export interface RenderBudget {
  steps: number;
  chars: number;
}

// Rendering is synchronous, so the budget of the render under way can live here: the helpers
// spend from it, and `withBudget` sets and clears it around one render.
let current: { steps: number; chars: number; limits: RenderBudget } | null = null;

function spend(steps: number, chars: number): void {
  const b = current;
  if (b === null) throw new Error('a template helper ran outside a render');
  b.steps -= steps;
  b.chars -= chars;
  if (b.steps < 0)
    throw new RenderStop(
      'steps',
      `the render took more than ${b.limits.steps} steps (values written, blocks entered, helpers called); look for #each over large lists, or #each inside #each`,
    );
  if (b.chars < 0) throw new RenderStop('output', `the rendered message is over ${b.limits.chars} characters`);
}

/** Runs `fn` (one or more part renders) under one budget. */
export function withBudget<T>(limits: RenderBudget, fn: () => T): T {
  if (current !== null) throw new Error('renders do not nest');
  current = { steps: limits.steps, chars: limits.chars, limits };
  try {
    return fn();
  } finally {
    current = null;
  }
}

const env = Handlebars.create();
env.unregisterHelper('log');
env.unregisterHelper('lookup');
env.unregisterDecorator('inline');
// Handlebars logs each property it denies through the prototype (`{{name.toUpperCase}}`) on
// console.error: a template author could fill the service's log with them at will. The denial
// itself stays; only its log line is silenced (the level is above `error`).
env.logger.level = 4;

// The built-in block helpers, each call counted as a step (an #each iteration is counted when its
// block is entered, by the `__s` that template-syntax.ts puts at the top of every block).
for (const name of ['if', 'unless', 'each', 'with']) {
  const builtin = env.helpers[name]!;
  env.registerHelper(name, function (this: unknown, ...args: unknown[]) {
    spend(1, 0);
    return (builtin as (...a: unknown[]) => unknown).apply(this, args);
  });
}

env.registerHelper('eq', (a: unknown, b: unknown) => {
  spend(1, 0);
  return a === b;
});

env.registerHelper('default', (value: unknown, fallback: unknown) => {
  spend(1, 0);
  return value === undefined || value === null || value === '' ? fallback : value;
});

env.registerHelper('date', (value: unknown, format: string, options: Handlebars.HelperOptions) => {
  spend(1, 0);
  if (value === undefined || value === null || value === '') return '';
  const d =
    typeof value === 'number'
      ? dayjs.unix(value).utc()
      : typeof value === 'string' && isIsoDate(value)
        ? dayjs.utc(value)
        : null;
  if (d === null || !d.isValid())
    throw new RenderStop(
      'value',
      `date was given ${JSON.stringify(value).slice(0, 60)}, which is neither an ISO 8601 date (2026-11-25 or 2026-11-25T09:30:00Z) nor Unix seconds`,
    );
  const tz = (options.hash as { tz?: string }).tz;
  return (tz === undefined ? d : d.tz(tz)).format(format);
});

/** ISO 8601 dates and date-times dayjs reads exactly: `2026-11-25`, `2026-11-25T09:30:00.000Z`, with an offset. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date whose fields are in range: dayjs (like Date) rolls `2026-02-30` over into
 * March rather than refusing it, and a wrong date in a receipt is worse than a refused send.
 */
function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  return day.getUTCMonth() === mo! - 1 && day.getUTCDate() === d && h! < 24 && mi! < 60 && s! < 60;
}

env.registerHelper(INTERNAL_HELPERS.text, (chars: number) => {
  spend(1, chars);
  return '';
});

/**
 * A value as Handlebars writes it (`'' + value`: arrays joined with commas, objects as
 * `[object Object]`), without calling anything the value holds: a JSON object may have a key
 * named `toString`, which `'' + value` would try to call.
 */
function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(toText).join(',');
  if (typeof value === 'object') return '[object Object]';
  return String(value);
}

const CONTROL_RUN = /[\p{Cc}]+/gu;

/** How each part writes a value: HTML-escaped (unless `{{{raw}}}`) in html, as is in text, on one line in the subject. */
const WRITERS: Record<TemplatePart, { escaped: (v: unknown) => string; raw: (v: unknown) => string }> = {
  html: { escaped: (v) => Handlebars.escapeExpression(toText(v)), raw: toText },
  text: { escaped: toText, raw: toText },
  // No value can start a new header line: CR, LF and every other control character become a space.
  subject: { escaped: (v) => toText(v).replace(CONTROL_RUN, ' '), raw: (v) => toText(v).replace(CONTROL_RUN, ' ') },
};

const PART_HELPERS = Object.fromEntries(
  (Object.keys(WRITERS) as TemplatePart[]).map((part) => {
    const w = WRITERS[part];
    const counted = (write: (v: unknown) => string) => (v: unknown) => {
      const s = write(v);
      spend(1, s.length);
      return s;
    };
    return [part, { [INTERNAL_HELPERS.escaped]: counted(w.escaped), [INTERNAL_HELPERS.raw]: counted(w.raw) }];
  }),
) as unknown as Record<TemplatePart, Record<string, (v: unknown) => string>>;

const COMPILE_OPTIONS = {
  knownHelpers: {
    if: true,
    unless: true,
    each: true,
    with: true,
    eq: true,
    default: true,
    date: true,
    [INTERNAL_HELPERS.escaped]: true,
    [INTERNAL_HELPERS.raw]: true,
    [INTERNAL_HELPERS.text]: true,
    log: false,
    lookup: false,
    helperMissing: false,
    blockHelperMissing: false,
  },
  knownHelpersOnly: true,
  data: true,
  compat: false,
  strict: false,
  assumeObjects: false,
  preventIndent: true,
  // The parser already applied whitespace control to the tree (template-syntax.ts).
  ignoreStandalone: true,
} as const;

/** A compiled part, ready to render with `renderPart`. */
export interface CompiledPart {
  part: TemplatePart;
  render: Handlebars.TemplateDelegate;
}

export function compilePart(part: TemplatePart, parsed: ParsedPart): CompiledPart {
  return { part, render: env.compile(parsed.program, COMPILE_OPTIONS) };
}

/** Renders a compiled part with `variables`; call inside `withBudget`. Throws RenderStop when it must stop. */
export function renderPart(compiled: CompiledPart, variables: Record<string, unknown>): string {
  return compiled.render(variables, {
    helpers: PART_HELPERS[compiled.part],
    allowProtoPropertiesByDefault: false,
    allowProtoMethodsByDefault: false,
    allowCallsToHelperMissing: false,
  });
}

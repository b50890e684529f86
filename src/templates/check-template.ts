/**
 * Checking a version before it is stored (docs/templates.md): the subject one line of text, html
 * and text within their size, each part valid template syntax using only what Posthorn renders
 * (a TemplateSyntaxError becomes a refusal naming the part, with its line and column), compiled
 * and run once, and the variables it uses listed. A large part is checked on an offload thread:
 * Handlebars' compiler can take a good fraction of a second over a large template.
 */
import { RefusedError } from '../core/refused-error.js';
import { controlCharacter, loneSurrogatePath } from '../core/text-checks.js';
import type { OffloadPool } from '../offload/offload-pool.js';
import { MAX_BODY_SOURCE, MAX_SUBJECT_SOURCE } from './template-limits.js';
import { parsePart, TemplateSyntaxError, type TemplatePart } from './template-syntax.js';
import { compileVersion, type TemplateSources } from './render-version.js';
import { renderPart, RenderStop, withBudget } from './template-runtime.js';
import { compilesInline, INLINE_BUDGET } from './render-template.js';

/** What a version is made from: a subject and at least one of html and text (Handlebars syntax). */
export interface TemplateInput {
  subject: string;
  html?: string | null | undefined;
  text?: string | null | undefined;
}

/** A version checked: its sources as stored, and the variable paths they use. */
export type CheckedTemplate = TemplateSources & { variables: string[] };

/** The check's outcome as a value (it crosses threads): the version, or the refusal's field and message. */
export type CheckOutcome = { ok: true; checked: CheckedTemplate } | { ok: false; field: string; message: string };

const refuse = (field: string, message: string): never => {
  throw new RefusedError('invalid', message, { field });
};

function checkInput(input: TemplateInput): CheckedTemplate {
  if (typeof input.subject !== 'string' || input.subject.trim() === '')
    refuse('subject', 'subject is required: the template of the subject line');
  const subject = input.subject.trim();
  if (subject.length > MAX_SUBJECT_SOURCE) refuse('subject', `subject is longer than ${MAX_SUBJECT_SOURCE} characters`);
  const control = controlCharacter(subject, false);
  if (control !== null) refuse('subject', `subject must be one line without control characters; found ${control}`);
  const body = (part: 'html' | 'text'): string | null => {
    const v = input[part];
    if (v === undefined || v === null || v === '') return null;
    if (typeof v !== 'string') return refuse(part, `${part} must be a string`);
    if (v.length > MAX_BODY_SOURCE) refuse(part, `${part} is longer than ${MAX_BODY_SOURCE} characters (1 MiB)`);
    return v;
  };
  const sources: TemplateSources = { subject, html: body('html'), text: body('text') };
  if (sources.html === null && sources.text === null) refuse('html', 'one of html or text is required');
  for (const part of ['subject', 'html', 'text'] as const) {
    if (sources[part] !== null && loneSurrogatePath(sources[part], part) !== null)
      refuse(part, `${part} contains a lone surrogate, which is not a character`);
  }
  const variables = new Set<string>();
  for (const part of ['subject', 'html', 'text'] as const) {
    const source = sources[part];
    if (source === null) continue;
    try {
      for (const v of parsePart(part, source).variables) variables.add(v);
    } catch (err) {
      if (err instanceof TemplateSyntaxError) refuse(err.part, err.message);
      throw err;
    }
  }
  dryRun(sources);
  return { ...sources, variables: [...variables].sort() };
}

/**
 * Compiles the version and runs each part once with no variables, so that nothing about it can
 * first fail at a send: Handlebars compiles on first use, and a part it would not compile is
 * refused now.
 */
function dryRun(sources: TemplateSources): void {
  const compiled = compileVersion(sources);
  for (const p of compiled.parts) {
    try {
      withBudget(INLINE_BUDGET, () => renderPart(p.compiled, {}));
    } catch (err) {
      if (err instanceof RenderStop) continue; // a budget or a value: the variables decide, at render time
      refuse(p.part as TemplatePart, `${p.part}: ${(err as Error).message}`);
    }
  }
}

/** The offload task: the check, with its refusal as a value. */
export function checkTemplateTask(input: TemplateInput): CheckOutcome {
  try {
    return { ok: true, checked: checkInput(input) };
  } catch (err) {
    if (err instanceof RefusedError) return { ok: false, field: err.field ?? 'body', message: err.message };
    throw err;
  }
}

const CHECK_TASK = new URL('./check-template.js', import.meta.url).href;

/** Checks `input` (inline when it is small, on `pool` otherwise); a RefusedError naming the field at fault. */
export async function checkTemplate(pool: OffloadPool, input: TemplateInput): Promise<CheckedTemplate> {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  // Anything not a string is refused at once, inline; only well-formed large input goes to the pool.
  const inline = compilesInline({ subject: text(input.subject) ?? '', html: text(input.html), text: text(input.text) });
  const out = inline
    ? checkTemplateTask(input)
    : ((await pool.run({ module: CHECK_TASK, fn: 'checkTemplateTask', input })) as CheckOutcome);
  if (!out.ok) throw new RefusedError('invalid', out.message, { field: out.field });
  return out.checked;
}

/**
 * A render, inline when it is small and on the offload pool when it is not (src/offload/): the
 * version is first rendered on this thread with a small budget, which nearly every
 * transactional message fits; one that needs more (a large output, a long list) is rendered
 * again on an offload thread with the full budget, and a version too large to compile here
 * cheaply is compiled and rendered only there. So a large or slow render never holds the event
 * loop, and no render on this thread costs more than the small budget.
 */
import { OFFLOAD_MIN_BYTES, type OffloadPool } from '../offload/offload-pool.js';
import type { RenderBudget } from './template-runtime.js';
import { countTags } from './template-syntax.js';
import {
  compiledVersion,
  cachedVersion,
  FULL_BUDGET,
  renderVersion,
  type RenderOutcome,
  type TemplateSources,
} from './render-version.js';

/** What this thread may spend before a render moves to the pool: a few milliseconds. */
export const INLINE_BUDGET: RenderBudget = { steps: 5_000, chars: OFFLOAD_MIN_BYTES };
/** Tags a version may have to be compiled on this thread (Handlebars compiles ~0.1 ms per tag). */
const INLINE_COMPILE_TAGS = 200;

/**
 * Whether compiling a version costs little enough to do on this thread: small, with few tags.
 * One that does not is compiled, and rendered, only on offload threads.
 */
export function compilesInline(sources: TemplateSources): boolean {
  const size = sources.subject.length + (sources.html?.length ?? 0) + (sources.text?.length ?? 0);
  if (size >= OFFLOAD_MIN_BYTES) return false;
  return countTags(sources.subject) + countTags(sources.html) + countTags(sources.text) <= INLINE_COMPILE_TAGS;
}

/** One render of a stored version. `sources` is read only when the compiled version is not cached or the render moves to the pool. */
export interface RenderJob {
  /** `<template id>:<version>`: versions never change, so this names the compiled parts for good. */
  key: string;
  sources: () => Promise<TemplateSources>;
  variables: Record<string, unknown>;
  /** The send gave its own subject: the template's is not rendered. */
  skipSubject: boolean;
}

/** What crosses to the offload thread. */
export interface RenderTaskInput {
  key: string;
  sources: TemplateSources;
  variables: Record<string, unknown>;
  skipSubject: boolean;
}

/** The offload task: a render with the full budget, compiled versions cached per thread. */
export function renderTemplateTask(input: RenderTaskInput): RenderOutcome {
  return renderVersion(compiledVersion(input.key, input.sources), input.variables, {
    skipSubject: input.skipSubject,
    budget: FULL_BUDGET,
  });
}

const RENDER_TASK = new URL('./render-template.js', import.meta.url).href;

/** Renders `job`: inline within INLINE_BUDGET, else on `pool` (an OffloadBusyError when its queue is full). */
export async function renderTemplate(pool: OffloadPool, job: RenderJob): Promise<RenderOutcome> {
  let sources: TemplateSources | undefined;
  const load = async () => (sources ??= await job.sources());
  let compiled = cachedVersion(job.key);
  if (compiled === undefined && compilesInline(await load())) compiled = compiledVersion(job.key, await load());
  if (compiled !== undefined) {
    const inline = renderVersion(compiled, job.variables, { skipSubject: job.skipSubject, budget: INLINE_BUDGET });
    if (inline.ok || (inline.failure.kind !== 'steps' && inline.failure.kind !== 'output')) return inline;
  }
  const input: RenderTaskInput = {
    key: job.key,
    sources: await load(),
    variables: job.variables,
    skipSubject: job.skipSubject,
  };
  return (await pool.run({ module: RENDER_TASK, fn: 'renderTemplateTask', input })) as RenderOutcome;
}

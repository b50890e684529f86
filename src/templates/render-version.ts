/**
 * Rendering one stored template version with a set of variables: the parts compiled once per
 * version and kept in a bounded LRU cache (versions never change, so an entry never goes stale),
 * the variables the version needs checked first, then one render of every part under one budget.
 * Pure and synchronous, so it runs the same inline and on an offload thread (render-template.ts).
 */
import { LRUCache } from 'lru-cache';
import { MAX_RENDERED_BYTES, MAX_RENDER_STEPS, MAX_SUBJECT } from './template-limits.js';
import { formatPath, parsePart, type TemplatePart } from './template-syntax.js';
import {
  compilePart,
  renderPart,
  RenderStop,
  withBudget,
  type CompiledPart,
  type RenderBudget,
} from './template-runtime.js';

/** A version's sources, as stored. */
export interface TemplateSources {
  subject: string;
  html: string | null;
  text: string | null;
}

/** The parts of one version, compiled, with the variable paths each needs given. */
export interface CompiledVersion {
  parts: { part: TemplatePart; compiled: CompiledPart; required: string[][] }[];
  /** Characters of source, the entry's weight in the cache. */
  size: number;
}

/** What a render gives: each part (null when the version has none, or the subject was not rendered), or why it stopped. */
export type RenderOutcome =
  | { ok: true; subject: string | null; html: string | null; text: string | null }
  | { ok: false; failure: RenderFailure };

/**
 * Why a render did not give a message: a needed variable is missing (`path`), the render ran over
 * its step or size budget, a helper was given a value it cannot use, or the subject came out
 * empty or too long, or no body at all.
 */
export interface RenderFailure {
  kind: 'missing' | 'steps' | 'output' | 'value' | 'subject' | 'empty';
  message: string;
  path?: string;
}

/** The budget of a render that may run to its end. */
export const FULL_BUDGET: RenderBudget = { steps: MAX_RENDER_STEPS, chars: MAX_RENDERED_BYTES };

// Compiled versions, by `<template id>:<version>`: at most 1,000, and at most 64 Mi characters
// of source among them (a compiled part costs a few times its source).
const cache = new LRUCache<string, CompiledVersion>({
  max: 1000,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (v) => Math.max(1, v.size),
});

/** Parses and compiles every part of a version (syntax errors throw TemplateSyntaxError). */
export function compileVersion(sources: TemplateSources): CompiledVersion {
  const parts: CompiledVersion['parts'] = [];
  for (const part of ['subject', 'html', 'text'] as const) {
    const source = sources[part];
    if (source === null) continue;
    const parsed = parsePart(part, source);
    parts.push({ part, compiled: compilePart(part, parsed), required: parsed.required });
  }
  return { parts, size: sources.subject.length + (sources.html?.length ?? 0) + (sources.text?.length ?? 0) };
}

/** The cached compiled version under `key`, if any. */
export function cachedVersion(key: string): CompiledVersion | undefined {
  return cache.get(key);
}

/** The compiled version under `key`, compiled from `sources` and cached when not there yet. */
export function compiledVersion(key: string, sources: TemplateSources): CompiledVersion {
  const hit = cache.get(key);
  if (hit) return hit;
  const compiled = compileVersion(sources);
  cache.set(key, compiled);
  return compiled;
}

/** The first needed path `variables` lacks (a path through a value that is not an object counts as missing), or null. */
export function missingVariable(required: string[][], variables: Record<string, unknown>): string | null {
  for (const path of required) {
    let at: unknown = variables;
    for (const segment of path) {
      const holder = typeof at === 'string' || (typeof at === 'object' && at !== null);
      if (!holder || !Object.prototype.hasOwnProperty.call(at, segment)) return formatPath(path);
      at = (at as Record<string, unknown>)[segment];
    }
    if (at === undefined) return formatPath(path);
  }
  return null;
}

/**
 * Renders `version` with `variables` under `budget`; the subject is left out when `skipSubject`
 * (the send gave its own). A part that renders empty counts as absent.
 */
export function renderVersion(
  version: CompiledVersion,
  variables: Record<string, unknown>,
  opts: { skipSubject: boolean; budget: RenderBudget },
): RenderOutcome {
  const parts = version.parts.filter((p) => !(opts.skipSubject && p.part === 'subject'));
  for (const p of parts) {
    const missing = missingVariable(p.required, variables);
    if (missing !== null)
      return {
        ok: false,
        failure: {
          kind: 'missing',
          path: missing,
          message: `the template's ${p.part} uses ${missing} outside an #if, #unless or #each, and the variables do not give it (null renders as nothing)`,
        },
      };
  }
  const out: Record<TemplatePart, string | null> = { subject: null, html: null, text: null };
  try {
    withBudget(opts.budget, () => {
      for (const p of parts) out[p.part] = renderPart(p.compiled, variables);
    });
  } catch (err) {
    if (err instanceof RenderStop) return { ok: false, failure: { kind: err.kind, message: err.message } };
    throw err;
  }
  const bytes = parts.reduce((n, p) => n + Buffer.byteLength(out[p.part] ?? ''), 0);
  if (bytes > MAX_RENDERED_BYTES)
    return {
      ok: false,
      failure: {
        kind: 'output',
        message: `the rendered message is ${bytes} bytes, over ${MAX_RENDERED_BYTES} (10 MiB)`,
      },
    };
  const html = out.html === '' ? null : out.html;
  const text = out.text === '' ? null : out.text;
  if (html === null && text === null)
    return {
      ok: false,
      failure: { kind: 'empty', message: 'the template rendered no html and no text with these variables' },
    };
  let subject: string | null = null;
  if (!opts.skipSubject) {
    subject = (out.subject ?? '').trim();
    if (subject === '')
      return {
        ok: false,
        failure: { kind: 'subject', message: "the template's subject rendered empty with these variables" },
      };
    if (subject.length > MAX_SUBJECT)
      return {
        ok: false,
        failure: {
          kind: 'subject',
          message: `the rendered subject is ${subject.length} characters, over ${MAX_SUBJECT}`,
        },
      };
  }
  return { ok: true, subject, html, text };
}

/**
 * Reading a template part (its subject, html or text) at save time: Handlebars' own parser, then
 * one walk over its syntax tree that (1) refuses everything outside the subset Posthorn renders,
 * (2) lists the variables the part uses and which of them it uses unguarded, and (3) rewrites the
 * tree so that every write and every block the part makes is counted against the render budget
 * (template-runtime.ts). Syntax errors name the line and column.
 *
 * Hand-written because Handlebars has no option for any of the three: `knownHelpersOnly` refuses
 * unknown helpers only when the template is first run, and nothing in it lists variables or
 * bounds a render. The tree it produces is Handlebars' own (docs: "compile accepts an AST"), with
 * only nodes the parser itself makes: helper calls whose arguments come from the template and
 * number literals this file computes.
 */
import Handlebars from 'handlebars';
import { MAX_NESTING, MAX_TAG_CHARS, MAX_TAGS } from './template-limits.js';

export type TemplatePart = 'subject' | 'html' | 'text';

type Program = hbs.AST.Program;
type Statement = hbs.AST.Statement;
type Expression = hbs.AST.Expression;
type PathExpression = hbs.AST.PathExpression;
type SubExpression = hbs.AST.SubExpression;
type MustacheStatement = hbs.AST.MustacheStatement;
type BlockStatement = hbs.AST.BlockStatement;
type Hash = hbs.AST.Hash;
type Loc = hbs.AST.SourceLocation;

/** The block helpers and the value helpers a template may call (docs/templates.md, Helpers). */
export const BLOCK_HELPERS = ['if', 'unless', 'each', 'with'] as const;
export const VALUE_HELPERS = ['eq', 'default', 'date'] as const;
const BLOCKS = new Set<string>(BLOCK_HELPERS);
const VALUES = new Set<string>(VALUE_HELPERS);
const HELPER_LIST = [...BLOCK_HELPERS, ...VALUE_HELPERS].join(', ');

/**
 * The helpers the rewritten tree calls; a template cannot name them (a simple name that matches a
 * helper is a helper call in Handlebars, so `{{__e}}` is refused rather than resolved).
 */
export const INTERNAL_HELPERS = {
  /** `{{x}}`: the value written, escaped for the part (HTML-escaped in html). */
  escaped: '__e',
  /** `{{{x}}}`: the value written as it is (still header-safe in the subject). */
  raw: '__r',
  /** Counts a block's literal text each time the block is entered. */
  text: '__s',
} as const;
const INTERNAL = new Set<string>(Object.values(INTERNAL_HELPERS));

/** `@` variables Handlebars sets inside blocks; `@root` is the variables themselves. */
const DATA_VARIABLES = new Set(['index', 'key', 'first', 'last', 'root']);

/**
 * Names that lead to JavaScript's object machinery rather than to data. Handlebars denies reading
 * them through the prototype at render time already; a template that names them is refused at
 * save time as well, so the denial is never the only guard.
 */
const FORBIDDEN_NAMES = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

/** A template part that does not parse or uses what Posthorn does not render, at a line and column (both from 1). */
export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
  constructor(
    readonly part: TemplatePart,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${part}: line ${line}, column ${column}: ${detail}`);
  }
}

/** A part read and checked: the rewritten tree to compile, and the variables it uses. */
export interface ParsedPart {
  program: Program;
  /** Every variable path the part uses, sorted: `user.name`, `items[].price` (`[]`: each element). */
  variables: string[];
  /** The paths used outside any guard (`#if`, `#unless`, `#each`, a `#with` with `{{else}}`, `default`): a render needs each given. */
  required: string[][];
}

/** A block's context: the variable path it stands for, and the block parameters it names (`as |item i|`). */
interface Scope {
  base: string[];
  params: Map<string, string[] | null>;
}

interface Walk {
  part: TemplatePart;
  /** Context scopes, outermost first: `../` goes one up. Only `#each` and `#with` add one. */
  scopes: Scope[];
  /** Inside a guard: a missing variable renders as nothing rather than being refused. */
  guarded: boolean;
  nesting: number;
  variables: Set<string>;
  required: Map<string, string[]>;
}

/** Parses, checks and rewrites one part; a TemplateSyntaxError when it cannot be rendered. */
export function parsePart(part: TemplatePart, source: string): ParsedPart {
  const program = parseSource(part, source);
  const walk: Walk = {
    part,
    scopes: [{ base: [], params: new Map() }],
    guarded: false,
    nesting: 0,
    variables: new Set(),
    required: new Map(),
  };
  try {
    walkProgram(walk, program);
  } catch (err) {
    // A tree too deep for the stack is refused like one too deep for MAX_NESTING (which it exceeds).
    if (err instanceof RangeError) fail(walk.part, program.loc, `blocks nest more than ${MAX_NESTING} deep`);
    throw err;
  }
  return { program, variables: [...walk.variables].sort(), required: [...walk.required.values()] };
}

function parseSource(part: TemplatePart, source: string): Program {
  prescan(part, source);
  try {
    return Handlebars.parse(source);
  } catch (err) {
    const e = err as Error & { lineNumber?: number; column?: number };
    if (typeof e.lineNumber === 'number' && typeof e.column === 'number') {
      // Handlebars' own exceptions (a close that does not match its open) end in " - line:column".
      const message = e.message.replace(/ - \d+:\d+$/, '');
      const mismatch = /^(.+) doesn't match (.+)$/.exec(message);
      const detail = mismatch ? `{{#${mismatch[1]}}} is closed by {{/${mismatch[2]}}}` : message;
      throw new TemplateSyntaxError(part, e.lineNumber, e.column + 1, detail);
    }
    if (err instanceof RangeError)
      throw new TemplateSyntaxError(part, 1, 1, `blocks nest more than ${MAX_NESTING} deep`);
    // The parser's errors carry the line in the message and the position in its lexer's state;
    // test/unit/templates/template-syntax.test.ts pins both, so an upgrade that moves them fails.
    const parser = (
      Handlebars as unknown as { Parser?: { lexer?: { yylloc?: { first_line: number; first_column: number } } } }
    ).Parser;
    const at = parser?.lexer?.yylloc;
    const line = at?.first_line ?? Number(/on line (\d+)/.exec(e.message)?.[1] ?? 1);
    const column = (at?.first_column ?? 0) + 1;
    const token = /got '([A-Z_]+)'$|Unexpected '?([A-Za-z_ ]+)'?$/.exec(e.message);
    const name = token?.[1] ?? token?.[2] ?? '';
    throw new TemplateSyntaxError(part, line, column, `unexpected ${TOKENS[name] ?? (name || 'text')}`);
  }
}

/**
 * One linear pass over the source before Handlebars' parser runs, refusing what would make that
 * parser or its compiler slow: more than MAX_TAGS tags or MAX_TAG_CHARS inside them, or blocks (with their `{{else if}}` chains)
 * or parentheses nested more than MAX_NESTING deep; the parser's time grows with the square of
 * the nesting (20,000 nested `{{#if}}` take minutes). It over-counts rather than under-counts
 * (a `{{` in a string literal counts as a tag), which only matters far beyond any real template.
 */
function prescan(part: TemplatePart, source: string): void {
  const at = (index: number, detail: string): never => {
    const before = source.slice(0, index);
    const line = before.split('\n').length;
    throw new TemplateSyntaxError(part, line, index - before.lastIndexOf('\n'), detail);
  };
  let inside = 0;
  let tags = 0;
  let depth = 0;
  const chains: number[] = [];
  for (let i = source.indexOf('{{'); i !== -1; i = source.indexOf('{{', i)) {
    let slashes = 0;
    while (source[i - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 1) {
      i += 2; // `\{{` is text
      continue;
    }
    let j = i + 2;
    while (source[j] === '{') j++;
    if (source[j] === '~') j++;
    if (source[j] === '!') {
      const end = source.startsWith('!--', j) ? /--~?\}\}/g : /\}\}/g;
      end.lastIndex = j;
      const m = end.exec(source);
      if (m === null) return; // unclosed: the parser says so
      i = m.index + m[0].length;
      continue;
    }
    const close = source.indexOf('}}', j);
    if (close === -1) return;
    const tag = source.slice(j, close);
    inside += close + 2 - i;
    if (++tags > MAX_TAGS) at(i, `this part has more than ${MAX_TAGS} {{…}} tags; split the template`);
    if (inside > MAX_TAG_CHARS)
      at(i, `the {{…}} tags of this part hold more than ${MAX_TAG_CHARS} characters; split the template`);
    if (tag.startsWith('#') || (tag.startsWith('^') && tag.slice(1).replace('~', '').trim() !== '')) {
      chains.push(0);
      depth++;
    } else if (tag.startsWith('/')) {
      if (chains.length > 0) depth -= 1 + chains.pop()!;
    } else if (/^\s*else\s+[^\s~]/.test(tag) && chains.length > 0) {
      chains[chains.length - 1]!++;
      depth++;
    }
    if (depth > MAX_NESTING) at(i, `blocks nest more than ${MAX_NESTING} deep ({{else if}} counts as one more)`);
    let parens = 0;
    let quote = '';
    for (const c of tag) {
      if (quote !== '') {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '(' && ++parens > MAX_NESTING) at(i, `helpers nest more than ${MAX_NESTING} deep`);
      else if (c === ')') parens--;
    }
    i = close + 2;
  }
}

/** The parser's token names, as a template author knows them. */
const TOKENS: Record<string, string> = {
  EOF: 'end of the part: is a {{/…}} missing?',
  'end of input': 'end of the part: is a {{/…}} missing?',
  INVALID: 'text inside {{…}}: expected a name, a quoted string or }}',
  CLOSE: '}}',
  CLOSE_UNESCAPED: '}}}',
  CLOSE_RAW_BLOCK: '}}}}',
  INVERSE: '{{else}}',
  OPEN_INVERSE_CHAIN: '{{else …}}',
  OPEN_ENDBLOCK: '{{/…}}',
  OPEN_BLOCK: '{{#…}}',
  OPEN: '{{',
  EQUALS: '=',
  OPEN_SEXPR: '(',
  CLOSE_SEXPR: ')',
  OPEN_BLOCK_PARAMS: 'as |',
  CLOSE_BLOCK_PARAMS: '|',
  ID: 'a name',
  STRING: 'a quoted string',
  NUMBER: 'a number',
  CONTENT: 'text',
};

function fail(part: TemplatePart, loc: Loc | undefined, detail: string): never {
  throw new TemplateSyntaxError(part, loc?.start.line ?? 1, (loc?.start.column ?? 0) + 1, detail);
}

function walkProgram(w: Walk, program: Program): void {
  let text = 0;
  for (let i = 0; i < program.body.length; i++) {
    const s = program.body[i]!;
    switch (s.type) {
      case 'ContentStatement':
        text += (s as hbs.AST.ContentStatement).value.length;
        break;
      case 'CommentStatement':
        break;
      case 'MustacheStatement':
        program.body[i] = walkMustache(w, s as MustacheStatement);
        break;
      case 'BlockStatement':
        walkBlock(w, s as BlockStatement);
        break;
      case 'PartialStatement':
      case 'PartialBlockStatement':
        fail(w.part, s.loc, 'partials ({{> name}}) are not available: a template is one self-contained part');
        break;
      case 'Decorator':
      case 'DecoratorBlock':
        fail(w.part, s.loc, 'decorators ({{* name}}) and inline partials are not available');
        break;
      default:
        fail(w.part, s.loc, `${s.type} is not available in templates`);
    }
    if (s.type === 'MustacheStatement' || s.type === 'BlockStatement') clearStrip(s);
  }
  // A chained `{{else if}}` program holds only its block and no text of its own.
  if (!(program as Program & { chained?: boolean }).chained) {
    program.body.unshift(call(INTERNAL_HELPERS.text, [numberLiteral(text, program.loc)], program.loc));
  }
}

/**
 * Whitespace control (`~`, standalone lines) is applied by the parser; the flags are cleared so
 * that compiling the rewritten tree, which runs whitespace control again, changes nothing more.
 */
function clearStrip(s: Statement): void {
  const node = s as { strip?: unknown; openStrip?: unknown; inverseStrip?: unknown; closeStrip?: unknown };
  const off = { open: false, close: false };
  if (node.strip) node.strip = off;
  if (node.openStrip) node.openStrip = off;
  if (node.inverseStrip) node.inverseStrip = off;
  if (node.closeStrip) node.closeStrip = off;
}

/** `{{x}}`, `{{{x}}}`, `{{helper args}}`: checked, its variables noted, and rewritten to a counted write. */
function walkMustache(w: Walk, m: MustacheStatement): Statement {
  if (m.path.type !== 'PathExpression')
    fail(w.part, m.loc, 'a literal cannot be written with {{…}}; write the text itself');
  const path = m.path as PathExpression;
  const helper = helperName(path, m.params, m.hash);
  let value: Expression;
  if (helper === null) {
    if (m.params.length > 0 || m.hash)
      fail(w.part, m.loc, `only helpers take arguments, and ${path.original} is not one (helpers: ${HELPER_LIST})`);
    usePath(w, path, w.guarded);
    value = path;
  } else {
    if (BLOCKS.has(helper)) fail(w.part, m.loc, `${helper} is a block helper: write {{#${helper} …}}…{{/${helper}}}`);
    walkValueHelper(w, helper, path, m.params, m.hash, m.loc);
    value = { type: 'SubExpression', path, params: m.params, hash: m.hash, loc: m.loc } as SubExpression;
  }
  return call(m.escaped ? INTERNAL_HELPERS.escaped : INTERNAL_HELPERS.raw, [value], m.loc);
}

/**
 * The helper a mustache, block or subexpression calls, or null for a variable. As in Handlebars,
 * a simple name (`{{date}}`, not `{{this.date}}`) is a helper call when a helper has that name or
 * arguments follow it.
 */
function helperName(path: PathExpression, params: Expression[], hash: Hash | undefined): string | null {
  const simple = !path.data && path.depth === 0 && path.parts.length === 1 && !/^\.|this\b/.test(path.original);
  if (!simple) return null;
  const name = path.parts[0]!;
  if (BLOCKS.has(name) || VALUES.has(name) || INTERNAL.has(name)) return name;
  return params.length > 0 || hash ? name : null;
}

function nested(w: Walk, loc: Loc): Walk {
  if (w.nesting + 1 > MAX_NESTING) fail(w.part, loc, `blocks and helpers nest more than ${MAX_NESTING} deep`);
  return { ...w, nesting: w.nesting + 1 };
}

function walkValueHelper(
  w: Walk,
  helper: string,
  path: PathExpression,
  params: Expression[],
  hash: Hash | undefined,
  loc: Loc,
): void {
  if (INTERNAL.has(helper) || !VALUES.has(helper))
    fail(w.part, path.loc, `${path.original} is not a helper; helpers are ${HELPER_LIST}`);
  const inner = nested(w, loc);
  const pairs = hash?.pairs ?? [];
  switch (helper) {
    case 'eq':
      if (params.length !== 2) fail(w.part, loc, `eq compares two values: (eq a b), got ${params.length}`);
      noHash(w, 'eq', hash);
      for (const p of params) walkExpression(inner, p, w.guarded);
      return;
    case 'default':
      if (params.length !== 2)
        fail(
          w.part,
          loc,
          `default takes a value and its fallback: {{default nickname "friend"}}, got ${params.length}`,
        );
      noHash(w, 'default', hash);
      // The value may be missing: that is what the fallback is for.
      walkExpression(inner, params[0]!, true);
      walkExpression(inner, params[1]!, w.guarded);
      return;
    case 'date': {
      const [value, format] = params;
      if (params.length !== 2 || format?.type !== 'StringLiteral' || (format as hbs.AST.StringLiteral).value === '')
        fail(
          w.part,
          loc,
          'date takes a value and a quoted format: {{date order.placed_at "D MMMM YYYY"}} (for a variable named date write {{this.date}})',
        );
      for (const pair of pairs) {
        if (pair.key !== 'tz' || pair.value.type !== 'StringLiteral')
          fail(w.part, pair.loc, `date takes only tz="Area/City" besides its value and format, not ${pair.key}`);
        const tz = (pair.value as hbs.AST.StringLiteral).value;
        if (!validTimeZone(tz)) fail(w.part, pair.loc, `tz "${tz}" is not an IANA time zone such as Europe/Berlin`);
      }
      walkExpression(inner, value!, w.guarded);
      return;
    }
  }
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function noHash(w: Walk, helper: string, hash: Hash | undefined): void {
  const first = hash?.pairs[0];
  if (first) fail(w.part, first.loc, `${helper} takes no name=value options (${first.key}=…)`);
}

function walkExpression(w: Walk, e: Expression, guarded: boolean): void {
  switch (e.type) {
    case 'PathExpression':
      usePath(w, e as PathExpression, guarded);
      return;
    case 'SubExpression': {
      const s = e as SubExpression;
      const helper = helperName(s.path, s.params, s.hash);
      if (helper === null || BLOCKS.has(helper))
        fail(w.part, s.loc, `(${s.path.original} …) calls no value helper; inside ( ) use ${VALUE_HELPERS.join(', ')}`);
      walkValueHelper({ ...w, guarded }, helper, s.path, s.params, s.hash, s.loc);
      return;
    }
    case 'StringLiteral':
    case 'NumberLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'UndefinedLiteral':
      return;
    default:
      fail(w.part, e.loc, `${e.type} is not available in templates`);
  }
}

function walkBlock(w: Walk, b: BlockStatement): void {
  const helper = helperName(b.path, b.params, b.hash);
  if (helper === null || !BLOCKS.has(helper))
    fail(
      w.part,
      b.loc,
      `{{#${b.path.original}}} is not a block helper; blocks are ${BLOCK_HELPERS.map((h) => `#${h}`).join(', ')}`,
    );
  if (b.params.length !== 1) fail(w.part, b.loc, `#${helper} takes exactly one value, got ${b.params.length}`);
  const inner = nested(w, b.loc);
  const param = b.params[0]!;
  for (const pair of b.hash?.pairs ?? []) {
    const allowed =
      (helper === 'if' || helper === 'unless') && pair.key === 'includeZero' && pair.value.type === 'BooleanLiteral';
    if (!allowed) fail(w.part, pair.loc, `#${helper} takes no ${pair.key}=… option`);
  }
  const program = b.program as Program | undefined;
  const inverse = b.inverse as Program | undefined;
  const blockParams = program?.blockParams ?? [];
  if (helper === 'if' || helper === 'unless') {
    if (blockParams.length > 0) fail(w.part, b.loc, `#${helper} names no block parameters (as |…|)`);
    walkExpression(inner, param, true);
    if (program) walkProgram({ ...inner, guarded: true }, program);
    if (inverse) walkProgram({ ...inner, guarded: true }, inverse);
    return;
  }
  if (param.type !== 'PathExpression')
    fail(w.part, param.loc, `#${helper} takes a variable, such as {{#${helper} order.items}}`);
  const base = resolvePath(w, param as PathExpression);
  if (base === null) fail(w.part, param.loc, `#${helper} takes a variable, not ${(param as PathExpression).original}`);
  if (helper === 'each') {
    if (blockParams.length > 2) fail(w.part, b.loc, '#each names at most two block parameters: as |item index|');
    usePath(w, param as PathExpression, true);
    const item = [...base, '[]'];
    const params = new Map<string, string[] | null>();
    if (blockParams[0] !== undefined) params.set(blockParams[0], item);
    if (blockParams[1] !== undefined) params.set(blockParams[1], null);
    if (program) walkProgram({ ...inner, guarded: true, scopes: [...w.scopes, { base: item, params }] }, program);
    if (inverse) walkProgram({ ...inner, guarded: true }, inverse);
    return;
  }
  // #with: a guard only when it says what to write instead ({{else}}); otherwise its value and
  // the paths inside it are needed like any other.
  if (blockParams.length > 1) fail(w.part, b.loc, '#with names at most one block parameter: as |value|');
  const guarded = w.guarded || inverse !== undefined;
  usePath(w, param as PathExpression, guarded);
  const params = new Map<string, string[] | null>();
  if (blockParams[0] !== undefined) params.set(blockParams[0], base);
  if (program) walkProgram({ ...inner, guarded, scopes: [...w.scopes, { base, params }] }, program);
  if (inverse) walkProgram({ ...inner, guarded: true }, inverse);
}

/**
 * The variable path `path` stands for, from the top of the variables (`[]` for an element of an
 * `#each`), or null when it is no variable (`@index`, an index block parameter).
 */
function resolvePath(w: Walk, path: PathExpression): string[] | null {
  for (const part of path.parts) {
    if (FORBIDDEN_NAMES.has(part)) fail(w.part, path.loc, `"${part}" cannot be used in a variable name`);
  }
  if (path.data) {
    const head = path.parts[0] ?? '';
    if (!DATA_VARIABLES.has(head))
      fail(w.part, path.loc, `@${head} is not a data variable; use @index, @key, @first, @last or @root`);
    return head === 'root' ? path.parts.slice(1) : null;
  }
  const scoped = /^\.|this\b/.test(path.original);
  if (path.depth === 0 && !scoped && path.parts.length > 0) {
    for (let i = w.scopes.length - 1; i >= 0; i--) {
      const param = w.scopes[i]!.params;
      if (param.has(path.parts[0]!)) {
        const target = param.get(path.parts[0]!)!;
        return target === null ? null : [...target, ...path.parts.slice(1)];
      }
    }
  }
  const scope = w.scopes[w.scopes.length - 1 - path.depth];
  if (scope === undefined) fail(w.part, path.loc, `${path.original} goes above the top of the variables`);
  return [...scope.base, ...path.parts];
}

function usePath(w: Walk, path: PathExpression, guarded: boolean): void {
  const resolved = resolvePath(w, path);
  if (resolved === null || resolved.length === 0) return;
  w.variables.add(formatPath(resolved));
  if (!guarded && !resolved.includes('[]')) w.required.set(resolved.join('\u0000'), resolved);
}

/** `['items', '[]', 'name']` → `items[].name`. */
export function formatPath(segments: readonly string[]): string {
  return segments.reduce((acc, s) => (s === '[]' ? `${acc}[]` : acc === '' ? s : `${acc}.${s}`), '');
}

function call(helper: string, params: Expression[], loc: Loc): MustacheStatement {
  return {
    type: 'MustacheStatement',
    path: { type: 'PathExpression', data: false, depth: 0, parts: [helper], original: helper, loc } as PathExpression,
    params,
    hash: undefined as unknown as Hash,
    // Escaping is the helper's: it knows the part (html, text, subject).
    escaped: false,
    strip: { open: false, close: false },
    loc,
  };
}

function numberLiteral(value: number, loc: Loc): Expression {
  return { type: 'NumberLiteral', value, original: value, loc } as hbs.AST.NumberLiteral;
}

/** How many `{{` a source holds: an upper bound of its tags, the measure of what compiling it costs. */
export function countTags(source: string | null): number {
  let n = 0;
  if (source === null) return 0;
  for (let i = source.indexOf('{{'); i !== -1; i = source.indexOf('{{', i + 2)) n++;
  return n;
}

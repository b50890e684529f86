/**
 * The limits of templates (docs/templates.md, Limits): what a stored template may hold and what
 * one render may cost, so that no template and no set of variables can hang the service or
 * exhaust its memory.
 */

/** A template's name: a slug, unique per account (docs/templates.md, Names). */
export const TEMPLATE_NAME = /^[a-z0-9][a-z0-9-_]{0,63}$/;
/** Characters of a template's html or text source. */
export const MAX_BODY_SOURCE = 1024 * 1024;
/** Characters of a template's subject source (a rendered subject is held to 998, RFC 5322 §2.1.1). */
export const MAX_SUBJECT_SOURCE = 2000;
/** The longest subject a render may give: RFC 5322 §2.1.1's line limit, as for any send. */
export const MAX_SUBJECT = 998;
/** Bytes of a send's or a preview's `variables`, as JSON. */
export const MAX_VARIABLES_BYTES = 256 * 1024;
/** Bytes of a rendered message (subject, html and text together): the API's message limit. */
export const MAX_RENDERED_BYTES = 10 * 1024 * 1024;
/**
 * Steps of one render: every value written, every block entered (each `#each` iteration is one)
 * and every helper called counts one. A transactional message uses hundreds to a few thousand; a
 * template that nests `#each` over large lists would use billions and is stopped here.
 */
export const MAX_RENDER_STEPS = 200_000;
/** Blocks (an `{{else if}}` counts as one more) and helper calls nested inside each other, at most. */
export const MAX_NESTING = 32;
/**
 * Characters inside `{{…}}` tags in one part (comments aside). Handlebars' parser spends a few
 * microseconds per token inside tags (and time growing with the square of the nesting), so this
 * and MAX_NESTING bound what checking or compiling any part can cost to a fraction of a second.
 */
export const MAX_TAG_CHARS = 64 * 1024;
/**
 * `{{…}}` tags in one part. Handlebars compiles a template to JavaScript at roughly a tenth of a
 * millisecond per tag: this keeps compiling the largest part allowed well under a second (on an
 * offload thread: render-template.ts), where a large transactional template has a few hundred.
 */
export const MAX_TAGS = 2000;

/**
 * An account's templates (docs/templates.md): made, given new versions, read, listed and
 * deleted here, by the API (http/routes/templates.ts) and the CLI (cli/template-commands.ts)
 * alike. Every change records its audit entry in the same transaction. Versions are numbered from
 * 1 and never change once written; a version is checked (syntax, helpers, limits) before it is.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../deps.js';
import type { Database } from '../storage/database.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { isUniqueViolation } from '../storage/unique-violation.js';
import { sharedOffloadPool } from '../offload/offload-pool.js';
import { TEMPLATE_NAME } from './template-limits.js';
import type { TemplateSources } from './render-version.js';
import { checkTemplate, type CheckedTemplate, type TemplateInput } from './check-template.js';

export type { TemplateInput } from './check-template.js';

/** One version of a template, as the API shows it. */
export interface TemplateView {
  id: string;
  name: string;
  version: number;
  latest_version: number;
  subject: string;
  html: string | null;
  text: string | null;
  /** The variable paths the version uses: `user.name`, `items[].price`. */
  variables: string[];
  /** When this version was made. */
  created_at: string;
  /** When the newest version was made. */
  updated_at: string;
}

export interface TemplateSummary {
  id: string;
  name: string;
  /** The newest version. */
  version: number;
  updated_at: string;
}

type StoreDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>;

const iso = (ms: number) => new Date(Number(ms)).toISOString();

const SLUG_RULE = 'a lowercase letter or digit, then up to 63 lowercase letters, digits, - or _';

/** Refuses a name that is not a template slug. */
export function checkTemplateName(name: string, field = 'name'): void {
  if (!TEMPLATE_NAME.test(name))
    throw new RefusedError('invalid', `template name ${JSON.stringify(name)} must be ${SLUG_RULE}`, { field });
}

const notFound = (name: string) =>
  new RefusedError('not_found', `no template named "${name}" in this account`, {
    field: 'name',
    subject: { kind: 'template', name },
  });

/** Makes template `name` with its version 1 (`template.create`); 409 when the account has one of that name. */
export async function createTemplate(
  deps: StoreDeps,
  accountId: string,
  name: string,
  input: TemplateInput,
  actor: Actor,
): Promise<TemplateView> {
  checkTemplateName(name);
  const checked = await checkTemplate(sharedOffloadPool(deps.config.offloadThreads), input);
  const now = deps.clock.now();
  const id = deps.ids.next('tmpl', now);
  const taken = () =>
    new RefusedError(
      'conflict',
      `template "${name}" already exists in this account; PUT /v1/templates/${name} adds a version`,
      {
        field: 'name',
        subject: { kind: 'template', name },
      },
    );
  try {
    await deps.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('templates')
        .select('id')
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .executeTakeFirst();
      if (existing) throw taken();
      await trx
        .insertInto('templates')
        .values({ id, account_id: accountId, name, latest_version: 1, created_at: now, updated_at: now })
        .execute();
      await insertVersion(trx, id, 1, checked, now);
      await recordAudit(trx, deps, { accountId, actor, action: 'template.create', target: `${name} v1` });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  return view({ id, name, latest_version: 1, updated_at: now }, { version: 1, ...checked, created_at: now });
}

/** Adds a version to template `name` (`template.update`): the next number, the earlier ones unchanged. */
export async function updateTemplate(
  deps: StoreDeps,
  accountId: string,
  name: string,
  input: TemplateInput,
  actor: Actor,
): Promise<TemplateView> {
  checkTemplateName(name);
  const checked = await checkTemplate(sharedOffloadPool(deps.config.offloadThreads), input);
  const now = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    // One statement takes the next number, so concurrent updates each get their own.
    const bumped = await trx
      .updateTable('templates')
      .set((eb) => ({ latest_version: eb('latest_version', '+', 1), updated_at: now }))
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .returning(['id', 'latest_version', 'created_at'])
      .executeTakeFirst();
    if (!bumped) throw notFound(name);
    const version = Number(bumped.latest_version);
    await insertVersion(trx, bumped.id, version, checked, now);
    await recordAudit(trx, deps, { accountId, actor, action: 'template.update', target: `${name} v${version}` });
    return { id: bumped.id, version };
  });
  return view(
    { id: row.id, name, latest_version: row.version, updated_at: now },
    { version: row.version, ...checked, created_at: now },
  );
}

async function insertVersion(
  trx: Kysely<Database> | Transaction<Database>,
  templateId: string,
  version: number,
  checked: CheckedTemplate,
  now: number,
): Promise<void> {
  await trx
    .insertInto('template_versions')
    .values({
      template_id: templateId,
      version,
      subject: checked.subject,
      html: checked.html,
      text: checked.text,
      variables: JSON.stringify(checked.variables),
      created_at: now,
    })
    .execute();
}

function view(
  t: { id: string; name: string; latest_version: number; updated_at: number },
  v: TemplateSources & { version: number; variables: string[]; created_at: number },
): TemplateView {
  return {
    id: t.id,
    name: t.name,
    version: Number(v.version),
    latest_version: Number(t.latest_version),
    subject: v.subject,
    html: v.html,
    text: v.text,
    variables: v.variables,
    created_at: iso(v.created_at),
    updated_at: iso(t.updated_at),
  };
}

async function findTemplate(deps: Pick<Deps, 'db'>, accountId: string, name: string) {
  const t = await deps.db
    .selectFrom('templates')
    .select(['id', 'name', 'latest_version', 'updated_at'])
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!t) throw notFound(name);
  return t;
}

/** Version `version` of template `name` (the newest when not given); 404 naming `name` or `version`. */
export async function getTemplate(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  name: string,
  version?: number,
): Promise<TemplateView> {
  checkTemplateName(name);
  const t = await findTemplate(deps, accountId, name);
  const n = version ?? Number(t.latest_version);
  const v = await deps.db
    .selectFrom('template_versions')
    .select(['version', 'subject', 'html', 'text', 'variables', 'created_at'])
    .where('template_id', '=', t.id)
    .where('version', '=', n)
    .executeTakeFirst();
  if (!v)
    throw new RefusedError(
      'not_found',
      `template "${name}" has no version ${n}; its versions are 1 to ${t.latest_version}`,
      {
        field: 'version',
      },
    );
  return view(t, { ...v, variables: JSON.parse(v.variables) as string[] });
}

/** The account's templates by name, each with its newest version. */
export async function listTemplates(deps: Pick<Deps, 'db'>, accountId: string): Promise<TemplateSummary[]> {
  const rows = await deps.db
    .selectFrom('templates')
    .select(['id', 'name', 'latest_version', 'updated_at'])
    .where('account_id', '=', accountId)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    version: Number(r.latest_version),
    updated_at: iso(r.updated_at),
  }));
}

/** Template `name`'s versions, newest first. */
export async function listTemplateVersions(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  name: string,
): Promise<{ version: number; created_at: string }[]> {
  checkTemplateName(name);
  const t = await findTemplate(deps, accountId, name);
  const rows = await deps.db
    .selectFrom('template_versions')
    .select(['version', 'created_at'])
    .where('template_id', '=', t.id)
    .orderBy('version', 'desc')
    .execute();
  return rows.map((r) => ({ version: Number(r.version), created_at: iso(r.created_at) }));
}

/**
 * Deletes template `name` and its versions (`template.delete`). A later send naming it is refused;
 * messages already sent with it keep their record of the name and version.
 */
export async function deleteTemplate(deps: StoreDeps, accountId: string, name: string, actor: Actor): Promise<void> {
  checkTemplateName(name);
  await deps.db.transaction().execute(async (trx) => {
    const t = await trx
      .selectFrom('templates')
      .select('id')
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (!t) throw notFound(name);
    await trx.deleteFrom('template_versions').where('template_id', '=', t.id).execute();
    await trx.deleteFrom('templates').where('id', '=', t.id).execute();
    await recordAudit(trx, deps, { accountId, actor, action: 'template.delete', target: name });
  });
}

/** A version found for rendering: its cache key and a reader of its sources. */
export interface FoundVersion {
  name: string;
  version: number;
  key: string;
  sources: () => Promise<TemplateSources>;
}

/**
 * The version a render uses (the newest when `version` is null), or which of `name` and
 * `version` names nothing. One query for the version's number; its sources are read only if the
 * render needs them (not when its compiled parts are cached).
 */
export async function findVersionForRender(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  name: string,
  version: number | null,
): Promise<FoundVersion | { unknown: 'name' | 'version'; latest?: number }> {
  const row = await deps.db
    .selectFrom('templates as t')
    .leftJoin('template_versions as v', (join) =>
      version === null
        ? join.onRef('v.template_id', '=', 't.id').onRef('v.version', '=', 't.latest_version')
        : join.onRef('v.template_id', '=', 't.id').on('v.version', '=', version),
    )
    .select(['t.id', 't.latest_version', 'v.version'])
    .where('t.account_id', '=', accountId)
    .where('t.name', '=', name)
    .executeTakeFirst();
  if (!row) return { unknown: 'name' };
  if (row.version === null || row.version === undefined)
    return { unknown: 'version', latest: Number(row.latest_version) };
  const n = Number(row.version);
  const templateId = row.id;
  return {
    name,
    version: n,
    key: `${templateId}:${n}`,
    sources: async () => {
      const v = await deps.db
        .selectFrom('template_versions')
        .select(['subject', 'html', 'text'])
        .where('template_id', '=', templateId)
        .where('version', '=', n)
        .executeTakeFirst();
      // Deleted between the two reads: the render fails as for any fault; a retry is told the name is unknown.
      if (!v) throw new Error(`template version ${templateId}:${n} was deleted during the render`);
      return v;
    },
  };
}

import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { EXAMPLE_TEMPLATES } from './examples/index.js';
import { createTemplate } from './template-store.js';

/**
 * Installs the starter templates (welcome, password-reset, receipt) into an account, each as its
 * own template (`template.create` in the audit log). One whose name the account already uses is
 * left as it is, so running it again changes nothing.
 */
export async function installExampleTemplates(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  accountId: string,
  actor: Actor,
): Promise<{ installed: string[]; skipped: string[] }> {
  const installed: string[] = [];
  const skipped: string[] = [];
  for (const t of EXAMPLE_TEMPLATES) {
    const exists = await deps.db
      .selectFrom('templates')
      .select('id')
      .where('account_id', '=', accountId)
      .where('name', '=', t.name)
      .executeTakeFirst();
    if (exists) {
      skipped.push(t.name);
      continue;
    }
    await createTemplate(deps, accountId, t.name, { subject: t.subject, html: t.html, text: t.text }, actor);
    installed.push(t.name);
  }
  return { installed, skipped };
}

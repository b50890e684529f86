import { CommandError } from './command-error.js';
import { CLI_ACTOR } from '../core/actor.js';
import { addDomain, findDomain } from '../domains/add-domain.js';
import { verifyDomainNow } from '../domains/check-domain.js';
import { deleteDomain } from '../domains/delete-domain.js';
import { domainView } from '../domains/domain-view.js';
import { TRACKING_OPTIONS, type TrackingDefaults, type TrackingOption } from '../domains/tracking-setting.js';
import { updateDomain } from '../domains/update-domain.js';
import type { DomainChecks } from '../domains/verify-domain.js';
import type { Runtime } from '../main.js';
import type { DomainTable } from '../storage/database.js';
import { withDeps, type Command } from './command.js';
import { checksText, complaintRateText, failedPurposes, recordsText, trackingText } from './format-domain.js';
import { complaintRate } from '../feedback/complaint-rate.js';

async function accountName(deps: Runtime, accountId: string): Promise<string> {
  const row = await deps.db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
  return row?.name ?? accountId;
}

function lastChecks(d: DomainTable): DomainChecks | null {
  return d.last_checks === null ? null : (JSON.parse(d.last_checks) as DomainChecks);
}

/** `domain add DOMAIN --account NAME`: makes the DKIM key and prints the four records to publish. */
export const domainAdd: Command = {
  words: 'domain add',
  args: ['DOMAIN'],
  options: ['account'],
  run: ({ config, args, options }) => {
    if (options.account === undefined) throw new CommandError('domain add needs --account NAME');
    const account = options.account;
    return withDeps(config, async (deps) => {
      const row = await addDomain(deps, account, args[0], { actor: CLI_ACTOR });
      const view = domainView(config, row);
      const text =
        `added ${view.domain} to account ${account} (status: ${view.status}). Publish these DNS records, ` +
        `keeping any you already have, then run: posthorn domain verify ${view.domain}\n\n${recordsText(view.records)}`;
      return { json: { ...view, account }, text };
    });
  },
};

/** `domain show DOMAIN`: as `domain add`, plus when it was verified and the last checks. */
export const domainShow: Command = {
  words: 'domain show',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const row = await findDomain(deps, args[0]);
      const view = domainView(config, row);
      const checks = lastChecks(row);
      const rate = await complaintRate(deps.db, row.id, deps.clock.now());
      const lines = [
        `${view.domain} (account ${await accountName(deps, row.account_id)}): ${view.status}${view.sandbox ? ', sandbox domain (verified without DNS)' : ''}`,
        `  verified at:  ${view.verified_at ?? 'never'}`,
        `  last checked: ${view.checked_at ?? 'never'}`,
        ...(view.failing_since ? [`  failing since: ${view.failing_since}`] : []),
        `  tracking:     ${trackingText(view.tracking)}`,
        `  complaints:   ${complaintRateText(rate)}`,
        '',
        'records:',
        recordsText(view.records),
        ...(view.dkim_ed25519
          ? [`  dkim_ed25519 TXT    ${view.dkim_ed25519.name}\n               ${view.dkim_ed25519.value}`]
          : []),
        ...(checks ? ['', 'last checks:', checksText(checks, view.records)] : []),
      ];
      return {
        json: { ...view, account: await accountName(deps, row.account_id), checks, complaint_rate: rate },
        text: lines.join('\n'),
      };
    }),
};

/** `domain verify DOMAIN`: checks the four records now; a failure when any does not match. */
export const domainVerify: Command = {
  words: 'domain verify',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const row = await findDomain(deps, args[0]);
      const outcome = await verifyDomainNow(deps, row, CLI_ACTOR);
      if (outcome === null) {
        // Sandbox mail never leaves the machine, so its domain needs no DNS.
        return {
          json: {
            domain: row.name,
            status: row.status,
            sandbox: true,
            checks: null,
            note: 'sandbox domain: verified without DNS',
          },
          text: `${row.name} is the sandbox domain: verified without DNS (its mail never leaves this machine)`,
        };
      }
      const { domain, checks, ok } = outcome;
      const view = domainView(config, domain);
      const json = {
        domain: view.domain,
        status: view.status,
        verified: ok,
        checks,
        verified_at: view.verified_at,
        checked_at: view.checked_at,
      };
      const head = ok
        ? `${view.domain} is verified: all four records match`
        : `${view.domain} is not verified (status: ${view.status})`;
      const text = `${head}\n${checksText(checks, view.records)}`;
      if (ok) return { json, text };
      return {
        json,
        text,
        failure: `${view.domain} is not verified: ${failedPurposes(checks).join(', ')} did not match`,
      };
    }),
};

/** `domain set DOMAIN [--ed25519 on|off] [--track-opens on|off] [--track-clicks on|off] [--unsubscribe on|off]`. */
export const domainSet: Command = {
  words: 'domain set',
  args: ['DOMAIN'],
  options: ['ed25519', 'track-opens', 'track-clicks', 'unsubscribe'],
  run: ({ config, args, options }) => {
    const onOff = (name: 'ed25519' | TrackingOption): boolean | undefined => {
      const v = options[name]?.trim().toLowerCase();
      if (v === undefined) return undefined;
      if (v !== 'on' && v !== 'off') throw new CommandError(`--${name} takes on or off, got "${options[name]}"`);
      return v === 'on';
    };
    const ed25519 = onOff('ed25519');
    const tracking: Partial<TrackingDefaults> = {};
    for (const option of Object.keys(TRACKING_OPTIONS) as TrackingOption[]) {
      const v = onOff(option);
      if (v !== undefined) tracking[TRACKING_OPTIONS[option]] = v;
    }
    if (ed25519 === undefined && Object.keys(tracking).length === 0) {
      throw new CommandError(
        'domain set needs --ed25519 on|off, --track-opens on|off, --track-clicks on|off or --unsubscribe on|off',
      );
    }
    return withDeps(config, async (deps) => {
      const row = await updateDomain(
        deps,
        args[0] as string,
        { tracking, ...(ed25519 !== undefined ? { ed25519 } : {}) },
        CLI_ACTOR,
      );
      const view = domainView(config, row);
      const lines: string[] = [];
      if (ed25519 !== undefined) {
        lines.push(
          view.dkim_ed25519
            ? `Ed25519 signing is on for ${view.domain}. Publish this record too (mail is also signed with RSA, so nothing breaks before it exists):\n\n  dkim_ed25519 TXT    ${view.dkim_ed25519.name}\n               ${view.dkim_ed25519.value}`
            : `Ed25519 signing is off for ${view.domain}; its record may be removed.`,
        );
      }
      if (Object.keys(tracking).length > 0)
        lines.push(`${view.domain}: ${trackingText(view.tracking)} (messages may override each; docs/tracking.md)`);
      return { json: view, text: lines.join('\n') };
    });
  },
};

/** `domain delete DOMAIN`: its key, SMTP logins and webhook stop at once; accepted mail and events stay. */
export const domainDelete: Command = {
  words: 'domain delete',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await deleteDomain(deps, args[0] as string, CLI_ACTOR);
      const logins = `${out.smtp_logins_revoked} SMTP ${out.smtp_logins_revoked === 1 ? 'login' : 'logins'}`;
      return {
        json: out,
        text:
          `deleted ${out.domain}: its API key, ${logins}${out.webhook_removed ? ' and webhook' : ''} stopped working now. ` +
          'Mail it already accepted is still delivered; its events stay until retention ends.',
      };
    }),
};

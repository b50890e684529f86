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
import {
  checksText,
  complaintRateText,
  dkimRotationText,
  durationText,
  failedPurposes,
  recordsText,
  trackingText,
} from './format-domain.js';
import { complaintRate } from '../feedback/complaint-rate.js';
import { rotateDkim } from '../domains/dkim-rotation.js';

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
        '',
        dkimRotationText(view.dkim, deps.config.dkimRotateDays),
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
        dkim: view.dkim,
      };
      const head = ok
        ? `${view.domain} is verified: all four records match`
        : `${view.domain} is not verified (status: ${view.status})`;
      // A pending DKIM rotation's record was found by this check: say that signing moved (docs/delivery.md).
      const moved =
        domain.dkim_selector !== row.dkim_selector && view.dkim.retired
          ? `\nDKIM signing moved from ${row.dkim_selector} to ${domain.dkim_selector}; keep ${view.dkim.retired.name} published until ${view.dkim.retired.remove_after}.`
          : view.dkim.pending
            ? `\nDKIM rotation: ${view.dkim.pending.name} is ${view.dkim.pending.status}; mail is signed with ${view.dkim.selector} until it is found.`
            : '';
      const text = `${head}\n${checksText(checks, view.records)}${moved}`;
      if (ok) return { json, text };
      return {
        json,
        text,
        failure: `${view.domain} is not verified: ${failedPurposes(checks).join(', ')} did not match`,
      };
    }),
};

/**
 * `domain rotate-dkim DOMAIN`: a new DKIM key under a new selector, pending until its record is
 * found in DNS; prints the record to publish (docs/delivery.md).
 */
export const domainRotateDkim: Command = {
  words: 'domain rotate-dkim',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const { domain, record } = await rotateDkim(deps, args[0] as string, CLI_ACTOR);
      const old = `${domain.dkim_selector}._domainkey.${domain.name}`;
      const json = {
        domain: domain.name,
        selector: domain.dkim_pending_selector,
        status: 'pending',
        signing_selector: domain.dkim_selector,
        records: [record],
        domain_status: domain.status,
      };
      const text = [
        `new DKIM key for ${domain.name} under selector ${domain.dkim_pending_selector ?? ''} (pending). Publish this record beside the current one:`,
        '',
        recordsText([record]),
        '',
        `Mail is signed with ${domain.dkim_selector} until the new record is found in DNS (the scheduler checks every ${durationText(config.dkimPendingCheckInterval)}; to check now: posthorn domain verify ${domain.name}).`,
        `Then keep ${old} published for ${durationText(config.dkimRetireAfter)} more; posthorn domain show ${domain.name} says when it may be removed.`,
      ].join('\n');
      return { json, text };
    }),
};

/** `domain set DOMAIN [--ed25519 on|off] [--track-opens on|off] [--track-clicks on|off] [--unsubscribe on|off] [--dkim-rotate-days N|default]`. */
export const domainSet: Command = {
  words: 'domain set',
  args: ['DOMAIN'],
  options: ['ed25519', 'track-opens', 'track-clicks', 'unsubscribe', 'dkim-rotate-days'],
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
    const rotateDays = parseRotateDays(options['dkim-rotate-days']);
    if (ed25519 === undefined && Object.keys(tracking).length === 0 && rotateDays === undefined) {
      throw new CommandError(
        'domain set needs --ed25519 on|off, --track-opens on|off, --track-clicks on|off, --unsubscribe on|off or --dkim-rotate-days N|default',
      );
    }
    return withDeps(config, async (deps) => {
      const row = await updateDomain(
        deps,
        args[0] as string,
        {
          tracking,
          ...(ed25519 !== undefined ? { ed25519 } : {}),
          ...(rotateDays !== undefined ? { dkimRotateDays: rotateDays } : {}),
        },
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
      if (rotateDays !== undefined) lines.push(dkimRotationText(view.dkim, deps.config.dkimRotateDays));
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

/** `--dkim-rotate-days`: whole days 0 to 3650 (0 never), or `default` to follow POSTHORN_DKIM_ROTATE_DAYS. */
function parseRotateDays(text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  const v = text.trim().toLowerCase();
  if (v === 'default') return null;
  if (!/^\d{1,4}$/.test(v) || Number(v) > 3650)
    throw new CommandError(`--dkim-rotate-days takes whole days from 0 (never) to 3650, or default; got "${text}"`);
  return Number(v);
}

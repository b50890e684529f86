import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../core/clock.js';
import { createResolver } from '../domains/create-resolver.js';
import { runDoctor, type DoctorCheck, type DoctorInputs, type DoctorResolver } from '../doctor/doctor.js';
import { openDatabase } from '../storage/open-database.js';
import { CommandError } from './command-error.js';
import type { Command } from './command.js';

const MARK: Record<DoctorCheck['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

/**
 * `doctor [--probe DOMAIN]`: checks the operator's set-up as receivers and clients see it
 * (docs/deploy.md, "Checking the set-up"). Exit 1 when a check fails; warnings alone exit 0.
 * The database is opened without migrating it: the doctor looks, it changes nothing.
 */
export const doctorCommand: Command = {
  words: 'doctor',
  args: [],
  options: ['probe'],
  run: async ({ config, options }) => {
    const probeDomain = options.probe ?? 'gmail.com';
    if (!/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(probeDomain))
      throw new CommandError(`--probe must be a domain name, e.g. gmail.com (got ${JSON.stringify(probeDomain)})`);
    let resolver: DoctorResolver;
    try {
      resolver = createResolver(config.dnsServers, { timeoutMs: 3000, tries: 2 });
    } catch (err) {
      throw new CommandError(`POSTHORN_DNS_SERVERS: ${(err as Error).message}`);
    }
    const sqliteFile = join(config.dataDir, 'posthorn.sqlite');
    let opened: ReturnType<typeof openDatabase> | null = null;
    let db: DoctorInputs['db'];
    if (config.databaseUrl === null && !existsSync(sqliteFile)) {
      db = { ok: false, reason: `no database yet at ${sqliteFile}: \`posthorn serve\` creates it` };
    } else {
      opened = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
      db = { ok: true, db: opened.db, dialect: opened.dialect };
    }
    try {
      const checks = await runDoctor({ config, resolver, db, clock: systemClock, probeDomain });
      const failed = checks.filter((c) => c.status === 'fail');
      const text = checks
        .map((c) => `${MARK[c.status]}  ${c.name}: ${c.found}${c.fix ? `\n        fix: ${c.fix}` : ''}`)
        .join('\n');
      return {
        json: { ok: failed.length === 0, checks },
        text,
        ...(failed.length > 0
          ? { failure: `${failed.length} check(s) failed: ${failed.map((c) => c.name).join(', ')}` }
          : {}),
      };
    } finally {
      await opened?.close();
    }
  },
};

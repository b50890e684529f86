import { RefusedError } from '../core/refused-error.js';
import type { Role } from '../core/roles.js';
import type { DialectName } from '../storage/open-database.js';

/** How `serve --processes N` splits the chosen roles between the process started and its children. */
export interface ProcessPlan {
  /** Roles the process that was started runs itself (it also supervises the children). */
  own: Role[];
  /** Child processes, each running `serve --roles delivery`. */
  children: number;
}

/**
 * Parses `--processes N`: a whole number from 1 to 64. An `invalid` RefusedError names what is wrong.
 */
export function parseProcesses(text: string): number {
  const t = text.trim();
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new RefusedError('invalid', `--processes must be a whole number from 1 to 64, got "${text}"`, {
      field: 'processes',
    });
  return n;
}

/**
 * What `serve --processes n` runs where (docs/scaling.md, "Several processes on one host"): with
 * n = 1 everything in this process, as before; with n ≥ 2 this process runs the chosen roles but
 * `delivery` and supervises n − 1 children running `delivery`. Refused, naming why: n ≥ 2 without
 * the delivery role (the children would have nothing to run), and n > 2 on SQLite: provider pacing
 * and the per-destination connection caps are kept in each delivery process's memory, so two
 * delivery processes on one SQLite file would each send at the full pace. In sandbox mode too: the
 * sandbox triggers run in the delivery process, and two would each act on the same mail.
 */
export function planProcesses(
  n: number,
  roles: readonly Role[],
  dialect: DialectName,
  opts: { sandbox?: boolean } = {},
): ProcessPlan {
  if (n === 1) return { own: [...roles], children: 0 };
  if (!roles.includes('delivery'))
    throw new RefusedError(
      'invalid',
      `--processes ${n} runs the delivery role in ${n - 1} child process${n === 2 ? '' : 'es'}, but delivery is not among the roles (${roles.join(', ')}); add it to --roles or use --processes 1`,
      { field: 'processes' },
    );
  if (dialect === 'sqlite' && n > 2)
    throw new RefusedError(
      'invalid',
      `--processes ${n} on SQLite: at most 2 (this process and one delivery process), because provider pacing and per-destination connection caps are kept in each delivery process's memory and ${n - 1} delivery processes would each send at the full pace; use --processes 2, or PostgreSQL (POSTHORN_DATABASE_URL) for more`,
      { field: 'processes' },
    );
  if (opts.sandbox === true && n > 2)
    throw new RefusedError(
      'invalid',
      `--processes ${n} in sandbox mode: at most 2, because the sandbox triggers (open@, click@, …) run in the delivery process and ${n - 1} would each act on the same mail; use --processes 2`,
      { field: 'processes' },
    );
  return { own: roles.filter((r) => r !== 'delivery'), children: n - 1 };
}

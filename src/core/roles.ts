import { RefusedError } from './refused-error.js';

/** The roles `posthorn serve` can run (docs/architecture.md, Roles). */
export const ROLES = ['api', 'smtp', 'inbound', 'delivery', 'webhooks', 'scheduler'] as const;
export type Role = (typeof ROLES)[number];

/** True for the names in ROLES. */
export function isRole(name: string): name is Role {
  return (ROLES as readonly string[]).includes(name);
}

/**
 * Parses `--roles r1,r2` (comma-separated, duplicates dropped); throws an `invalid` RefusedError naming an
 * unknown role and listing the known ones.
 */
export function parseRoles(text: string): Role[] {
  const names = text
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  if (names.length === 0)
    throw new RefusedError('invalid', `--roles needs at least one of ${ROLES.join(', ')}`, { field: 'roles' });
  const unknown = names.find((n) => !isRole(n));
  if (unknown !== undefined)
    throw new RefusedError('invalid', `unknown role "${unknown}"; roles are ${ROLES.join(', ')}`, { field: 'roles' });
  return [...new Set(names as Role[])];
}

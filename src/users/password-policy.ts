import { dictionary } from '@zxcvbn-ts/language-common';
import { RefusedError } from '../core/refused-error.js';

/** The shortest dashboard password accepted (NIST SP 800-63B §5.1.1.2 asks at least 8; Posthorn asks more). */
export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 256;

/**
 * The common-password list of zxcvbn-ts (`@zxcvbn-ts/language-common`, ~49,000 passwords ranked by
 * how often they appear in breach corpora), loaded once. NIST SP 800-63B §5.1.1.2 asks that new
 * passwords be checked against such a list.
 */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return common;
}

/**
 * Refuses a new dashboard password that is too short, too long, or one of the most common ones
 * (compared case-insensitively, so `Password1234` fares no better than `password1234`). The
 * refusal names the field `password`.
 */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    throw new RefusedError('invalid', `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`, {
      field: 'password',
    });
  if (length > MAX_PASSWORD_LENGTH)
    throw new RefusedError('invalid', `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`, {
      field: 'password',
    });
  if (commonPasswords().has(password.toLowerCase()))
    throw new RefusedError('invalid', 'this password is one of the most common ones; choose another', {
      field: 'password',
    });
}

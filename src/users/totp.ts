import { createHash, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Deps } from '../deps.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { secretBox } from '../secrets/secret-box.js';
import { secretContext } from '../secrets/secret-fields.js';

/** RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits, 30 s steps. */
const PERIOD_S = 30;
const RECOVERY_CODES = 10;

function totpFor(email: string, base32: string): TOTP {
  return new TOTP({
    issuer: 'Posthorn',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(base32),
  });
}

/** The hash a recovery code is kept as: SHA-256 of the code without dashes or spaces, lower-cased (80 random bits need no slow hash). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}

/** A recovery code: 10 characters of base32 (50 bits) as `xxxxx-xxxxx`. */
function newRecoveryCode(deps: Pick<Deps, 'ids'>): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = deps.ids.random(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

interface TotpUser {
  id: string;
  account_id: string;
  email: string;
  totp_secret: string | null;
  totp_pending: string | null;
  totp_last_step: number | null;
  recovery_codes: string;
}

async function loadUser(deps: Pick<Deps, 'db'>, userId: string): Promise<TotpUser> {
  const row = await deps.db
    .selectFrom('users')
    .select(['id', 'account_id', 'email', 'totp_secret', 'totp_pending', 'totp_last_step', 'recovery_codes'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new RefusedError('not_found', 'the user no longer exists', { field: 'email' });
  return row;
}

/**
 * Starts TOTP enrolment (`POST /v1/session/totp`): a fresh secret is kept as pending (sealed) and
 * returned as an `otpauth://` URI and a QR code (an SVG data URL) for the authenticator app. TOTP
 * is not on until confirmTotp is given a code from it; starting again replaces the pending secret.
 */
export async function startTotp(
  deps: Pick<Deps, 'db' | 'config'>,
  userId: string,
): Promise<{ uri: string; secret: string; qr_code: string }> {
  const user = await loadUser(deps, userId);
  if (user.totp_secret !== null)
    throw new RefusedError('conflict', 'two-factor sign-in is already on; turn it off first to enrol again', {
      field: 'totp',
    });
  const secret = new Secret({ size: 20 }).base32;
  const sealed = secretBox(deps.config).seal(secret, secretContext('users.totp_pending', userId));
  await deps.db.updateTable('users').set({ totp_pending: sealed }).where('id', '=', userId).execute();
  const uri = totpFor(user.email, secret).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, secret, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The time step a 6-digit `code` matches for `base32` at `now` (one step either side, for clock drift), or null. */
function matchingStep(email: string, base32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(email, base32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/**
 * Confirms enrolment with a code from the app (`POST /v1/session/totp/confirm`): TOTP is on from
 * now and the recovery codes are returned, once; only their hashes are kept.
 */
export async function confirmTotp(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'ids'>,
  userId: string,
  code: string,
  actor: Actor,
): Promise<{ recovery_codes: string[] }> {
  const user = await loadUser(deps, userId);
  if (user.totp_secret !== null)
    throw new RefusedError('conflict', 'two-factor sign-in is already on', { field: 'code' });
  if (user.totp_pending === null)
    throw new RefusedError('invalid', 'no enrolment was started: POST /v1/session/totp first', { field: 'code' });
  const box = secretBox(deps.config);
  const secret = box.open(user.totp_pending, secretContext('users.totp_pending', userId));
  const step = matchingStep(user.email, secret, code.trim(), deps.clock.now());
  if (step === null)
    throw new RefusedError('invalid', 'the code does not match; enter the current 6-digit code from the app', {
      field: 'code',
    });
  const codes = Array.from({ length: RECOVERY_CODES }, () => newRecoveryCode(deps));
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({
        totp_secret: box.seal(secret, secretContext('users.totp_secret', userId)),
        totp_pending: null,
        totp_last_step: step,
        recovery_codes: JSON.stringify(codes.map(hashRecoveryCode)),
      })
      .where('id', '=', userId)
      .execute();
    await recordAudit(trx, deps, { accountId: user.account_id, actor, action: 'user.totp_enable', target: user.email });
  });
  return { recovery_codes: codes };
}

/**
 * Checks a second factor for a user with TOTP on: a current 6-digit code not used before (RFC 6238
 * §5.2: the verifier must not accept the same code twice), or an unused recovery code, which is
 * used up. True when it passed; what it used up is stored before returning.
 */
export async function checkSecondFactor(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  userId: string,
  code: string,
): Promise<boolean> {
  const user = await loadUser(deps, userId);
  if (user.totp_secret === null) return true;
  const given = code.trim();
  if (/^\d{6}$/.test(given)) {
    const secret = secretBox(deps.config).open(user.totp_secret, secretContext('users.totp_secret', userId));
    const step = matchingStep(user.email, secret, given, deps.clock.now());
    if (step === null || (user.totp_last_step !== null && step <= Number(user.totp_last_step))) return false;
    // Conditional on the step read, so two concurrent sign-ins with one code cannot both pass.
    const res = await deps.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) =>
        user.totp_last_step === null
          ? eb('totp_last_step', 'is', null)
          : eb('totp_last_step', '=', user.totp_last_step),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
  const hashes = JSON.parse(user.recovery_codes) as string[];
  const hash = hashRecoveryCode(given);
  const match = hashes.find((h) => timingSafeEqual(Buffer.from(h), Buffer.from(hash)));
  if (match === undefined) return false;
  const res = await deps.db
    .updateTable('users')
    .set({ recovery_codes: JSON.stringify(hashes.filter((h) => h !== match)) })
    .where('id', '=', userId)
    .where('recovery_codes', '=', user.recovery_codes)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Turns TOTP off (`DELETE /v1/session/totp`) after a current code or a recovery code; the recovery codes go too. */
export async function disableTotp(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'ids'>,
  userId: string,
  code: string,
  actor: Actor,
): Promise<void> {
  const user = await loadUser(deps, userId);
  if (user.totp_secret === null) throw new RefusedError('invalid', 'two-factor sign-in is not on', { field: 'code' });
  if (!(await checkSecondFactor(deps, userId, code)))
    throw new RefusedError('invalid', 'the code does not match; enter the current 6-digit code or a recovery code', {
      field: 'code',
    });
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ totp_secret: null, totp_pending: null, totp_last_step: null, recovery_codes: '[]' })
      .where('id', '=', userId)
      .execute();
    await recordAudit(trx, deps, {
      accountId: user.account_id,
      actor,
      action: 'user.totp_disable',
      target: user.email,
    });
  });
}

import { buildDeps } from '../main.js';
import { rotateSecrets, secretsStatus, type SecretsStatus } from '../secrets/manage-secrets.js';
import { withDeps, type Command } from './command.js';

/** `secrets status`: the configured keys and, per field, how many values are plaintext or sealed with which key. */
export const secretsStatusCommand: Command = {
  words: 'secrets status',
  args: [],
  options: [],
  run: async ({ config }) => {
    // Without the start-up key check: this is the command that shows what a missing key left unreadable.
    const deps = await buildDeps(config, { checkSecretKeys: false });
    try {
      const status = await secretsStatus(deps);
      const unknown = status.fields.reduce((n, f) => n + f.unknown_key, 0);
      // A non-zero exit for scripts: a server would refuse to start on this database with this configuration.
      return {
        json: status,
        text: formatStatus(status),
        ...(unknown > 0 ? { failure: `${unknown} secrets are encrypted with a key that is not configured` } : {}),
      };
    } finally {
      await deps.close();
    }
  },
};

/** `secrets rotate`: seals every secret with the current key (plaintext ones and those under an old key). */
export const secretsRotateCommand: Command = {
  words: 'secrets rotate',
  args: [],
  options: [],
  run: ({ config }) =>
    withDeps(config, async (deps) => {
      const out = await rotateSecrets(deps);
      return {
        json: out,
        text:
          `every secret is now encrypted with key ${out.key}: ${out.encrypted} were plaintext, ${out.reencrypted} were under an old key, ` +
          `${out.unchanged} already under this key; POSTHORN_SECRETS_OLD_KEYS is no longer needed once every server runs with this key` +
          (out.old_copies_removed
            ? ''
            : '\nold copies of the replaced values may remain in the database files until the next checkpoint or VACUUM FULL'),
      };
    }),
};

function formatStatus(s: SecretsStatus): string {
  const lines = [
    `key:      ${s.key === null ? 'none (POSTHORN_SECRETS_KEY not set: new secrets are stored unencrypted)' : `${s.key.id} (from ${s.key.source})`}`,
    `old keys: ${s.old_keys.length === 0 ? 'none' : s.old_keys.join(', ')}`,
    '',
    'field                          plaintext  current key  old keys  unknown key',
    ...s.fields.map(
      (f) =>
        `${f.field.padEnd(30)} ${String(f.plaintext).padStart(9)}  ${String(f.current_key).padStart(11)}  ${String(f.old_keys).padStart(8)}  ${String(f.unknown_key).padStart(11)}`,
    ),
    '',
  ];
  const unknown = s.fields.reduce((n, f) => n + f.unknown_key, 0);
  const stale = s.fields.reduce((n, f) => n + f.plaintext + f.old_keys, 0);
  if (unknown > 0)
    lines.push(
      `${unknown} secrets are encrypted with a key that is not configured: set it in POSTHORN_SECRETS_KEY or POSTHORN_SECRETS_OLD_KEYS`,
    );
  else if (s.key === null)
    lines.push('secrets are stored unencrypted; set POSTHORN_SECRETS_KEY and run: posthorn secrets rotate');
  else if (stale > 0) lines.push(`${stale} secrets are not yet under the current key; run: posthorn secrets rotate`);
  else lines.push('every secret is encrypted with the current key');
  return lines.join('\n');
}

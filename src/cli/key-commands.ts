import { CLI_ACTOR } from '../core/actor.js';
import { createDomainApiKey, revokeDomainApiKey } from '../credentials/domain-api-key.js';
import { withDeps, type Command } from './command.js';

/** `key create DOMAIN`: a new key; the domain's previous key gets 401 at once (one key per domain: docs/api.md, Authentication). */
export const keyCreate: Command = {
  words: 'key create',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      // The operator may issue the key before the domain verifies; its sends get 403 until then.
      const { domain, key, prefix } = await createDomainApiKey(deps, args[0] as string, CLI_ACTOR, {
        allowUnverified: true,
      });
      return {
        json: { domain, key, prefix },
        text: `API key for ${domain} (any previous key of this domain stopped working now; this one is shown only once):\n${key}`,
      };
    }),
};

/** `key revoke DOMAIN`: the domain's key gets 401 at once, and the domain has none until `key create`. */
export const keyRevoke: Command = {
  words: 'key revoke',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await revokeDomainApiKey(deps, args[0] as string, CLI_ACTOR);
      return {
        json: { ...out, revoked: true },
        text: `revoked the API key ${out.prefix}… of ${out.domain}; make a new one with: posthorn key create ${out.domain}`,
      };
    }),
};

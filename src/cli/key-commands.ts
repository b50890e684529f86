import { issueApiKey } from '../credentials/issue-api-key.js';
import { findDomain } from '../domains/add-domain.js';
import { withDeps, type Command } from './command.js';

/** `key create DOMAIN`: a new key; the domain's previous key gets 401 at once (one key per domain: docs/api.md, Authentication). */
export const keyCreate: Command = {
  words: 'key create',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const domain = await findDomain(deps, args[0]);
      const { key, prefix } = await issueApiKey(deps, domain.id);
      return {
        json: { domain: domain.name, key, prefix },
        text: `API key for ${domain.name} (any previous key of this domain stopped working now; this one is shown only once):\n${key}`,
      };
    }),
};

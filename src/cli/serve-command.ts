import { parseRoles } from '../core/roles.js';
import { serve } from '../main.js';
import type { Command } from './command.js';
import { sandboxBanner, sandboxJson } from './sandbox-banner.js';

/** `serve [--roles r1,r2]`: runs until SIGTERM/SIGINT; prints the sandbox welcome on first start. */
export const serveCommand: Command = {
  words: 'serve',
  args: [],
  options: ['roles'],
  run: ({ config, options }, print) => {
    const roles = options.roles === undefined ? undefined : parseRoles(options.roles);
    return serve(config, roles, {
      onReady: ({ sandbox }) => {
        if (!sandbox) return;
        process.stdout.write(
          print.json ? `${JSON.stringify(sandboxJson(sandbox), null, 2)}\n` : sandboxBanner(sandbox),
        );
      },
    });
  },
};

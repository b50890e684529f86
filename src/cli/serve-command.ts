import { parseRoles } from '../core/roles.js';
import { serve } from '../main.js';
import { parseProcesses } from '../processes/plan.js';
import type { Command } from './command.js';
import { sandboxBanner, sandboxJson } from './sandbox-banner.js';

/**
 * `serve [--roles r1,r2] [--processes N]`: runs until SIGTERM/SIGINT; prints the sandbox welcome on
 * first start. `--processes` overrides POSTHORN_PROCESSES (docs/scaling.md).
 */
export const serveCommand: Command = {
  words: 'serve',
  args: [],
  options: ['roles', 'processes'],
  run: ({ config, options }, print) => {
    const roles = options.roles === undefined ? undefined : parseRoles(options.roles);
    const processes = options.processes === undefined ? undefined : parseProcesses(options.processes);
    return serve(config, roles, {
      ...(processes === undefined ? {} : { processes }),
      onReady: ({ sandbox }) => {
        if (!sandbox) return;
        process.stdout.write(
          print.json ? `${JSON.stringify(sandboxJson(sandbox), null, 2)}\n` : sandboxBanner(sandbox),
        );
      },
    });
  },
};

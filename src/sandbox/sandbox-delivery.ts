import type { Deps } from '../deps.js';
import type { LocalMailbox } from '../delivery/start-delivery.js';
import { createSandboxTransport } from './sandbox-transport.js';
import { startSandboxTriggers } from './sandbox-triggers.js';

/** The sandbox mailbox and triggers as the delivery role takes them (src/delivery/start-delivery.ts). */
export function sandboxDelivery(deps: Deps): LocalMailbox {
  return {
    transport: () => createSandboxTransport(deps),
    startTriggers: (secrets) => startSandboxTriggers(deps, secrets),
  };
}

/**
 * The sandbox's demo account, domain and from address (README, Quick start). Here in core/ because
 * both the sandbox (src/sandbox/bootstrap-sandbox.ts) and the delivery engine, which keeps that
 * domain's mail on the machine (src/delivery/deliver-group.ts), need them.
 */
export const SANDBOX = {
  account: 'demo',
  domain: 'sandbox.posthorn.test',
  from: 'hello@sandbox.posthorn.test',
  /** The demo account's dashboard login. */
  login: 'demo@sandbox.posthorn.test',
  setting: 'sandbox.bootstrapped',
} as const;

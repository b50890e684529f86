/**
 * Who made a management change, for the audit log (docs/management.md, Audit log): an account
 * token (by its name), a dashboard user (by email), or the `posthorn` CLI run by an operator with
 * a shell on the server, or the scheduler role acting on a setting (a DKIM rotation's steps,
 * docs/delivery.md). `ip` is the caller's address for HTTP callers.
 */
export type Actor =
  | { kind: 'cli' }
  | { kind: 'scheduler' }
  | { kind: 'token'; id: string; name: string; ip?: string }
  | { kind: 'user'; id: string; email: string; ip?: string };

/** The CLI as an actor: the operator at the server's shell. */
export const CLI_ACTOR: Actor = Object.freeze({ kind: 'cli' });

/** The scheduler role as an actor: a step taken by itself, on a schedule or once DNS allows it. */
export const SCHEDULER_ACTOR: Actor = Object.freeze({ kind: 'scheduler' });

/** The actor as the audit log writes it: `cli`, `token:<name>`, `user:<email>`. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'cli':
      return 'cli';
    case 'scheduler':
      return 'scheduler';
    case 'token':
      return `token:${actor.name}`;
    case 'user':
      return `user:${actor.email}`;
  }
}

/**
 * Who made a management change, for the audit log (docs/management.md, Audit log): an account
 * token (by its name), a dashboard user (by email), or the `posthorn` CLI run by an operator with
 * a shell on the server. `ip` is the caller's address for HTTP callers.
 */
export type Actor =
  | { kind: 'cli' }
  | { kind: 'token'; id: string; name: string; ip?: string }
  | { kind: 'user'; id: string; email: string; ip?: string };

/** The CLI as an actor: the operator at the server's shell. */
export const CLI_ACTOR: Actor = Object.freeze({ kind: 'cli' });

/** The actor as the audit log writes it: `cli`, `token:<name>`, `user:<email>`. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'cli':
      return 'cli';
    case 'token':
      return `token:${actor.name}`;
    case 'user':
      return `user:${actor.email}`;
  }
}

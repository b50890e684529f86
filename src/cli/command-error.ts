/**
 * A command the CLI itself refuses (a missing option, an unknown id in a listing): the message is
 * the one-line reason printed on stderr. Features refuse with RefusedError (`core/refused-error.ts`).
 */
export class CommandError extends Error {}

/** A refused operator command (CLI): the message is the one-line reason printed on stderr. */
export class CommandError extends Error {}

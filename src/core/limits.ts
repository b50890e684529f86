/** A message over 10 MiB is refused, over HTTP (413) and over the relay (552, SIZE). */
export const BODY_LIMIT = 10 * 1024 * 1024;

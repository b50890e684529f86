/**
 * A message over 10 MiB is refused, over HTTP (413) and over the relay (552, SIZE). For
 * `POST /v1/send` it is the message's content as delivered: html, text and the decoded bytes of
 * its attachments (docs/api.md, Attachments).
 */
export const BODY_LIMIT = 10 * 1024 * 1024;

/**
 * The largest JSON body of `POST /v1/send`: attachments arrive base64-encoded, 4 characters for
 * every 3 bytes, so a message of BODY_LIMIT needs about 13.4 MiB of JSON for its attachments alone.
 * 16 MiB leaves room for the html, the text and the JSON around them; the content itself is still
 * held to BODY_LIMIT once decoded (src/send/validate-send-json.ts).
 */
export const SEND_BODY_LIMIT = 16 * 1024 * 1024;

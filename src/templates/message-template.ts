/**
 * The template a stored message was rendered from, as `GET /v1/messages/{id}` shows it
 * (`"template": {"name","version"}`, or null for a message sent with html/text or over SMTP):
 * read from `messages.template`, which the submit pipeline writes (send/submit.ts, `planMessage`).
 */
export function messageTemplate(row: { template?: string | null }): { name: string; version: number } | null {
  if (row.template === undefined || row.template === null) return null;
  try {
    const v = JSON.parse(row.template) as { name?: unknown; version?: unknown };
    return typeof v.name === 'string' && typeof v.version === 'number' ? { name: v.name, version: v.version } : null;
  } catch {
    return null;
  }
}

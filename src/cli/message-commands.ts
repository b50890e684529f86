import { showMessage, type MessageView } from '../messages/message-view.js';
import { withDeps, type Command } from './command.js';
import { printable } from './printable.js';

/** One event as a line: when, what, to whom, and its details when it has any. */
function eventLine(e: MessageView['events'][number]): string {
  const details = Object.keys(e.details).length > 0 ? `  ${JSON.stringify(e.details)}` : '';
  return `  ${e.occurred_at}  ${e.event.padEnd(18)}  ${e.to}${details}`;
}

/** What became of one recipient, on one line. */
function recipientLine(r: MessageView['recipients'][number], width: number): string {
  const parts = [`  ${r.address.padEnd(width)}  ${r.status.padEnd(10)}  since ${r.updated_at}`];
  if (r.last_reply !== null) parts.push(`last reply: ${r.last_reply}`);
  if (r.next_attempt_at !== null) parts.push(`next attempt ${r.next_attempt_at}`);
  if (r.last_reply === null && r.last_event !== null) {
    const said = r.last_event.details.response ?? r.last_event.details.reason;
    parts.push(`${r.last_event.event}${typeof said === 'string' ? `: ${said}` : ''}`);
  }
  return parts.join('  ');
}

/** The text form of `posthorn message show`: the same facts as the JSON (the API's object). */
export function messageText(m: MessageView): string {
  const width = Math.max(0, ...m.recipients.map((r) => r.address.length));
  const metadata = Object.entries(m.metadata).map(([k, v]) => `${k}=${v}`);
  const lines = [
    `${m.id}  ${m.domain}  created ${m.created_at}`,
    `from:       ${m.from}`,
    `subject:    ${m.subject}`,
    `tags:       ${m.tags.length > 0 ? m.tags.join(', ') : '-'}`,
    `metadata:   ${metadata.length > 0 ? metadata.join(', ') : '-'}`,
    `template:   ${m.template === null ? '-' : `${m.template.name} v${m.template.version}`}`,
    `recipients:`,
    ...m.recipients.map((r) => recipientLine(r, width)),
    `events (oldest first${m.events_truncated ? `, the first ${m.events.length}` : ''}):`,
    ...m.events.map(eventLine),
  ];
  return printable(lines.join('\n'));
}

/**
 * `message show ID`: one message, each recipient's status and the events, as
 * `GET /v1/messages/{id}` gives them (the same function; `--json` prints the API's object).
 */
export const messageShow: Command = {
  words: 'message show',
  args: ['ID'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const message = await showMessage(deps, { any: true }, args[0] as string);
      return { json: message, text: messageText(message) };
    }),
};

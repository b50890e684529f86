import { CommandError } from './command-error.js';
import { SANDBOX_BEHAVIOURS } from '../sandbox/sandbox-transport.js';
import { SANDBOX_TRIGGERS } from '../sandbox/sandbox-triggers.js';
import { decodeEncodedWords } from '../mime/header-text.js';
import { iso, withDeps, type Command } from './command.js';

const LIST_LIMIT = 100;

/** `sandbox list`: the newest messages the sandbox kept instead of sending. */
export const sandboxList: Command = {
  words: 'sandbox list',
  args: [],
  options: [],
  run: ({ config }) =>
    withDeps(config, async (deps) => {
      // Kept byte for byte; shown as UTF-8, the charset nearly all mail is in.
      const rows = await deps.db
        .selectFrom('sandbox_messages')
        .select(['id', 'message_id', 'mail_from', 'recipients', 'raw', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      const messages = rows.map((r) => ({
        id: r.id,
        message_id: r.message_id,
        mail_from: r.mail_from,
        to: JSON.parse(r.recipients) as string[],
        subject: decodeEncodedWords(
          /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(r.raw.toString('utf8'))?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '',
        ),
        received_at: iso(r.created_at),
      }));
      const help = [...SANDBOX_BEHAVIOURS, ...SANDBOX_TRIGGERS]
        .map((b) => `  ${b.prefix}@… (or ${b.prefix}+tag@…): ${b.what}`)
        .join('\n');
      const text =
        messages.length === 0
          ? `The sandbox mailbox is empty. Send to any address; these local parts trigger outcomes:\n${help}`
          : messages.map((m) => `${m.id}  ${m.received_at}  ${m.to.join(', ')}  ${m.subject}`).join('\n');
      return { json: { messages }, text };
    }),
};

/** `sandbox show ID`: one kept message with its raw source, as signed. */
export const sandboxShow: Command = {
  words: 'sandbox show',
  args: ['ID'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const id = args[0] as string;
      const r = await deps.db
        .selectFrom('sandbox_messages')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', id), eb('message_id', '=', id)]))
        .orderBy('created_at')
        .executeTakeFirst();
      if (!r) throw new CommandError(`no sandbox message ${id}; see posthorn sandbox list`);
      const raw = r.raw.toString('utf8');
      const message = {
        id: r.id,
        message_id: r.message_id,
        mail_from: r.mail_from,
        to: JSON.parse(r.recipients) as string[],
        received_at: iso(r.created_at),
        raw,
      };
      return { json: message, text: raw };
    }),
};

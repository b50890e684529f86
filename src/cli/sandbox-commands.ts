import { sql } from 'kysely';
import { CommandError } from './command-error.js';
import { SANDBOX_BEHAVIOURS } from '../sandbox/sandbox-transport.js';
import { SANDBOX_TRIGGERS } from '../sandbox/sandbox-triggers.js';
import { readSandboxRaw, SANDBOX_HEAD_BYTES } from '../sandbox/sandbox-raw.js';
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
      // Kept byte for byte; shown as UTF-8, the charset nearly all mail is in. Only the head of each
      // message is read (the Subject is in its header block), from the row or from its first part
      // (sandbox/sandbox-raw.ts), so a mailbox of large messages is not loaded whole.
      const headBytes = sql.lit(SANDBOX_HEAD_BYTES);
      const rows = await deps.db
        .selectFrom('sandbox_messages')
        .select(['id', 'message_id', 'mail_from', 'recipients', 'created_at'])
        .select(sql<Buffer | null>`substr(raw, 1, ${headBytes})`.as('head'))
        .select((eb) =>
          eb
            .selectFrom('sandbox_message_parts')
            .select(sql<Buffer>`substr(bytes, 1, ${headBytes})`.as('head'))
            .whereRef('sandbox_message_parts.sandbox_message_id', '=', 'sandbox_messages.id')
            .where('sandbox_message_parts.seq', '=', 0)
            .as('first_part'),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      const messages = rows.map((r) => {
        // An empty raw (the message is in parts) reads as NULL or empty, depending on the database.
        const head = (r.head?.length ? r.head : r.first_part) ?? Buffer.alloc(0);
        return {
          id: r.id,
          message_id: r.message_id,
          mail_from: r.mail_from,
          to: JSON.parse(r.recipients) as string[],
          subject: decodeEncodedWords(
            /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(head.toString('utf8'))?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '',
          ),
          received_at: iso(r.created_at),
        };
      });
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
      const raw = (await readSandboxRaw(deps.db, r)).toString('utf8');
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

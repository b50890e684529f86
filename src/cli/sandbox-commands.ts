import { CommandError } from './command-error.js';
import { SANDBOX_BEHAVIOURS } from '../sandbox/sandbox-transport.js';
import { SANDBOX_TRIGGERS } from '../sandbox/sandbox-triggers.js';
import { readSandboxRaw } from '../sandbox/sandbox-raw.js';
import { listKeptMessages } from '../sandbox/sandbox-mailbox.js';
import { iso, withDeps, type Command } from './command.js';

const LIST_LIMIT = 100;

/** `sandbox list`: the newest messages the sandbox kept instead of sending. */
export const sandboxList: Command = {
  words: 'sandbox list',
  args: [],
  options: [],
  run: ({ config }) =>
    withDeps(config, async (deps) => {
      // Every account's kept messages: the operator's view, in or out of sandbox mode.
      const { messages } = await listKeptMessages(deps, null, { limit: LIST_LIMIT });
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

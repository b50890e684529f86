import { readFile } from 'node:fs/promises';
import { CommandError } from './command-error.js';
import { reportOutcome, type ReportOutcome } from '../feedback/report-outcome.js';
import type { ParsedReport } from '../feedback/types.js';
import type { Command } from './command.js';

const KIND_TEXT: Record<ParsedReport['kind'], string> = {
  dsn: 'delivery status notification (RFC 3464)',
  bounce: 'non-standard bounce (text format of a known mail server)',
  complaint: 'complaint report (ARF, RFC 5965)',
  feedback: "feedback report that is nobody's complaint (DMARC failure report, RFC 6591, or not-spam): changes nothing",
  unknown: 'not a bounce or complaint report Posthorn recognises',
};

async function readInput(file: string): Promise<Buffer> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (err as Error).message;
    throw new CommandError(`cannot read ${file}: ${why}`);
  }
}

/** What the inbound MX would do, in words. */
function verdictText(o: ReportOutcome): string {
  switch (o.kind) {
    case 'failed':
      return `\`failed\` event (bounce_class ${o.bounceClass}), ${o.suppress ? 'address SUPPRESSED (hard_bounce)' : 'not suppressed'}: ${o.why}`;
    case 'complained':
      return `\`complained\` event, ${o.suppress ? 'address SUPPRESSED (complaint)' : 'not suppressed'}: ${o.why}`;
    case 'none':
      return `nothing: ${o.why}`;
  }
}

/**
 * `bounce parse FILE|-`: the inbound MX's parser and classifier on one report, changing nothing and
 * opening no database, so an operator can see why an address was (or would be) suppressed.
 */
export const bounceParse: Command = {
  words: 'bounce parse',
  args: ['FILE'],
  options: [],
  run: async ({ args }) => {
    const file = args[0] as string;
    const raw = await readInput(file);
    // Loaded here, not at the top: every CLI command imports this module.
    const { parseReport } = await import('../feedback/parse-report.js');
    const parsed = await parseReport(raw);
    const recipients = parsed.recipients.map((r) => {
      const o = reportOutcome(parsed.kind, r);
      return {
        address: r.address,
        action: r.action,
        status: r.status,
        class: r.class,
        bounce_reason: r.reason,
        diagnostic: r.diagnostic,
        would: { event: o.kind === 'none' ? null : o.kind, suppress: o.kind !== 'none' && o.suppress, why: o.why },
      };
    });
    const json = {
      kind: parsed.kind,
      format: parsed.format ?? null,
      recipients,
      original_message_id: parsed.originalMessageId,
      return_path: parsed.returnPath ?? null,
      original_envelope_from: parsed.originalEnvelopeFrom ?? null,
      ...(parsed.feedback ? { feedback_type: parsed.feedback.type, user_agent: parsed.feedback.userAgent } : {}),
    };
    const lines = [
      `${file === '-' ? 'stdin' : file}: ${KIND_TEXT[parsed.kind]}${parsed.format ? ` [format ${parsed.format}]` : ''}`,
      `  original Message-ID:     ${parsed.originalMessageId ?? '(none)'}`,
      `  report addressed to:     ${parsed.returnPath ?? '(none)'}`,
      `  original envelope from:  ${parsed.originalEnvelopeFrom ?? '(none)'}`,
      ...(parsed.feedback
        ? [
            `  feedback type:           ${parsed.feedback.type}${parsed.feedback.userAgent ? ` (${parsed.feedback.userAgent})` : ''}`,
          ]
        : []),
      '',
      ...(parsed.recipients.length === 0
        ? [
            parsed.kind === 'complaint'
              ? "No recipient named (redacted): the inbound MX uses the return path or the message's only recipient."
              : 'No recipients: the inbound MX would change nothing.',
          ]
        : parsed.recipients.flatMap((r) => [
            `${r.address}`,
            `  action ${r.action ?? '(none)'}, status ${r.status ?? '(none)'}, class ${r.class}, reason ${r.reason ?? '(none)'}`,
            ...(r.diagnostic ? [`  diagnostic: ${r.diagnostic.replace(/\s+/g, ' ').trim()}`] : []),
            `  Posthorn would record: ${verdictText(reportOutcome(parsed.kind, r))}`,
          ])),
      '',
      'Nothing was changed. The inbound MX applies this only to a report carrying a signed return path that verifies (a Message-ID alone proves nothing), and suppresses only through a return path that names one recipient.',
    ];
    return { json, text: lines.join('\n') };
  },
};

import { ROLES } from '../core/roles.js';
import { SUPPRESSION_REASONS } from '../storage/database.js';

/** `posthorn --help`. Command names are a public interface (scripts call them); the README documents them. */
export const USAGE = `Usage: posthorn <command> [arguments] [--json]

Commands:
  serve [--roles r1,r2] [--processes N]       run the service (roles: ${ROLES.join(', ')};
                                              default: every role this release has); N >= 2: delivery
                                              in N-1 supervised child processes (SQLite: N <= 2)
  account create NAME                         create an account
  account set NAME [--rate-limit N] [--monthly-quota N|none]
                                              messages/s per sending domain; recipients per month
  domain add DOMAIN --account NAME            add a sending domain; prints the DNS records to publish
  domain verify DOMAIN                        check the four DNS records now (exit 0 only when verified)
  domain show DOMAIN                          the domain's status, records and last checks
  domain set DOMAIN --ed25519 on|off          also sign with Ed25519 (RFC 8463); prints the extra record
  domain set DOMAIN [--track-opens on|off] [--track-clicks on|off] [--unsubscribe on|off]
                                              the domain's tracking defaults (docs/tracking.md)
  domain set DOMAIN --dkim-rotate-days N|default
                                              rotate the DKIM key every N days (0 never; default: the server's)
  domain rotate-dkim DOMAIN                   a new DKIM key under a new selector; signing moves to it once
                                              its record is found in DNS (prints the record to publish)
  domain delete DOMAIN                        its key, SMTP logins and webhook stop; accepted mail still goes
  key create DOMAIN                           issue the domain's API key; the previous key stops working
  key revoke DOMAIN                           the domain's API key stops working; it has none until key create
  token create --account NAME [--name LABEL] [--role admin|viewer]
                                              an account token (pha_…) for the management API (shown once)
  token list --account NAME                   the account's live tokens (never the tokens themselves)
  token revoke LABEL|PREFIX --account NAME    revoke a token; its next request gets 401
  user create EMAIL --account NAME [--role admin|viewer]
                                              a dashboard user; the password is read from stdin, or
                                              generated and printed once
  user list --account NAME                    the account's dashboard users
  user remove EMAIL                           remove a user; their sessions end at once
  smtp-credential create DOMAIN               a new SMTP relay login for the domain (password shown once)
  smtp-credential revoke USERNAME             that SMTP login stops working; the API key is untouched
  smtp-credential list DOMAIN                 the domain's SMTP logins (usernames and dates only)
  webhook set DOMAIN URL                      the domain's webhook endpoint (signing secret shown once, on
                                              creation); setting it again changes the URL and re-enables it
  webhook rotate DOMAIN                       a new signing secret (shown once); the old one signs beside it
                                              for POSTHORN_WEBHOOK_SECRET_OVERLAP
  webhook show DOMAIN                         URL, status, secrets' ages, pending deliveries, last attempts
  webhook remove DOMAIN                       remove the webhook; its pending deliveries are dropped
  webhook test DOMAIN                         POST one signed webhook.test event now and print the answer
  webhook replay DOMAIN --start T --end T [--event NAME]
                                              queue the window's stored events again, with their original ids
  suppression add ADDRESS --account NAME [--reason R]
                                              suppress an address (R: ${SUPPRESSION_REASONS.join(', ')}; default manual)
  suppression remove ADDRESS --account NAME   take an address off the suppression list
  suppression list --account NAME             the account's suppression list, by address
  suppression import FILE|- --account NAME [--format csv|ndjson]
                                              import a CSV (header line: address[,reason,created_at,domain,
                                              message_id]) or NDJSON file; - reads stdin
  suppression export --account NAME [--format csv|ndjson]
                                              the whole list on stdout, CSV by default (imports back as is)
  template create NAME --account A --subject S [--html FILE] [--text FILE]
                                              a template (Handlebars; docs/templates.md), version 1
  template update NAME --account A --subject S [--html FILE] [--text FILE]
                                              the template's next version (earlier ones never change)
  template show NAME --account A [--version N]
                                              a version's subject, parts and variables
  template list --account A                   the account's templates and their newest versions
  template delete NAME --account A            delete a template; a send naming it is refused
  template install-examples --account A       add the starter templates: welcome, password-reset, receipt
  message show ID                             one message: each recipient's status (with the last SMTP reply
                                              while deferred) and its events, as GET /v1/messages/{id}
  queue list [--domain D] [--provider P] [--status queued|deferred|scheduled|suspended] [--account A] [--limit N]
                                              delivery jobs not finished yet, oldest first (default 100)
  queue show ID                               one message's queue state, recipient by recipient
  queue retry ID|--domain D|--provider P      make waiting jobs due now (not a scheduled message's,
                                              before its time)
  queue cancel ID                             never deliver what is pending of a message: its recipients
                                              end failed with reason cancelled
  queue suspend --domain D|--provider P [--until TIME] [--reason TEXT] [--account A]
                                              hold delivery to a recipient domain or provider (gmail,
                                              outlook, yahoo, apple, other, or one POSTHORN_PROVIDERS
                                              adds); TIME: ISO 8601, Unix seconds or 2h
  queue resume --domain D|--provider P [--account A]
                                              end a hold; the mail it held is due at once
  queue holds [--account A]                   the delivery holds in force
  notice list --account NAME [--domain D]     the newest notices: DNS warnings, complaint rate, disabled webhooks
  provider list                               mailbox providers: limits, the pace now, throttling, suspensions
  provider show PROVIDER                      one provider with its last throttling reply and suspensions
  sandbox list                                messages the sandbox kept instead of sending, newest first
  sandbox show ID                             one sandbox message with its raw, signed source
  secrets status                              the secrets key (POSTHORN_SECRETS_KEY) and how many secrets are
                                              stored unencrypted, under it, or under an old key
  secrets rotate                              encrypt every secret with POSTHORN_SECRETS_KEY (plaintext ones,
                                              and those under POSTHORN_SECRETS_OLD_KEYS)
  doctor [--probe DOMAIN]                     check this server's DNS (A, PTR, SPF include host, bounce
                                              host MX), certificate, database and outbound port 25
  bounce parse FILE|-                         parse a bounce or complaint report (- reads stdin) as the
                                              inbound MX does; says what it would record; changes nothing
  inbound list [--unmatched]                  the newest reports the inbound MX received and what each did;
                                              --unmatched: only those that changed nothing (no valid token)
  inbound show ID                             one received report: envelope, outcome per recipient, raw source

Options:
  --json       print exactly one JSON document on stdout (logs go to stderr)
  -h, --help   show this help

Configuration comes from POSTHORN_* environment variables (and POSTHORN_CONFIG_FILE).
Exit status: 0 success, 1 refused or failed, 2 bad usage.`;

/** The Commands section of USAGE, one entry per command line with its continuation lines. */
function usageEntries(): string[][] {
  const lines = USAGE.slice(USAGE.indexOf('Commands:\n') + 'Commands:\n'.length, USAGE.indexOf('\n\nOptions:')).split(
    '\n',
  );
  const entries: string[][] = [];
  for (const line of lines) {
    // A command starts two spaces in; its continuation lines are indented to the description column.
    if (/^ {2}\S/.test(line)) entries.push([line]);
    else entries.at(-1)?.push(line);
  }
  return entries;
}

/**
 * `posthorn COMMAND --help`: the USAGE lines of the commands named `words` (`domain set` has two;
 * a group such as `domain` lists all of its commands), and the options every command takes.
 * Undefined when USAGE has no line for them.
 */
export function commandUsage(words: string): string | undefined {
  const prefix = words;
  const matching = usageEntries().filter((entry) => {
    const synopsis = entry[0]!.trim();
    return synopsis === prefix || synopsis.startsWith(`${prefix} `);
  });
  if (matching.length === 0) return undefined;
  return (
    `Usage: posthorn ${prefix} [arguments] [--json]\n\n${matching.flat().join('\n')}\n\n` +
    `Options every command takes:\n  --json       print exactly one JSON document on stdout (logs go to stderr)\n` +
    `  -h, --help   show this help\n\nExit status: 0 success, 1 refused or failed, 2 bad usage.`
  );
}

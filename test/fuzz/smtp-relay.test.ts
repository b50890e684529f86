import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/storage/database.js';
import { createRelayHarness, type RelayHarness, type SmtpReply, type SmtpWire } from '../helpers/relay-harness.js';
import { testDialects } from '../helpers/test-db.js';
import { fuzzProperty, oddString, runFuzz } from './fuzz-run.js';

const FILE = 'test/fuzz/smtp-relay.test.ts';
const SUPPRESSED = 'gone@example.org';

async function counts(db: Kysely<Database>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['messages', 'recipients', 'jobs'] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

async function lastEventId(db: Kysely<Database>): Promise<string> {
  return (await db.selectFrom('events').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())?.id ?? '';
}

async function eventsAfter(db: Kysely<Database>, since: string): Promise<string[]> {
  return (await db.selectFrom('events').select('event').where('id', '>', since).execute()).map((r) => r.event);
}

/**
 * A reply the relay may give to anything: a known class, and for 4yz/5yz an RFC 3463 enhanced code
 * of the same class first (the relay advertises ENHANCEDSTATUSCODES, RFC 2034 §3). 421 closes the
 * session and is allowed; 451 4.3.0 is the relay's internal failure, the SMTP side of a 500.
 */
function assertWellFormed(reply: SmtpReply, what: string, enhancedCodes = true): void {
  assert.ok([2, 3, 4, 5].includes(Math.floor(reply.code / 100)), `reply code ${reply.code} to ${what}`);
  // RFC 5321 §4.2: reply text is HT and printable US-ASCII (the client reads bytes as latin1).
  assert.match(reply.text, /^[\t\x20-\x7e\n]*$/, `reply text is not ASCII: ${reply.code} ${reply.text} to ${what}`);
  if (reply.code >= 400 && enhancedCodes) {
    const enhanced = /^([245])\.\d{1,3}\.\d{1,3} /.exec(reply.text);
    assert.ok(enhanced, `no enhanced status code in ${reply.code} ${reply.text} to ${what}`);
    assert.equal(enhanced[1], String(reply.code)[0], `enhanced code class of ${reply.code} ${reply.text}`);
  }
  assert.ok(
    !(reply.code === 451 && /^4\.3\.0 /.test(reply.text)),
    `internal failure ${reply.code} ${reply.text} to ${what}`,
  );
}

// ---- generators --------------------------------------------------------------------------------

/** Header values: plain, unicode as raw UTF-8 (8bit headers, RFC 6532), RFC 2047 encoded words, odd. */
const headerText = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 80 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
    .map((t) => `=?utf-8?B?${Buffer.from(t, 'utf8').toString('base64')}?=`),
  fc.constantFrom(
    '=?utf-8?Q?caf=C3=A9?=',
    '=?iso-8859-1?q?=E9t=E9?=',
    '=?bogus?X?abc?=',
    '=?utf-8?B?!!!?=',
    'a\tb',
    '"quoted, string"',
    '(comment) text',
  ),
  oddString(120),
);

const fromValue = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      'Acme <hello@acme.test>',
      'hello@acme.test',
      'billing@brand.test',
      '"Acme, Inc." <hello@acme.test>',
      '=?utf-8?B?w4FjbcOp?= <hello@acme.test>',
    ),
  },
  { weight: 1, arbitrary: headerText.map((t) => `${t} <hello@acme.test>`) },
  { weight: 1, arbitrary: oddString(80) },
);

const encoding = fc.constantFrom('7bit', '8bit', 'binary', 'quoted-printable', 'base64', 'x-uuencode', 'BASE64', '');

/** A body part's content as bytes, with its transfer encoding applied (or, sometimes, claimed and not applied). */
const partBody = fc
  .tuple(fc.string({ unit: 'grapheme', maxLength: 4000 }), encoding, fc.boolean(), fc.integer({ min: 40, max: 1200 }))
  .map(([text, cte, honest, width]) => {
    let bytes: string;
    if (honest && cte.toLowerCase() === 'base64')
      bytes = Buffer.from(text, 'utf8')
        .toString('base64')
        .replace(/.{1,76}/g, '$&\r\n');
    else if (honest && cte === 'quoted-printable') {
      bytes = Buffer.from(text, 'utf8')
        .toString('latin1')
        .replace(/[^\x20-\x3c\x3e-\x7e\n]/g, (c) => `=${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
        .replace(/[^\n]{73}/g, '$&=\n');
    } else bytes = Buffer.from(text, 'utf8').toString('latin1');
    // Long lines at a generated width: over 998 octets they must be refused, not cut (RFC 5321 §4.5.3.1.6).
    const wrapped = bytes
      .split('\n')
      .map((line) => line.replace(new RegExp(`[^\\n]{${width}}`, 'g'), '$&\n'))
      .join('\n');
    return { cte, content: wrapped };
  });

/** Header fields besides From: To, Subject, Date, MIME headers, X- headers, relay options, junk. */
const extraHeaders = fc.array(
  fc.oneof(
    fc.constantFrom(
      'To: user@example.org',
      'To: a@example.org, "B" <b@example.org>',
      'Cc: c@example.org',
      'Date: Sat, 21 Nov 2026 12:00:00 +0000',
      'Date: yesterday',
      'Message-ID: <x@client.test>',
      'Message-ID: <x@client.test>',
      'Reply-To: support@acme.test',
      'MIME-Version: 1.0',
      'MIME-Version: 2.0',
      'X-Posthorn-Tags: receipt, welcome',
      'X-Posthorn-Tags: ',
      'Idempotency-Key: fuzz-1',
      'Idempotency-Key: \u00e9',
      'X-Posthorn-Track-Opens: yes',
      'List-Unsubscribe: <mailto:u@acme.test>',
      'Subject: second subject',
      'From: other@acme.test',
      ' folded continuation',
      'no colon here',
      ': empty name',
      'X-Long: ' + 'x'.repeat(1200),
      'X-Folded: a\r\n b\r\n\tc',
      'DKIM-Signature: v=1; a=rsa-sha256',
      'Bcc: hidden@example.org',
      'Content-Length: 5',
    ),
    headerText.map((t) => `Subject: ${t}`),
    fc
      .tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 }), headerText)
      .map(([n, v]) => `X-${n}: ${v}`),
  ),
  { maxLength: 6 },
);

/** A message as the relay receives it (before dot-stuffing), with CRLF line ends. */
const message = fc
  .tuple(
    fromValue,
    fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
    extraHeaders,
    fc.oneof(
      // A single part.
      fc
        .tuple(
          fc.constantFrom(
            'text/plain; charset=utf-8',
            'text/html; charset=utf-8',
            'text/plain',
            'text/plain; charset=iso-8859-1',
            'application/octet-stream',
            'text/plain; charset="bogus"',
            'image/png',
            '',
          ),
          partBody,
        )
        .map(([type, part]) => ({
          head: [
            ...(type ? [`Content-Type: ${type}`] : []),
            ...(part.cte ? [`Content-Transfer-Encoding: ${part.cte}`] : []),
          ],
          body: part.content,
        })),
      // A multipart, sometimes with a broken or missing boundary.
      fc
        .tuple(
          fc.constantFrom('mixed', 'alternative', 'related', 'report'),
          fc.constantFrom('b1', '=_b=', 'a'.repeat(70), 'x y'),
          fc.array(
            fc.tuple(
              fc.constantFrom('text/plain; charset=utf-8', 'text/html', 'message/rfc822', 'application/pdf'),
              partBody,
            ),
            { minLength: 0, maxLength: 3 },
          ),
          fc.constantFrom('closed', 'open', 'wrong'),
        )
        .map(([sub, boundary, parts, end]) => ({
          head: [`Content-Type: multipart/${sub}; boundary="${boundary}"`],
          body: [
            ...parts.flatMap(([type, p]) => [
              `--${end === 'wrong' ? 'other' : boundary}`,
              `Content-Type: ${type}`,
              ...(p.cte ? [`Content-Transfer-Encoding: ${p.cte}`] : []),
              '',
              p.content,
            ]),
            ...(end === 'closed' ? [`--${boundary}--`] : []),
          ].join('\n'),
        })),
    ),
  )
  .map(([from, withFrom, extra, { head, body }]) => {
    // Header text is written as UTF-8 (RFC 6532); the body is already bytes (one char per byte).
    const utf8 = (line: string) => Buffer.from(line, 'utf8').toString('latin1');
    const lines = [...[...(withFrom ? [`From: ${from}`] : []), ...extra, ...head].map(utf8), '', body];
    // Every line end is CRLF: a bare CR or LF is the data guard's refusal, tested elsewhere.
    return Buffer.from(lines.join('\n').replace(/\r?\n|\r/g, '\r\n'), 'latin1');
  });

/** Envelope addresses, some of them broken or suppressed. */
const rcpt = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('<user@example.org>', '<a@example.org>', '<B@Example.org>', `<${SUPPRESSED}>`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '<>',
      '<@relay.test:user@example.org>',
      'user@example.org',
      '<"q u"@example.org>',
      '<user@[127.0.0.1]>',
      '<ü@example.org> SMTPUTF8',
      '<user@example.org> NOTIFY=NEVER',
      '<user@-bad-.org>',
    ),
  },
  { weight: 1, arbitrary: oddString(60).map((s) => `<${s.replace(/[\r\n]/g, '')}>`) },
);
const mailFrom = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '<hello@acme.test>',
      '<>',
      '<bounce@acme.test> BODY=8BITMIME',
      '<hello@acme.test> SIZE=1000',
      '<hello@acme.test> SMTPUTF8',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '<hello@acme.test> SIZE=99999999999',
      '<hello@acme.test> BODY=BINARYMIME',
      'hello@acme.test',
      '<not an address>',
      '<hello@acme.test> X=Y',
    ),
  },
  { weight: 1, arbitrary: oddString(60).map((s) => `<${s.replace(/[\r\n]/g, '')}>`) },
);

for (const dialect of testDialects()) {
  describe(`fuzz: SMTP relay over loopback (${dialect})`, () => {
    let h: RelayHarness;
    let wire: SmtpWire | null = null;
    /** Sessions the relay ended (421, or closed): their socket may not have seen 'close' yet. */
    const ended = new WeakSet<SmtpWire>();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => {
      rejections.push(reason);
    };

    before(async () => {
      process.on('unhandledRejection', onRejection);
      h = await createRelayHarness(dialect);
      // Nothing is delivered: the counts below are the relay's alone.
      await h.worker.stop(5_000);
      await h.deps.db
        .insertInto('suppressions')
        .values({
          account_id: h.sender.accountId,
          address: SUPPRESSED,
          reason: 'hard_bounce',
          message_id: null,
          created_at: h.deps.clock.now(),
        })
        .execute();
    });
    after(async () => {
      process.off('unhandledRejection', onRejection);
      await h.close();
    });

    /** The session, reopened (implicit TLS, EHLO, AUTH) when the relay closed the last one. */
    async function session(): Promise<SmtpWire> {
      if (wire && !wire.closed && !ended.has(wire)) return wire;
      wire?.destroy();
      wire = await h.authedWire();
      return wire;
    }

    /** Sends a command; a reply of 421 or a closed connection ends the session (the next run opens a new one). */
    async function cmd(w: SmtpWire, line: string, enhancedCodes = true): Promise<SmtpReply | null> {
      if (w.closed || ended.has(w)) return null;
      // UTF-8 (RFC 6531), CR and LF left out: one generated command is one line on the wire.
      w.write(Buffer.from(`${line.replace(/[\r\n]/g, '')}\r\n`, 'utf8'));
      const reply = await w.next().catch(() => null);
      if (reply) assertWellFormed(reply, line.slice(0, 200), enhancedCodes);
      if (reply === null || reply.code === 421) {
        ended.add(w);
        w.destroy();
      }
      return reply;
    }

    const name = `generated MIME submissions get a well-formed reply, and a refused one stores no message (${dialect})`;
    test(name, async (t) => {
      const outcomes = new Map<string, number>();
      const prop = fuzzProperty(
        fc.tuple(mailFrom, fc.array(rcpt, { minLength: 1, maxLength: 4 }), message),
        async ([from, rcpts, raw]) => {
          const w = await session();
          const before = await counts(h.deps.db);
          const since = await lastEventId(h.deps.db);
          let final: SmtpReply | null = null;
          const mail = await cmd(w, `MAIL FROM:${from}`);
          let accepted = 0;
          let refusedRcpt = '';
          if (mail?.code === 250) {
            for (const r of rcpts) {
              const reply = await cmd(w, `RCPT TO:${r}`);
              if (reply?.code === 250) accepted++;
              else refusedRcpt = reply ? `${reply.code} ${reply.text.slice(0, 40)}` : 'closed';
            }
            if (accepted > 0) {
              const go = await cmd(w, 'DATA');
              if (go?.code !== 354) refusedRcpt = go ? `DATA ${go.code} ${go.text.slice(0, 40)}` : 'closed';
              if (go?.code === 354) {
                // RFC 5321 §4.5.2: a line starting with a dot gets a second one.
                const stuffed = raw.toString('latin1').replace(/^\./gm, '..');
                w.write(Buffer.from(`${stuffed.endsWith('\r\n') ? stuffed : `${stuffed}\r\n`}.\r\n`, 'latin1'));
                final = await w.next(30_000).catch(() => null);
                if (final) assertWellFormed(final, `DATA of ${raw.length} bytes`);
                if (final === null || final.code === 421) {
                  ended.add(w);
                  w.destroy();
                }
              }
            }
          }
          const key = final
            ? `${final.code} ${final.text.slice(0, 5)}`
            : `no DATA (MAIL ${mail?.code ?? 'closed'}, ${accepted} RCPT, ${refusedRcpt})`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          // The session goes on after the transaction, unless the relay ended it with 421 (too many errors).
          const rset = await cmd(w, 'RSET');
          if (rset !== null) assert.ok(rset.code === 250 || rset.code === 421, `RSET: ${rset.code} ${rset.text}`);

          const now = await counts(h.deps.db);
          const added = await eventsAfter(h.deps.db, since);
          if (final?.code === 250) {
            assert.match(final.text, /Queued as msg_/);
            assert.equal(now.messages, before.messages + 1, 'an accepted message is stored');
            const n = now.recipients - before.recipients;
            assert.equal(n, added.filter((e) => e === 'accepted-by-system').length);
            assert.ok(
              added.every((e) => e === 'accepted-by-system' || e === 'rejected-by-system'),
              added.join(','),
            );
            return;
          }
          assert.deepEqual(now, before, `nothing stored for ${final ? `${final.code} ${final.text}` : key}`);
          // A suppressed RCPT, or a refusal naming recipients, leaves rejected-by-system events only.
          assert.ok(
            added.every((e) => e === 'rejected-by-system'),
            `events after a refusal: ${added.join(',')}`,
          );
        },
      );
      const { runs } = await runFuzz(FILE, name, prop);
      assert.deepEqual(rejections, [], 'no unhandled rejection');
      // The relay is still up for a new session after all of it.
      const fresh = await h.authedWire();
      assert.equal((await fresh.cmd('NOOP')).code, 250);
      fresh.destroy();
      t.diagnostic(
        `${runs} generated submissions: ${[...outcomes]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k} ×${n}`)
          .join(', ')}`,
      );
    });

    const commandsName = `generated command lines before and after EHLO get one well-formed reply each (${dialect})`;
    test(commandsName, async (t) => {
      // AUTH is left out: failed logins from 127.0.0.1 would throttle every later session of the file.
      const verb = fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom(
            'EHLO',
            'HELO',
            'MAIL FROM:',
            'RCPT TO:',
            'RSET',
            'NOOP',
            'VRFY',
            'EXPN',
            'HELP',
            'QUIT',
            'mail from:',
            'Rcpt To:',
            'XCLIENT',
            'XFORWARD',
            'ETRN',
            'TURN',
            '',
          ),
        },
        { weight: 1, arbitrary: oddString(12).filter((v) => !/^\s*(auth|data|bdat|starttls)/i.test(v)) },
      );
      const line = fc
        .tuple(
          verb,
          fc.oneof(
            fc.constant(''),
            fc.constantFrom(
              ' client.test',
              ' <user@example.org>',
              ' <>',
              ' <a@b> SIZE=-1',
              ' <a@b> BODY=8BITMIME SMTPUTF8',
              ' [127.0.0.1]',
              ' ' + 'x'.repeat(600),
            ),
            oddString(300).map((a) => ` ${a}`),
          ),
        )
        .map(([v, a]) => `${v}${a}`.replace(/[\r\n]/g, ''));
      let replies = 0;
      const prop = fuzzProperty(fc.array(line, { minLength: 1, maxLength: 8 }), async (lines) => {
        const { wire: w, greeting } = await h.wire('plain');
        try {
          assertWellFormed(greeting, 'the greeting', false);
          // Enhanced codes are owed once EHLO has advertised them, except on the replies to HELO and
          // EHLO themselves (RFC 2034 §3).
          let advertised = false;
          for (const l of lines) {
            const reply = await cmd(w, l, advertised && !/^(ehlo|helo|lhlo)\b/i.test(l));
            if (reply === null) break;
            replies++;
            if (reply.code === 250 && /^(ehlo|helo)\b/i.test(l)) advertised = /^ehlo/i.test(l);
            if (/^quit/i.test(l) && reply.code === 221) break;
          }
        } finally {
          w.destroy();
        }
      });
      const { runs } = await runFuzz(FILE, commandsName, prop);
      assert.deepEqual(rejections, [], 'no unhandled rejection');
      const fresh = await h.authedWire();
      assert.equal((await fresh.cmd('NOOP')).code, 250, 'the relay still takes a session');
      fresh.destroy();
      t.diagnostic(`${runs} generated sessions, ${replies} replies`);
    });
  });
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { parseSmtpReply, type SmtpReply } from '../../../src/core/smtp-reply.js';

/** One input and the whole reply it gives; `raw` is the input unless the case says otherwise. */
interface Case {
  what: string;
  input: string;
  want: Omit<SmtpReply, 'raw'> & { raw?: string };
}

const CASES: Case[] = [
  // One line, as received.
  {
    what: 'basic and enhanced code, text after them',
    input: '550 5.1.1 <x@example.org>: Recipient address rejected',
    want: { code: 550, enhanced: '5.1.1', message: '<x@example.org>: Recipient address rejected' },
  },
  {
    what: 'a three-digit detail',
    input: '554 5.7.606 Access denied',
    want: { code: 554, enhanced: '5.7.606', message: 'Access denied' },
  },
  {
    what: 'a two-digit detail',
    input: '550 5.1.10 Recipient address rejected',
    want: { code: 550, enhanced: '5.1.10', message: 'Recipient address rejected' },
  },
  {
    what: 'success',
    input: '250 2.0.0 OK 1700000000 x1si123 - gsmtp',
    want: { code: 250, enhanced: '2.0.0', message: 'OK 1700000000 x1si123 - gsmtp' },
  },
  {
    what: 'the final line break is not part of the reply',
    input: '250 2.0.0 Ok\r\n',
    want: { code: 250, enhanced: '2.0.0', message: 'Ok', raw: '250 2.0.0 Ok' },
  },
  // Missing or malformed enhanced codes.
  {
    what: 'no enhanced code: the text is whole',
    input: '550 Unrouteable address',
    want: { code: 550, enhanced: null, message: 'Unrouteable address' },
  },
  {
    what: 'a code inside the text is not the enhanced code',
    input: '550 sorry, no mailbox here by that name. (#5.1.1)',
    want: { code: 550, enhanced: null, message: 'sorry, no mailbox here by that name. (#5.1.1)' },
  },
  {
    what: 'class 1 is not an RFC 3463 class (a version number)',
    input: '554 1.2.3 oddity',
    want: { code: 554, enhanced: null, message: '1.2.3 oddity' },
  },
  {
    what: 'the code must end at white space',
    input: '554 5.7.1x oddity',
    want: { code: 554, enhanced: null, message: '5.7.1x oddity' },
  },
  {
    what: 'a four-digit detail is malformed',
    input: '550 5.1.1000 oddity',
    want: { code: 550, enhanced: null, message: '5.1.1000 oddity' },
  },
  {
    what: 'an enhanced class that contradicts the reply is not trusted (RFC 3463 §3.1)',
    input: '550 4.2.2 class does not match',
    want: { code: 550, enhanced: null, message: '4.2.2 class does not match' },
  },
  {
    what: 'a code alone',
    input: '421',
    want: { code: 421, enhanced: null, message: '' },
  },
  {
    what: 'an enhanced code alone',
    input: '250 2.0.0',
    want: { code: 250, enhanced: '2.0.0', message: '' },
  },
  // Multi-line replies (RFC 5321 §4.2.1), as nodemailer joins them.
  {
    what: 'repeated codes and enhanced codes are removed, the lines joined with a space',
    input:
      "550-5.1.1 The email account that you tried to reach does not exist. Please try\r\n550 5.1.1 double-checking the recipient's email address",
    want: {
      code: 550,
      enhanced: '5.1.1',
      message:
        "The email account that you tried to reach does not exist. Please try double-checking the recipient's email address",
    },
  },
  {
    what: 'LF-joined lines, as nodemailer hands them over',
    input: '451-4.7.1 Greylisted\n451 4.7.1 come back later',
    want: { code: 451, enhanced: '4.7.1', message: 'Greylisted come back later' },
  },
  {
    what: 'no enhanced code on the first line: none is read, later ones stay in the text',
    input: '250-first\n250 2.0.0 done',
    want: { code: 250, enhanced: null, message: 'first 2.0.0 done' },
  },
  {
    what: 'a multi-line reply without enhanced codes',
    input: '554-Transaction failed\n554 Reject due to policy restrictions.',
    want: { code: 554, enhanced: null, message: 'Transaction failed Reject due to policy restrictions.' },
  },
  {
    what: 'a different enhanced code on a later line is text',
    input: '550-5.1.1 No such user\n550 5.7.1 and blocked',
    want: { code: 550, enhanced: '5.1.1', message: 'No such user 5.7.1 and blocked' },
  },
  {
    what: 'a longer code on a later line is not a repeat of the first',
    input: '550-5.1.1 first\n550 5.1.10 second',
    want: { code: 550, enhanced: '5.1.1', message: 'first 5.1.10 second' },
  },
  {
    what: 'a later line with another basic code keeps it as text',
    input: '550-5.1.1 first\n551 second',
    want: { code: 550, enhanced: '5.1.1', message: 'first 551 second' },
  },
  {
    what: 'empty lines are dropped',
    input: '550-5.2.1 \n550 5.2.1 The account is disabled',
    want: { code: 550, enhanced: '5.2.1', message: 'The account is disabled' },
  },
  // As a DSN's Diagnostic-Code quotes it (RFC 3464 §2.3.6), after the caller cut off `smtp;`.
  {
    what: 'a colon after the code',
    input: '550: 5.1.1 User unknown',
    want: { code: 550, enhanced: '5.1.1', message: 'User unknown' },
  },
  {
    what: 'unfolded continuation lines, indented',
    input: '550-5.1.1 The email account that you tried to reach does not exist.\n    550 5.1.1 Please try again',
    want: {
      code: 550,
      enhanced: '5.1.1',
      message: 'The email account that you tried to reach does not exist. Please try again',
    },
  },
  // Not a reply at all: never throws.
  {
    what: 'no code',
    input: 'connection reset by peer',
    want: { code: 0, enhanced: null, message: 'connection reset by peer' },
  },
  {
    what: 'four digits are not a basic code',
    input: '5500 5.1.1 oddity',
    want: { code: 0, enhanced: null, message: '5500 5.1.1 oddity' },
  },
  {
    what: 'a missing separator is tolerated',
    input: '550no space',
    want: { code: 550, enhanced: null, message: 'no space' },
  },
  { what: 'nothing', input: '', want: { code: 0, enhanced: null, message: '' } },
];

test(`${CASES.length} replies parse as their case says`, () => {
  const wrong = CASES.flatMap((c) => {
    const got = parseSmtpReply(c.input);
    const want = { raw: c.input, ...c.want };
    return isDeepStrictEqual(got, want) ? [] : [{ what: c.what, got, want }];
  });
  assert.deepEqual(wrong, []);
});

test('a reply quoted in a report reads as it did live: same code, enhanced code and message', () => {
  const live = parseSmtpReply('550-5.1.1 The account does not\r\n550 5.1.1 exist');
  const quoted = parseSmtpReply('550-5.1.1 The account does not\n550 5.1.1 exist');
  assert.deepEqual({ ...quoted, raw: '' }, { ...live, raw: '' });
});

// storedDraft joins a draft's head to bodies serialised elsewhere (src/send/offload.ts): the text
// must be what JSON.stringify(composeDraft(...)) gives, as delivery and the messages API read it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { composeDraft, draftBodies, storedDraft } from '../../../src/mime/message-draft.js';
import type { Mailbox } from '../../../src/core/mailbox.js';

const box = (address: string, name = ''): Mailbox => ({ name, address, domain: address.split('@')[1]! }) as Mailbox;

test('storedDraft is JSON.stringify(composeDraft(...)) for every shape of draft, ASCII or not', () => {
  const head = { id: 'msg_1', hostname: 'mail.example', now: Date.UTC(2026, 0, 2, 3, 4, 5), to: [box('a@x.example')] };
  const shapes = [
    { from: box('s@y.example'), subject: 'Hi', html: '<p>hi</p>', text: null, headers: [] as [string, string][] },
    {
      from: box('s@y.example', 'Shop'),
      subject: 'Plain',
      html: null,
      text: 'a\tb\u0001"\\',
      headers: [['X-A', 'b']] as [string, string][],
    },
    {
      from: box('s@y.example', 'Grüße'),
      subject: 'déjà 😀',
      html: '<p>你好</p>',
      text: 'x',
      headers: [] as [string, string][],
      cc: [box('c@x.example', 'C')],
      replyTo: [box('r@y.example')],
      attachments: [{ filename: 'a.txt', contentType: 'text/plain', contentId: null, content: 'aGk=' }],
    },
    {
      from: box('s@y.example'),
      subject: 'ascii',
      html: 'h',
      text: 't',
      headers: [] as [string, string][],
      cc: [],
      attachments: [],
    },
  ];
  for (const shape of shapes) {
    const input = { ...head, ...shape };
    const expected = JSON.stringify(composeDraft(input));
    const got = storedDraft(input, Buffer.from(JSON.stringify(draftBodies(input))));
    assert.equal(got.content, expected);
    assert.equal(got.bytes, Buffer.byteLength(expected));
  }
});

test('storedDraft refuses bodies that are not a JSON object', () => {
  const input = {
    id: 'msg_1',
    hostname: 'h',
    now: 0,
    from: box('s@y.example'),
    to: [box('a@x.example')],
    subject: 's',
  };
  assert.throws(() => storedDraft(input, Buffer.from('[]')), /not a JSON object/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS } from '../../../src/cli/main.js';
import { commandUsage, USAGE } from '../../../src/cli/usage.js';

// The command table names each command without importing it (so `posthorn --version` loads almost
// nothing); its words must be the loaded command's, and `posthorn COMMAND --help` must have lines.
test('every command in the table loads as the command its words name', async () => {
  for (const entry of COMMANDS) {
    const command = await entry.load();
    assert.equal(command.words, entry.words);
  }
  assert.equal(new Set(COMMANDS.map((c) => c.words)).size, COMMANDS.length);
});

test('every command has its own --help, taken from USAGE', () => {
  for (const { words } of COMMANDS) {
    const help = commandUsage(words);
    assert.ok(help !== undefined, `no help for ${words}`);
    assert.match(help, new RegExp(`\\n {2}${words}( |\\n|$)`), words);
    for (const line of help.split('\n').filter((l) => l.startsWith(`  ${words}`))) assert.ok(USAGE.includes(line));
  }
  assert.match(commandUsage('domain')!, /domain add[\s\S]*domain delete/);
  assert.equal(commandUsage('no-such-command'), undefined);
});

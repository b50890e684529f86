import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as dns } from 'node:dns';
import { createResolver } from '../../../src/domains/create-resolver.js';

const serversOf = (resolver: unknown) => (resolver as dns.Resolver).getServers();

test('createResolver uses the given servers, with ports and bracketed IPv6', () => {
  const resolver = createResolver([' 127.0.0.1:5353', '192.0.2.53', '[::1]:5300', '']);
  assert.deepEqual(serversOf(resolver), ['127.0.0.1:5353', '192.0.2.53', '[::1]:5300']);
});

test('createResolver with no servers uses the system resolvers', () => {
  assert.deepEqual(serversOf(createResolver([])), dns.getServers());
});

test('createResolver rejects an entry that is not an IP address', () => {
  assert.throws(() => createResolver(['dns.example.com']), { code: 'ERR_INVALID_IP_ADDRESS' });
});

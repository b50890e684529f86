import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createResolver } from '../../../src/domains/create-resolver.js';
import { resolverLookup } from '../../../src/delivery/smtp/resolver-lookup.js';
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.js';

let dns: DnsServer;
let listener: net.Server;
let port: number;
before(async () => {
  // A name only the configured resolver knows: the system resolver would not find it.
  dns = await startDnsServer({ 'mx1.posthorn-only.test': { A: ['127.0.0.1'] } });
  listener = net.createServer((s) => s.end('220 ok\r\n'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as net.AddressInfo).port;
});
after(async () => {
  await dns.close();
  await new Promise((r) => listener.close(r));
});

test('MX host names are connected to through the configured resolvers', async () => {
  const lookup = resolverLookup(createResolver([dns.address], { timeoutMs: 1000, tries: 1 }));
  const greeting = await new Promise<string>((resolve, reject) => {
    const s = net.connect({ host: 'mx1.posthorn-only.test', port, lookup });
    s.once('data', (d) => {
      resolve(d.toString());
      s.destroy();
    });
    s.once('error', reject);
  });
  assert.equal(greeting, '220 ok\r\n');
});

test('a name the resolver does not know fails with ENOTFOUND', async () => {
  const lookup = resolverLookup(createResolver([dns.address], { timeoutMs: 1000, tries: 1 }));
  const err = await new Promise<NodeJS.ErrnoException>((resolve) => {
    net.connect({ host: 'nowhere.posthorn-only.test', port, lookup }).once('error', resolve);
  });
  assert.equal(err.code, 'ENOTFOUND');
});

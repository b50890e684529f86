// The loopback DNS server is itself test infrastructure the domain checks rely on, so it is tested:
// what c-ares reads from it, and the UDP truncation / TCP retry path big DKIM records take.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { createResolver } from '../../../src/domains/create-resolver.js';
import { generateDkimKey } from '../../../src/domains/dkim-key.js';
import { ednsOpt, startDnsServer, type DnsServer } from '../../helpers/dns-server.js';

let server: DnsServer;
const big = 'x'.repeat(3000);

before(async () => {
  server = await startDnsServer({
    'a.test': { A: ['192.0.2.1'], TXT: [['hello ', 'world'], [big]], MX: [{ exchange: 'mx.a.test', priority: 10 }] },
    'alias.test': { CNAME: ['a.test.'] },
    'empty.test': {},
  });
});
after(() => server.close());

const port = () => Number(server.address.split(':')[1]);
const txtQuery = (name: string, edns: boolean): Buffer =>
  dnsPacket.encode({
    type: 'query',
    id: 7,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: 'TXT', name }],
    additionals: edns ? [ednsOpt(4096)] : [],
  });

/** Sends one query over UDP and returns the decoded reply. */
async function askUdp(query: Buffer) {
  const socket = dgram.createSocket('udp4');
  try {
    const reply = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    socket.send(query, port(), '127.0.0.1');
    return dnsPacket.decode(await reply);
  } finally {
    socket.close();
  }
}

/** Sends one length-prefixed query over TCP and returns the decoded reply. */
async function askTcp(query: Buffer) {
  const socket = net.connect(port(), '127.0.0.1');
  let data = Buffer.alloc(0);
  const reply = new Promise<Buffer>((resolve) =>
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) resolve(data);
    }),
  );
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(query.length);
  // Written in two pieces, to exercise reassembly of a split message.
  socket.write(prefix);
  socket.write(query);
  try {
    return dnsPacket.streamDecode(await reply);
  } finally {
    socket.destroy();
  }
}

test('c-ares reads TXT strings, A, MX, and NXDOMAIN vs NODATA codes', async () => {
  const resolver = createResolver([server.address]);
  assert.deepEqual((await resolver.resolveTxt('a.test'))[0], ['hello ', 'world']);
  assert.deepEqual(await resolver.resolve4('A.Test'), ['192.0.2.1']);
  // Node 24 also gives each MX record `type: 'MX'`; the exchange and priority are what Posthorn reads.
  const mx = (await resolver.resolveMx('a.test')).map(({ exchange, priority }) => ({ exchange, priority }));
  assert.deepEqual(mx, [{ exchange: 'mx.a.test', priority: 10 }]);
  await assert.rejects(resolver.resolveTxt('missing.test'), { code: 'ENOTFOUND' });
  await assert.rejects(resolver.resolveTxt('empty.test'), { code: 'ENODATA' });
});

test('a name with a CNAME answers every type with the CNAME, plus the in-zone target records', async () => {
  const resolver = createResolver([server.address]);
  assert.deepEqual(await resolver.resolveCname('alias.test'), ['a.test']);
  assert.deepEqual(await resolver.resolve4('alias.test'), ['192.0.2.1']);
  const reply = await askUdp(
    dnsPacket.encode({ type: 'query', id: 1, questions: [{ type: 'AAAA', name: 'alias.test' }] }),
  );
  assert.deepEqual(
    reply.answers?.map((a) => a.type),
    ['CNAME'],
  );
});

test('a 3000-byte TXT record is split into 255-byte strings and reaches c-ares (via TCP)', async () => {
  const resolver = createResolver([server.address]);
  const record = (await resolver.resolveTxt('a.test')).find((chunks) => chunks.join('') === big);
  assert.ok(record, 'the big record came back whole');
  assert.deepEqual(
    record.map((s) => s.length),
    [...Array(11).fill(255), 195],
  );
});

test('a 2048-bit DKIM key record resolves whole through c-ares', async () => {
  const { publicKeyB64 } = await generateDkimKey();
  const value = `v=DKIM1; k=rsa; p=${publicKeyB64}`;
  server.zone['ph202611._domainkey.a.test'] = { TXT: [value] };
  const resolver = createResolver([server.address]);
  assert.deepEqual(
    (await resolver.resolveTxt('ph202611._domainkey.a.test')).map((c) => c.join('')),
    [value],
  );
});

test('UDP answers over 512 bytes without EDNS are truncated with TC; TCP carries them whole', async () => {
  const udp = await askUdp(txtQuery('a.test', false));
  assert.equal(udp.flag_tc, true);
  assert.equal(udp.answers?.length, 0);
  const tcp = await askTcp(txtQuery('a.test', false));
  assert.equal(tcp.answers?.length, 2);
  const edns = await askUdp(txtQuery('empty.test', true));
  assert.equal(edns.flag_tc, false);
  assert.equal(edns.additionals?.[0]?.type, 'OPT');
});

test('SERVFAIL entries answer SERVFAIL and the zone is read live', async () => {
  const resolver = createResolver([server.address], { tries: 1 });
  server.zone['flip.test'] = { SERVFAIL: true };
  await assert.rejects(resolver.resolveTxt('flip.test'), { code: 'ESERVFAIL' });
  server.zone['flip.test'] = { TXT: [['now fine']] };
  assert.deepEqual(await resolver.resolveTxt('flip.test'), [['now fine']]);
});

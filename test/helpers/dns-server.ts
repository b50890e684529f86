import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, Packet } from 'dns-packet';
import { answerQuery, type Zone } from './dns-zone.js';

export type { Zone, ZoneEntry } from './dns-zone.js';

/** A running loopback DNS server; `address` is what `createResolver` takes. */
export interface DnsServer {
  address: string;
  zone: Zone;
  close(): Promise<void>;
}

/** RFC 1035 §4.2.1: UDP answers without EDNS carry at most 512 bytes. */
const CLASSIC_UDP_LIMIT = 512;
/** Largest EDNS payload we honour (the DNS flag day 2020 value). */
const EDNS_UDP_LIMIT = 1232;

/**
 * Starts an authoritative DNS server for `zone` on 127.0.0.1, UDP and TCP on one free port.
 * UDP answers too big for the client's buffer come back with TC set, so the client retries on TCP.
 */
export async function startDnsServer(zone: Zone): Promise<DnsServer> {
  for (let attempt = 0; ; attempt++) {
    const udp = await bindUdp(zone);
    const port = udp.address().port;
    try {
      const closeTcp = await listenTcp(zone, port);
      const closeUdp = () => new Promise<void>((resolve) => udp.close(() => resolve()));
      const close = async () => void (await Promise.all([closeUdp(), closeTcp()]));
      return { address: `127.0.0.1:${port}`, zone, close };
    } catch (error) {
      // Another process holds the TCP side of this port; try a fresh one.
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (attempt >= 10) throw error;
    }
  }
}

/** Binds the UDP side on a free port. */
async function bindUdp(zone: Zone): Promise<dgram.Socket> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, peer) => {
    const reply = udpReply(zone, message);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  return socket;
}

/** The UDP answer, truncated to an empty TC answer when it exceeds the client's payload size. */
function udpReply(zone: Zone, message: Buffer): Buffer | undefined {
  const query = decode(message);
  if (!query) return undefined;
  const opt = query.additionals?.find((a): a is Extract<Answer, { type: 'OPT' }> => a.type === 'OPT');
  const limit = opt ? Math.min(Math.max(opt.udpPayloadSize, CLASSIC_UDP_LIMIT), EDNS_UDP_LIMIT) : CLASSIC_UDP_LIMIT;
  // RFC 6891 §7: a server that understands EDNS puts an OPT record in its answer to an EDNS query.
  const edns: Answer[] = opt ? [ednsOpt(EDNS_UDP_LIMIT)] : [];
  const response: Packet = { ...answerQuery(zone, query), additionals: edns };
  const full = dnsPacket.encode(response);
  if (full.length <= limit) return full;
  // RFC 7766 §5 / RFC 1035 §4.2.1: set TC and let the client ask again over TCP.
  return dnsPacket.encode({ ...response, answers: [], flags: (response.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE });
}

/** An EDNS OPT pseudo-record advertising `udpPayloadSize` (RFC 6891 §6.1.2). */
export function ednsOpt(udpPayloadSize: number): Answer {
  return {
    type: 'OPT',
    name: '.',
    udpPayloadSize,
    extendedRcode: 0,
    ednsVersion: 0,
    flags: 0,
    flag_do: false,
    options: [],
  };
}

/** Listens for TCP on `port`: each message is prefixed by its 2-byte length (RFC 1035 §4.2.2). */
async function listenTcp(zone: Zone, port: number): Promise<() => Promise<void>> {
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    let pending = Buffer.alloc(0);
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const message = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + message.length);
        const query = decode(message);
        if (query) socket.write(dnsPacket.streamEncode(answerQuery(zone, query)));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return () => {
    // Resolvers keep TCP connections open; closing must not wait for them.
    connections.forEach((socket) => socket.destroy());
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/** Decodes a query, or undefined for garbage (which a server drops). */
function decode(message: Buffer): ReturnType<typeof dnsPacket.decode> | undefined {
  try {
    return dnsPacket.decode(message);
  } catch {
    return undefined;
  }
}

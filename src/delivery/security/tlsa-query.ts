import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { getServers } from 'node:dns';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket } from 'dns-packet';
import type { TlsaAnswer } from '../../core/dns-resolver.js';

export type { TlsaAnswer, TlsaRecord } from '../../core/dns-resolver.js';

/** The DNS flag day 2020 EDNS buffer size: large enough for TLSA sets, small enough not to fragment. */
const UDP_PAYLOAD = 1232;
const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * Asks `servers` (POSTHORN_DNS_SERVERS entries, or the system's resolvers when empty) for the TLSA
 * records at `name`, with the DO bit and the AD bit set in the query (RFC 6840 §5.7), so a
 * validating resolver says whether the answer is DNSSEC-authenticated. Node's resolver does not
 * expose the AD bit, hence this small client: UDP first, TCP when the answer is truncated. NXDOMAIN
 * and NODATA give no records; SERVFAIL or no answer from any server rejects with code ESERVFAIL or
 * ETIMEOUT.
 */
export async function queryTlsa(servers: string[], name: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<TlsaAnswer> {
  const list = (servers.length > 0 ? servers : getServers()).map(parseServer);
  let lastError: Error = Object.assign(new Error('no DNS server to ask'), { code: 'ETIMEOUT' });
  for (const server of list) {
    try {
      let response = await exchangeUdp(server, name, timeoutMs);
      if (response.flag_tc) response = await exchangeTcp(server, name, timeoutMs);
      // dns-packet decodes the header's RCODE as a name; its type declarations leave it out.
      const rcode = (response as DecodedPacket & { rcode?: string }).rcode;
      if (rcode === 'NXDOMAIN') return { authenticated: response.flag_ad, records: [] };
      if (rcode !== 'NOERROR')
        throw Object.assign(new Error(`TLSA lookup of ${name}: ${rcode}`), { code: 'ESERVFAIL' });
      const records = (response.answers ?? [])
        .filter((a): a is Extract<Answer, { type: 'TLSA' }> => a.type === 'TLSA')
        .map((a) => ({
          usage: a.data.usage,
          selector: a.data.selector,
          matchingType: a.data.matchingType,
          data: Buffer.from(a.data.certificate),
        }));
      return { authenticated: response.flag_ad, records };
    } catch (err) {
      lastError = err as Error;
    }
  }
  throw lastError;
}

interface Server {
  host: string;
  port: number;
}

/** `ip`, `ip:port` or `[ipv6]:port`, as POSTHORN_DNS_SERVERS and dns.getServers() write them. */
function parseServer(text: string): Server {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  if (net.isIPv6(text)) return { host: text, port: 53 };
  const [host, port] = text.split(':');
  return { host: host!, port: Number(port ?? 53) };
}

function query(name: string): { id: number; packet: Buffer } {
  const id = randomInt(0, 0x10000);
  const packet = dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
    questions: [{ type: 'TLSA', name }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: UDP_PAYLOAD,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: dnsPacket.DNSSEC_OK,
        flag_do: true,
        options: [],
      },
    ],
  });
  return { id, packet };
}

function timeoutError(server: Server, name: string): Error {
  return Object.assign(new Error(`TLSA lookup of ${name} at ${server.host}:${server.port} timed out`), {
    code: 'ETIMEOUT',
  });
}

function exchangeUdp(server: Server, name: string, timeoutMs: number): Promise<DecodedPacket> {
  const { id, packet } = query(name);
  const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
  return new Promise<DecodedPacket>((resolve, reject) => {
    const timer = setTimeout(() => reject(timeoutError(server, name)), timeoutMs);
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('message', (message) => {
      let response: DecodedPacket;
      try {
        response = dnsPacket.decode(message);
      } catch {
        return; // garbage is dropped; the timer still runs
      }
      // RFC 5452 §4: only an answer to our id and question is taken.
      if (response.id !== id || response.questions?.[0]?.name.toLowerCase() !== name.toLowerCase()) return;
      clearTimeout(timer);
      resolve(response);
    });
    socket.send(packet, server.port, server.host);
  }).finally(() => socket.close());
}

function exchangeTcp(server: Server, name: string, timeoutMs: number): Promise<DecodedPacket> {
  const { id, packet } = query(name);
  return new Promise<DecodedPacket>((resolve, reject) => {
    const socket = net.connect({ host: server.host, port: server.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(timeoutError(server, name));
    }, timeoutMs);
    let pending = Buffer.alloc(0);
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('connect', () => socket.write(Buffer.concat([u16(packet.length), packet])));
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (pending.length < 2 || pending.length < 2 + pending.readUInt16BE(0)) return;
      clearTimeout(timer);
      socket.destroy();
      try {
        const response = dnsPacket.decode(pending.subarray(2, 2 + pending.readUInt16BE(0)));
        if (response.id !== id) throw new Error(`TLSA lookup of ${name}: answer to another query`);
        resolve(response);
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

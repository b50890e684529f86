// Shared setup for the domain tests: a real loopback DNS server, a real key, and a way to
// publish the records `domainRecords` asks for, as a customer would.
import { after, before } from 'node:test';
import { createResolver } from '../../../src/domains/create-resolver.js';
import { generateDkimKey, type DkimKey } from '../../../src/domains/dkim-key.js';
import { domainRecords, type DomainRecord } from '../../../src/domains/dns-records.js';
import { verifyDomain, type DomainChecks } from '../../../src/domains/verify-domain.js';
import type { DnsResolver } from '../../../src/core/dns-resolver.js';
import { startDnsServer, type DnsServer, type Zone } from '../../helpers/dns-server.js';

export const hosts = { spfIncludeHost: 'spf.posthorn.test', bounceHost: 'bounce.posthorn.test' };
export const selector = 'ph202611';

/** The service's own SPF record, as an operator would publish it. */
const serviceZone = (): Zone => ({ [hosts.spfIncludeHost]: { TXT: [['v=spf1 ip4:192.0.2.0/24 -all']] } });

export interface DomainFixture {
  server: DnsServer;
  zone: Zone;
  resolver: DnsResolver;
  key: DkimKey;
  records(domain: string): DomainRecord[];
  publish(records: DomainRecord[]): void;
  verify(domain: string): Promise<DomainChecks>;
}

/** Starts the DNS server and makes a key before the file's tests, and stops the server after. */
export function useDomainFixture(): DomainFixture {
  const fixture = {} as DomainFixture;
  before(async () => {
    fixture.server = await startDnsServer(serviceZone());
    fixture.zone = fixture.server.zone;
    fixture.resolver = createResolver([fixture.server.address], { timeoutMs: 2000, tries: 1 });
    fixture.key = await generateDkimKey();
    fixture.records = (domain) => domainRecords(domain, selector, fixture.key.publicKeyB64, hosts);
    fixture.publish = (records) => publish(fixture.zone, records);
    fixture.verify = (domain) =>
      verifyDomain(fixture.resolver, { domain, selector, publicKeyB64: fixture.key.publicKeyB64, ...hosts });
  });
  after(() => fixture.server.close());
  return fixture;
}

/** Adds records to the zone alongside whatever is already at their names. */
function publish(zone: Zone, records: DomainRecord[]): void {
  for (const record of records) {
    const entry = (zone[record.name] ??= {});
    if (record.type === 'TXT') (entry.TXT ??= []).push([record.value]);
    else entry.CNAME = [record.value];
  }
}

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/load.js';

const H = 3_600_000;

/** Asserts loadConfig(env) throws a ConfigError whose message starts with `prefix`. */
function refuses(env: Record<string, string>, prefix: string, also?: RegExp): void {
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
      assert.ok(err.message.startsWith(prefix), `"${err.message}" should start with "${prefix}"`);
      if (also) assert.match(err.message, also);
      return true;
    },
  );
}

describe('defaults', () => {
  test('with no configuration: sandbox on, loopback, sandbox ports, localhost hosts', () => {
    const c = loadConfig({});
    assert.equal(c.sandbox, true);
    assert.equal(c.configFile, null);
    assert.equal(c.dataDir, './data');
    assert.equal(c.databaseUrl, null);
    assert.equal(c.listenHost, '127.0.0.1');
    assert.deepEqual([c.httpPort, c.smtpPort, c.smtpsPort, c.inboundPort], [8443, 2587, 2465, 2525]);
    assert.equal(c.webhookAllowPrivate, true);
    assert.equal(c.hostname, 'localhost');
    assert.equal(c.publicUrl, 'https://localhost:8443');
    assert.equal(c.spfIncludeHost, 'spf.localhost');
    assert.equal(c.bounceHost, 'bounce.localhost');
    assert.deepEqual(c.dnsServers, []);
    assert.equal(c.mxPort, 25);
    assert.equal(c.relayHost, null);
    assert.equal(c.maxQueueLifetime, 72 * H);
    assert.equal(c.domainGracePeriod, 72 * H);
    assert.equal(c.domainRecheckInterval, 24 * H);
    assert.deepEqual([c.tlsCert, c.tlsKey], [null, null]);
  });

  test('POSTHORN_HOSTNAME turns sandbox off: all interfaces, standard ports, hosts derived from it', () => {
    const c = loadConfig({ POSTHORN_HOSTNAME: 'mail.example.com' });
    assert.equal(c.sandbox, false);
    assert.equal(c.listenHost, '0.0.0.0');
    assert.deepEqual([c.httpPort, c.smtpPort, c.smtpsPort, c.inboundPort], [8443, 587, 465, 25]);
    assert.equal(c.webhookAllowPrivate, false);
    assert.equal(c.hostname, 'mail.example.com');
    assert.equal(c.spfIncludeHost, 'spf.mail.example.com');
    assert.equal(c.bounceHost, 'bounce.mail.example.com');
    assert.equal(c.publicUrl, 'https://mail.example.com:8443');
  });

  test('POSTHORN_DATABASE_URL alone also turns sandbox off (and so needs a hostname)', () => {
    refuses({ POSTHORN_DATABASE_URL: 'postgres://u@db/posthorn' }, 'POSTHORN_HOSTNAME:');
    const c = loadConfig({ POSTHORN_DATABASE_URL: 'postgres://u@db/posthorn', POSTHORN_HOSTNAME: 'mail.example.com' });
    assert.equal(c.sandbox, false);
    assert.equal(c.databaseUrl, 'postgres://u@db/posthorn');
  });

  test('derived defaults follow explicit values they derive from', () => {
    const c = loadConfig({ POSTHORN_HOSTNAME: 'MX.Example.COM.', POSTHORN_HTTP_PORT: '443' });
    assert.equal(c.hostname, 'mx.example.com');
    assert.equal(c.publicUrl, 'https://mx.example.com:443');
    assert.equal(c.spfIncludeHost, 'spf.mx.example.com');
  });

  test('explicit values win over derived defaults', () => {
    const c = loadConfig({
      POSTHORN_HOSTNAME: 'mail.example.com',
      POSTHORN_PUBLIC_URL: 'https://post.example.com/',
      POSTHORN_SPF_INCLUDE_HOST: 'spf.example.net',
      POSTHORN_BOUNCE_HOST: 'rp.example.net',
      POSTHORN_LISTEN_HOST: '10.0.0.5',
    });
    assert.equal(c.publicUrl, 'https://post.example.com');
    assert.equal(c.spfIncludeHost, 'spf.example.net');
    assert.equal(c.bounceHost, 'rp.example.net');
    assert.equal(c.listenHost, '10.0.0.5');
  });
});

describe('POSTHORN_SANDBOX', () => {
  test('0 without a hostname is refused: production needs POSTHORN_HOSTNAME', () => {
    refuses({ POSTHORN_SANDBOX: '0' }, 'POSTHORN_HOSTNAME:');
    refuses({ POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: '' }, 'POSTHORN_HOSTNAME:');
  });

  test('0 with a hostname is production', () => {
    const c = loadConfig({ POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.example.com' });
    assert.equal(c.sandbox, false);
    assert.equal(c.listenHost, '0.0.0.0');
    assert.deepEqual([c.smtpPort, c.smtpsPort, c.inboundPort], [587, 465, 25]);
    assert.equal(c.webhookAllowPrivate, false);
  });

  test('1 wins over a hostname', () => {
    const c = loadConfig({ POSTHORN_SANDBOX: '1', POSTHORN_HOSTNAME: 'mail.example.com' });
    assert.equal(c.sandbox, true);
    assert.equal(c.listenHost, '127.0.0.1');
    assert.deepEqual([c.smtpPort, c.smtpsPort, c.inboundPort], [2587, 2465, 2525]);
    assert.equal(c.webhookAllowPrivate, true);
    assert.equal(c.hostname, 'mail.example.com');
  });

  test('explicit POSTHORN_WEBHOOK_ALLOW_PRIVATE wins over the sandbox default', () => {
    assert.equal(loadConfig({ POSTHORN_WEBHOOK_ALLOW_PRIVATE: '0' }).webhookAllowPrivate, false);
    assert.equal(
      loadConfig({ POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.example.com', POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1' })
        .webhookAllowPrivate,
      true,
    );
  });

  test('a value that is not a boolean is refused naming the variable', () => {
    refuses({ POSTHORN_SANDBOX: 'maybe' }, 'POSTHORN_SANDBOX:');
  });
});

describe('durations', () => {
  test('POSTHORN_MAX_QUEUE_LIFETIME accepts every unit', () => {
    assert.equal(loadConfig({ POSTHORN_MAX_QUEUE_LIFETIME: '20s' }).maxQueueLifetime, 20_000);
    assert.equal(loadConfig({ POSTHORN_MAX_QUEUE_LIFETIME: '72h' }).maxQueueLifetime, 72 * H);
    assert.equal(loadConfig({ POSTHORN_MAX_QUEUE_LIFETIME: '1.5m' }).maxQueueLifetime, 90_000);
    assert.equal(loadConfig({ POSTHORN_MAX_QUEUE_LIFETIME: '250ms' }).maxQueueLifetime, 250);
    assert.equal(loadConfig({ POSTHORN_MAX_QUEUE_LIFETIME: '3d' }).maxQueueLifetime, 3 * 24 * H);
  });

  test('a bad duration is a ConfigError naming the variable', () => {
    for (const bad of ['5x', '5', 'h', '-1h', '0s', '1 h'])
      refuses({ POSTHORN_MAX_QUEUE_LIFETIME: bad }, 'POSTHORN_MAX_QUEUE_LIFETIME:');
  });

  test('POSTHORN_DOMAIN_GRACE_PERIOD is a duration too', () => {
    assert.equal(loadConfig({ POSTHORN_DOMAIN_GRACE_PERIOD: '10m' }).domainGracePeriod, 600_000);
    refuses({ POSTHORN_DOMAIN_GRACE_PERIOD: 'soon' }, 'POSTHORN_DOMAIN_GRACE_PERIOD:');
  });

  test('POSTHORN_RETRY_SCHEDULE is a comma-separated list of durations', () => {
    assert.deepEqual(loadConfig({ POSTHORN_RETRY_SCHEDULE: '1m,5m, 15m,1h,4h' }).retrySchedule, [
      60_000,
      300_000,
      900_000,
      H,
      4 * H,
    ]);
    assert.deepEqual(loadConfig({ POSTHORN_RETRY_SCHEDULE: '500ms' }).retrySchedule, [500]);
    assert.ok(loadConfig({}).retrySchedule.length > 0);
    refuses({ POSTHORN_RETRY_SCHEDULE: '1m,soon' }, 'POSTHORN_RETRY_SCHEDULE:');
    refuses({ POSTHORN_RETRY_SCHEDULE: ',' }, 'POSTHORN_RETRY_SCHEDULE:');
  });
});

describe('ports, URLs and addresses', () => {
  test('a bad port names POSTHORN_HTTP_PORT', () => {
    for (const bad of ['abc', '70000', '-1', '80.5']) refuses({ POSTHORN_HTTP_PORT: bad }, 'POSTHORN_HTTP_PORT:');
  });

  test('POSTHORN_SMTPS_PORT=0 turns implicit TLS off; POSTHORN_SMTP_PORT=0 picks a free port; 0 is refused for the MX port', () => {
    assert.equal(loadConfig({ POSTHORN_SMTPS_PORT: '0' }).smtpsPort, 0);
    assert.equal(loadConfig({ POSTHORN_SMTP_PORT: '0' }).smtpPort, 0);
    refuses({ POSTHORN_MX_PORT: '0' }, 'POSTHORN_MX_PORT:');
  });

  test('ports parse to numbers', () => {
    const c = loadConfig({ POSTHORN_HTTP_PORT: '9443', POSTHORN_SMTP_PORT: ' 1587 ', POSTHORN_MX_PORT: '2525' });
    assert.deepEqual([c.httpPort, c.smtpPort, c.mxPort], [9443, 1587, 2525]);
  });

  test('POSTHORN_DATABASE_URL must be postgres://', () => {
    refuses({ POSTHORN_DATABASE_URL: 'mysql://u@db/posthorn' }, 'POSTHORN_DATABASE_URL:');
    assert.equal(
      loadConfig({ POSTHORN_DATABASE_URL: 'postgresql://u@db/p', POSTHORN_HOSTNAME: 'mail.example.com' }).databaseUrl,
      'postgresql://u@db/p',
    );
  });

  test('POSTHORN_DNS_SERVERS takes IPv4 and IPv6 resolvers with optional ports', () => {
    assert.deepEqual(loadConfig({ POSTHORN_DNS_SERVERS: '127.0.0.1:5353,[::1]:53,8.8.8.8' }).dnsServers, [
      '127.0.0.1:5353',
      '[::1]:53',
      '8.8.8.8',
    ]);
    refuses({ POSTHORN_DNS_SERVERS: 'dns.google' }, 'POSTHORN_DNS_SERVERS:');
    refuses(
      { POSTHORN_DNS_SERVERS: '127.0.0.1,resolver.example.com:53' },
      'POSTHORN_DNS_SERVERS:',
      /resolver\.example\.com/,
    );
    refuses({ POSTHORN_DNS_SERVERS: '999.1.1.1' }, 'POSTHORN_DNS_SERVERS:');
    refuses({ POSTHORN_DNS_SERVERS: '127.0.0.1:99999' }, 'POSTHORN_DNS_SERVERS:');
  });

  test('POSTHORN_RELAY_HOST needs host:port', () => {
    assert.equal(loadConfig({ POSTHORN_RELAY_HOST: 'smtp.example.net:2525' }).relayHost, 'smtp.example.net:2525');
    refuses({ POSTHORN_RELAY_HOST: 'smtp.example.net' }, 'POSTHORN_RELAY_HOST:');
  });

  test('POSTHORN_PUBLIC_URL must be an absolute http(s) URL', () => {
    refuses({ POSTHORN_PUBLIC_URL: 'mail.example.com' }, 'POSTHORN_PUBLIC_URL:');
    refuses({ POSTHORN_PUBLIC_URL: 'ftp://mail.example.com' }, 'POSTHORN_PUBLIC_URL:');
  });

  test('POSTHORN_HOSTNAME must be a host name', () => {
    refuses({ POSTHORN_HOSTNAME: 'https://mail.example.com' }, 'POSTHORN_HOSTNAME:');
    refuses({ POSTHORN_HOSTNAME: 'mail.example.com:25' }, 'POSTHORN_HOSTNAME:');
  });

  test('POSTHORN_TLS_CERT without POSTHORN_TLS_KEY (and the reverse) is refused', () => {
    refuses({ POSTHORN_TLS_CERT: '/etc/posthorn/cert.pem' }, 'POSTHORN_TLS_CERT', /POSTHORN_TLS_KEY/);
    refuses({ POSTHORN_TLS_KEY: '/etc/posthorn/key.pem' }, 'POSTHORN_TLS_CERT', /POSTHORN_TLS_KEY/);
    const c = loadConfig({ POSTHORN_TLS_CERT: '/etc/posthorn/cert.pem', POSTHORN_TLS_KEY: '/etc/posthorn/key.pem' });
    assert.deepEqual([c.tlsCert, c.tlsKey], ['/etc/posthorn/cert.pem', '/etc/posthorn/key.pem']);
  });

  test('empty values count as unset', () => {
    const c = loadConfig({ POSTHORN_HTTP_PORT: '', POSTHORN_SANDBOX: '  ' });
    assert.equal(c.httpPort, 8443);
    assert.equal(c.sandbox, true);
  });
});

describe('config file', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'posthorn-config-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const write = (content: string): string => {
    const file = join(dir, `config-${n++}.json`);
    writeFileSync(file, content);
    return file;
  };

  test('is read: strings, numbers and booleans; a file turns sandbox off', () => {
    const file = write(
      JSON.stringify({
        POSTHORN_HTTP_PORT: 9443,
        POSTHORN_MAX_QUEUE_LIFETIME: '20s',
        POSTHORN_WEBHOOK_ALLOW_PRIVATE: true,
        POSTHORN_DNS_SERVERS: '127.0.0.1:5353',
        POSTHORN_HOSTNAME: 'mail.example.com',
      }),
    );
    const c = loadConfig({ POSTHORN_CONFIG_FILE: file });
    assert.equal(c.configFile, file);
    assert.equal(c.sandbox, false);
    assert.equal(c.httpPort, 9443);
    assert.equal(c.maxQueueLifetime, 20_000);
    assert.equal(c.webhookAllowPrivate, true);
    assert.deepEqual(c.dnsServers, ['127.0.0.1:5353']);
  });

  test('a hostname in the file derives the other hosts', () => {
    const c = loadConfig({ POSTHORN_CONFIG_FILE: write('{"POSTHORN_HOSTNAME": "mail.example.org"}') });
    assert.equal(c.bounceHost, 'bounce.mail.example.org');
    assert.equal(c.publicUrl, 'https://mail.example.org:8443');
  });

  test('the environment wins over the file', () => {
    const file = write(
      JSON.stringify({ POSTHORN_HTTP_PORT: 9443, POSTHORN_HOSTNAME: 'file.example.com', POSTHORN_SANDBOX: false }),
    );
    const c = loadConfig({ POSTHORN_CONFIG_FILE: file, POSTHORN_HTTP_PORT: '10443', POSTHORN_SANDBOX: '1' });
    assert.equal(c.httpPort, 10443);
    assert.equal(c.sandbox, true);
    assert.equal(c.hostname, 'file.example.com');
    assert.equal(c.publicUrl, 'https://file.example.com:10443');
  });

  test('an unknown key is refused naming the key', () => {
    refuses(
      { POSTHORN_CONFIG_FILE: write('{"POSTHORN_HTTP_PORTS": 1}') },
      'POSTHORN_CONFIG_FILE:',
      /POSTHORN_HTTP_PORTS/,
    );
  });

  test('a bad value in the file is refused naming the variable', () => {
    refuses({ POSTHORN_CONFIG_FILE: write('{"POSTHORN_HTTP_PORT": "abc"}') }, 'POSTHORN_HTTP_PORT');
    refuses({ POSTHORN_CONFIG_FILE: write('{"POSTHORN_HTTP_PORT": null}') }, 'POSTHORN_HTTP_PORT');
    refuses({ POSTHORN_CONFIG_FILE: write('{"POSTHORN_DNS_SERVERS": ["8.8.8.8"]}') }, 'POSTHORN_DNS_SERVERS');
  });

  test('invalid JSON, a non-object and a missing file are refused naming POSTHORN_CONFIG_FILE', () => {
    refuses({ POSTHORN_CONFIG_FILE: write('{"POSTHORN_HTTP_PORT": 1,') }, 'POSTHORN_CONFIG_FILE:');
    refuses({ POSTHORN_CONFIG_FILE: write('["POSTHORN_HTTP_PORT"]') }, 'POSTHORN_CONFIG_FILE:');
    refuses({ POSTHORN_CONFIG_FILE: write('null') }, 'POSTHORN_CONFIG_FILE:');
    refuses({ POSTHORN_CONFIG_FILE: join(dir, 'does-not-exist.json') }, 'POSTHORN_CONFIG_FILE:');
  });
});

describe('the result', () => {
  test('is frozen, lists included', () => {
    const c = loadConfig({ POSTHORN_DNS_SERVERS: '127.0.0.1' });
    assert.ok(Object.isFrozen(c));
    assert.ok(Object.isFrozen(c.dnsServers));
    assert.ok(Object.isFrozen(c.retrySchedule));
    // ES modules are strict: assigning to a frozen object throws.
    assert.throws(() => {
      (c as { httpPort: number }).httpPort = 1;
    }, TypeError);
    assert.throws(() => {
      c.retrySchedule.push(1);
    }, TypeError);
    assert.throws(() => {
      c.dnsServers[0] = '8.8.8.8';
    }, TypeError);
    assert.equal(c.httpPort, 8443);
  });

  test('two loads of the same environment are equal and independent', () => {
    const a = loadConfig({ POSTHORN_HOSTNAME: 'mail.example.com' });
    const b = loadConfig({ POSTHORN_HOSTNAME: 'mail.example.com' });
    assert.deepEqual(a, b);
    assert.notEqual(a.retrySchedule, b.retrySchedule);
  });
});

describe('fixes found in review', () => {
  test('service DNS names may have underscore labels (_spf.example.net)', () => {
    const c = loadConfig({ POSTHORN_SPF_INCLUDE_HOST: '_spf.example.net', POSTHORN_BOUNCE_HOST: 'rp.example.net' });
    assert.equal(c.spfIncludeHost, '_spf.example.net');
    refuses({ POSTHORN_HOSTNAME: '_mail.example.net' }, 'POSTHORN_HOSTNAME:');
  });

  test('a duration that rounds to zero is refused', () => {
    refuses({ POSTHORN_RETRY_SCHEDULE: '1m,0.2ms' }, 'POSTHORN_RETRY_SCHEDULE:');
    refuses({ POSTHORN_MAX_QUEUE_LIFETIME: '0.0001s' }, 'POSTHORN_MAX_QUEUE_LIFETIME:');
  });

  test('an empty environment variable does not hide the config file value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'posthorn-cfg-'));
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ POSTHORN_HOSTNAME: 'mail.example.com' }));
    try {
      assert.equal(loadConfig({ POSTHORN_CONFIG_FILE: file, POSTHORN_HOSTNAME: '' }).hostname, 'mail.example.com');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('durations used as timers', () => {
  test('POSTHORN_WEBHOOK_TIMEOUT over 2^31-1 ms is refused (a longer setTimeout fires at once); the limit itself is taken', () => {
    refuses(
      { POSTHORN_WEBHOOK_TIMEOUT: '25d' },
      'POSTHORN_WEBHOOK_TIMEOUT',
      /at most 2147483647ms \(about 24\.8 days; a longer timer fires at once\), got "25d"/,
    );
    refuses({ POSTHORN_WEBHOOK_TIMEOUT: '2147483648ms' }, 'POSTHORN_WEBHOOK_TIMEOUT', /at most 2147483647ms/);
    assert.equal(loadConfig({ POSTHORN_WEBHOOK_TIMEOUT: '2147483647ms' }).webhookTimeout, 2 ** 31 - 1);
    assert.equal(loadConfig({ POSTHORN_WEBHOOK_TIMEOUT: '24d' }).webhookTimeout, 24 * 86_400_000);
  });

  test('any duration beyond a safe integer of milliseconds is refused instead of becoming Infinity or imprecise', () => {
    refuses(
      { POSTHORN_BODY_RETENTION: `${'9'.repeat(400)}d` },
      'POSTHORN_BODY_RETENTION',
      /at most 9007199254740991ms/,
    );
    refuses(
      { POSTHORN_RETRY_SCHEDULE: '1m,999999999999999d' },
      'POSTHORN_RETRY_SCHEDULE',
      /at most 9007199254740991ms/,
    );
    // Not a timer: a retention of 10 years is fine.
    assert.equal(loadConfig({ POSTHORN_BODY_RETENTION: '3650d' }).bodyRetention, 3650 * 86_400_000);
  });
});

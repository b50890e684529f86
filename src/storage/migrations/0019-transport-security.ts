import type { Kysely } from 'kysely';

/**
 * Outbound transport security (docs/delivery.md). `mta_sts_policies` caches
 * recipient domains' MTA-STS policies (RFC 8461 §5.1): kept in the database so a restart does not
 * forget them and every node of a PostgreSQL deployment enforces the same policy. `tls_report_counts`
 * holds the day's TLS outcomes per recipient domain for the aggregate reports of RFC 8460, and
 * `tls_reports` which of those days were reported (one row per domain and day, inserted by the node
 * that sends the report, so two nodes never both send it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mta_sts_policies')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('policy_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('mx', 'text', (c) => c.notNull())
    .addColumn('max_age', 'bigint', (c) => c.notNull())
    .addColumn('policy_text', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tls_report_counts')
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('policy_type', 'text', (c) => c.notNull())
    .addColumn('policy_string', 'text', (c) => c.notNull())
    .addColumn('policy_mx', 'text', (c) => c.notNull())
    .addColumn('mx_host', 'text', (c) => c.notNull())
    .addColumn('result_type', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('tls_report_counts_pk', ['domain', 'day', 'key'])
    .execute();
  await db.schema.createIndex('tls_report_counts_day').on('tls_report_counts').column('day').execute();

  await db.schema
    .createTable('tls_reports')
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('report_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('tls_reports_pk', ['domain', 'day'])
    .execute();
}

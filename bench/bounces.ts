// npm run bench:bounces — the bounce and complaint parser (src/feedback/parse-report.ts, docs/bounces.md).
//   - When a scored corpus is found (BENCH_CORPUS, by default shared/bounce-corpus beside the
//     checkout, with its score.mjs), runs that scorer (it calls `posthorn bounce parse FILE --json`
//     once per message) and prints its figures.
//   - Parser throughput: every message of the corpus (or the project's composed samples when there is
//     no corpus) parsed in this one process for BENCH_SECONDS (default 5), as reports/s.
// Prints `name: value unit` lines. BENCH_SCORER=0 skips the scorer and scores in-process instead
// (same rules as the scorer, much faster on a loaded machine); BENCH_MISSES=N prints N misses.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseReport, type ParsedReport } from '../src/feedback/parse-report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.BENCH_CORPUS ?? path.join(root, '..', 'shared', 'bounce-corpus'));
const hasCorpus = existsSync(path.join(corpus, 'score.mjs'));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

interface Expected {
  file: string;
  recipient: string;
  reason: string;
  softbounce: number;
  feedbacktype?: string;
  deliverystatus?: string;
}

/** The scorer's rule (what a reference verdict accepts), for the in-process scoring. */
function agrees(o: Expected, cls: string): boolean {
  if (o.reason === 'feedback')
    return o.feedbacktype === 'auth-failure' ? !['hard', 'complaint'].includes(cls) : cls === 'complaint';
  if (o.softbounce === 0) return cls === 'hard';
  if (o.reason === 'filtered' || o.reason === 'suspend') return ['hard', 'soft', 'block'].includes(cls);
  return cls === 'soft' || cls === 'block';
}

async function scoreInProcess(): Promise<void> {
  const skip = new Set(['unparsed', 'delivered', 'vacation']);
  const rows = readFileSync(path.join(corpus, 'expected.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Expected)
    .filter((o) => !skip.has(o.reason) && o.recipient);
  const outputs = new Map<string, ParsedReport | null>();
  let crashes = 0;
  for (const file of new Set(rows.map((o) => o.file))) {
    try {
      outputs.set(file, await parseReport(readFileSync(path.join(corpus, 'emails', file))));
    } catch (err) {
      crashes++;
      console.error(file, err);
      outputs.set(file, null);
    }
  }
  let agree = 0;
  let found = 0;
  const misses: string[] = [];
  for (const o of rows) {
    const out = outputs.get(o.file);
    const recipients = out?.recipients ?? [];
    const mine = recipients.find((r) => r.address.toLowerCase() === o.recipient.toLowerCase());
    if (mine) found++;
    const r = mine ?? recipients[0];
    const cls = r ? (out?.kind === 'complaint' ? 'complaint' : r.class) : 'none';
    if (agrees(o, cls)) agree++;
    else
      misses.push(
        `${o.file} ${o.recipient}: reference ${o.reason} (softbounce ${o.softbounce}, ${o.deliverystatus || '-'}), posthorn ${out?.kind ?? '?'}/${cls}${r ? ` ${r.reason} [${(r.diagnostic ?? '').slice(0, 120)}]` : ''}${mine ? '' : ` (got ${recipients.map((x) => x.address).join(',')})`}`,
      );
  }
  for (const m of misses.slice(0, Number(process.env.BENCH_MISSES ?? 0))) console.log('miss:', m);
  console.log(`bounce_parser_crashes: ${crashes} files`);
  console.log(`bounce_recipients_found: ${((100 * found) / rows.length).toFixed(1)} %`);
  console.log(`bounce_agreement: ${((100 * agree) / rows.length).toFixed(1)} %`);
}

async function runScorer(): Promise<void> {
  const run = promisify(execFile);
  const out = await run(process.execPath, [path.join(corpus, 'score.mjs')], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  for (const line of out.stdout.split('\n')) {
    const files = /^files: (\d+), recipients scored: (\d+), parser crashes: (\d+)/.exec(line);
    if (files) {
      console.log(`bounce_corpus_files: ${files[1]} files`);
      console.log(`bounce_recipients_scored: ${files[2]} recipients`);
      console.log(`bounce_parser_crashes: ${files[3]} files`);
    }
    if (/^bounce_(recipients_found|agreement): /.test(line)) console.log(line);
  }
}

function samples(): Buffer[] {
  if (hasCorpus) {
    const dir = path.join(corpus, 'emails');
    return readdirSync(dir).map((f) => readFileSync(path.join(dir, f)));
  }
  const dir = path.join(root, 'test', 'fixtures', 'bounces');
  return existsSync(dir) ? readdirSync(dir).map((f) => readFileSync(path.join(dir, f))) : [];
}

async function throughput(): Promise<void> {
  const messages = samples();
  if (messages.length === 0) return;
  let count = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  while (Date.now() < deadline) {
    for (const m of messages) {
      await parseReport(m);
      count++;
    }
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`bounce_parse_throughput: ${Math.round(count / elapsed)} reports/s`);
  console.log(`bounce_parse_messages: ${messages.length} distinct`);
}

if (hasCorpus) {
  if (process.env.BENCH_SCORER === '0') await scoreInProcess();
  else await runScorer();
}
await throughput();

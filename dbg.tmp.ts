import { readFileSync } from 'node:fs';
import { parseReport } from '/work/wt-bounces/src/feedback/parse-report.js';
for (const f of process.argv.slice(2)) console.log(f, JSON.stringify(await parseReport(readFileSync('/work/shared/bounce-corpus/emails/' + f + '.eml'))).slice(0, 600));

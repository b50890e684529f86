import { readFileSync } from 'node:fs';
import { parseMime, bodyText } from './src/mime/parse-mime.js';
for (const f of process.argv.slice(2)) {
  const root = parseMime(readFileSync('/work/shared/bounce-corpus/emails/' + f + '.eml'));
  const walk = (p: any, d = 0): void => {
    console.log(' '.repeat(d) + p.type);
    if (p.type.startsWith('text/') && p.parts.length === 0 && d < 3) console.log(bodyText(p).slice(0, 1200));
    if (p.type !== 'message/rfc822') p.parts.forEach((c: any) => walk(c, d + 1));
  };
  console.log(
    '=====',
    f,
    root.headers.find((h: any) => h.name === 'subject')?.value,
    '|',
    root.headers.find((h: any) => h.name === 'from')?.value,
  );
  walk(root);
}

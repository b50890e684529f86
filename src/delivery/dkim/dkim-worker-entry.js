// Entry of the DKIM worker threads (signer-pool.ts). The sources are TypeScript run through tsx,
// and on Node 20 a worker thread does not inherit tsx's loader: neither `--import tsx` in its
// execArgv (tsx only hooks the main thread there) nor `register()` called at run time by
// bin/posthorn.js reaches it. So this plain-JS entry asks how './dkim-worker.js' resolves: under
// an active tsx it maps to the .ts file; otherwise it registers tsx in this thread first.
// In a release (dist/, compiled by `npm run build`) the sibling is plain JavaScript and tsx is not
// installed, so tsx is registered only when neither the .ts source nor a compiled file is there.
import { existsSync } from 'node:fs';

const target = import.meta.resolve('./dkim-worker.js');
if (!target.endsWith('.ts') && !existsSync(new URL(target))) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./dkim-worker.js');

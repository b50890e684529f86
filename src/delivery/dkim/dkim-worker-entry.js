// Entry of the DKIM worker threads (signer-pool.ts). The sources are TypeScript run through tsx,
// and on Node 20 a worker thread does not inherit tsx's loader: neither `--import tsx` in its
// execArgv (tsx only hooks the main thread there) nor `register()` called at run time by
// bin/posthorn.js reaches it. So this plain-JS entry asks how './dkim-worker.js' resolves: under
// an active tsx it maps to the .ts file; otherwise it registers tsx in this thread first.
if (!import.meta.resolve('./dkim-worker.js').endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./dkim-worker.js');

// Entry of the offload worker threads (offload-pool.ts), for the same reason as the DKIM workers'
// (src/delivery/dkim/dkim-worker-entry.js): on Node 20 a worker thread does not inherit tsx's
// loader, so when './offload-worker.js' does not already resolve to the .ts source, tsx is
// registered in this thread first. piscina calls the default export.
if (!import.meta.resolve('./offload-worker.js').endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { default: offloadTask } = await import('./offload-worker.js');
export default offloadTask;

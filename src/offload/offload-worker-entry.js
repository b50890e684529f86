// Entry of the offload worker threads (offload-pool.ts), for the same reason as the DKIM workers'
// (src/delivery/dkim/dkim-worker-entry.js): on Node 20 a worker thread does not inherit tsx's
// loader, so when './offload-worker.js' does not already resolve to the .ts source, tsx is
// registered in this thread first. piscina calls the default export.
// In a release (dist/, compiled by `npm run build`) the sibling is plain JavaScript and tsx is not
// installed, so tsx is registered only when neither the .ts source nor a compiled file is there.
import { existsSync } from 'node:fs';

const target = import.meta.resolve('./offload-worker.js');
if (!target.endsWith('.ts') && !existsSync(new URL(target))) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { default: offloadTask } = await import('./offload-worker.js');
export default offloadTask;

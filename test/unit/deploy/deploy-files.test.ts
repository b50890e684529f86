// The Node options the server is deployed with are the same in the Docker image and the systemd
// unit, and the benches measure the server with them (bench/from-dist.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deployedGlibcTunables, deployedMmapThreshold, deployedNodeOptions } from '../../../bench/from-dist.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

test('the Dockerfile and the systemd unit give the server the same NODE_OPTIONS', () => {
  const unit = deployedNodeOptions();
  assert.match(unit, /^--max-old-space-size=\d+$/);
  const image = /^\s*NODE_OPTIONS=(\S+)/m.exec(read('Dockerfile'))?.[1];
  assert.equal(image, unit);
});

test('the Dockerfile and the systemd unit give the server the same glibc mmap threshold', () => {
  const unit = deployedMmapThreshold();
  assert.equal(unit, String(1024 * 1024));
  const image = /^\s*MALLOC_MMAP_THRESHOLD_=(\d+)/m.exec(read('Dockerfile'))?.[1];
  assert.equal(image, unit);
});

test('the Dockerfile and the systemd unit give the server the same glibc tunables: huge pages for mapped buffers', () => {
  const unit = deployedGlibcTunables();
  assert.equal(unit, 'glibc.malloc.hugetlb=1');
  const image = /^\s*GLIBC_TUNABLES=(\S+)/m.exec(read('Dockerfile'))?.[1];
  assert.equal(image, unit);
});

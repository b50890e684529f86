#!/usr/bin/env bash
# Lints the deployment files without a Docker daemon or systemd running them (docs/deploy.md):
# the Dockerfile with dockerfile-utils, compose.yaml with dclint (which validates it against the
# Compose specification's schema), and the systemd unit with systemd-analyze, which must report
# no unknown or invalid setting. Any finding fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$(npx --no-install dockerfile-utils lint Dockerfile)
if [ -n "$out" ]; then echo "$out"; echo "Dockerfile: lint findings above" >&2; exit 1; fi
echo "Dockerfile: clean"

npx --no-install dclint --max-warnings 0 compose.yaml
echo "compose.yaml: clean"

if command -v systemd-analyze >/dev/null; then
  # verify checks that ExecStart's program exists: point it at a stand-in, in a copy.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  printf '#!/bin/sh\n' >"$tmp/posthorn" && chmod +x "$tmp/posthorn"
  sed "s#/opt/posthorn/bin/posthorn#$tmp/posthorn#" deploy/posthorn.service >"$tmp/posthorn.service"
  report=$(systemd-analyze verify "$tmp/posthorn.service" 2>&1 || true)
  if [ -n "$report" ]; then echo "$report"; echo "deploy/posthorn.service: findings above" >&2; exit 1; fi
  echo "deploy/posthorn.service: clean ($(systemd-analyze security --offline=yes "$tmp/posthorn.service" 2>/dev/null | grep -o 'exposure level.*' || echo 'exposure not rated'))"
else
  echo "systemd-analyze is missing: deploy/posthorn.service not checked" >&2
  exit 1
fi

#!/usr/bin/env bash
# The SMTP relay against swaks, a client Posthorn did not write. Starts `posthorn serve`
# in sandbox mode on a fresh data dir, sends one message over STARTTLS and one over implicit TLS
# (RFC 8314) with the sandbox's SMTP login, and checks that a wrong password is refused.
# Called by .ci/run; runs on its own too (installs swaks with apt when run as root).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "ci-swaks: $*" >&2; exit 1; }

if ! command -v swaks >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || fail "swaks is not installed and this is not root: apt-get install swaks"
  echo "ci-swaks: installing swaks"
  if ! { apt-get install -y -qq swaks >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq swaks >/dev/null 2>&1; }; }; then
    fail "apt-get could not install swaks"
  fi
  command -v swaks >/dev/null 2>&1 || fail "swaks is still not on PATH after apt-get install"
fi

data_dir="$(mktemp -d "${TMPDIR:-/tmp}/posthorn-swaks.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$data_dir"
}
trap cleanup EXIT

# POSTHORN_SMTPS_PORT=0 would switch the implicit-TLS listener off, so it gets a free port of its own.
smtps_port="$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")"

env -u POSTHORN_DATABASE_URL -u POSTHORN_CONFIG \
  POSTHORN_SANDBOX=1 POSTHORN_DATA_DIR="$data_dir" POSTHORN_LISTEN_HOST=127.0.0.1 \
  POSTHORN_HTTP_PORT=0 POSTHORN_SMTP_PORT=0 POSTHORN_SMTPS_PORT="$smtps_port" \
  node bin/posthorn.js serve --json >"$data_dir/welcome.json" 2>"$data_dir/server.log" &
server_pid=$!

# The welcome is one pretty-printed JSON document on stdout, written once every listener is bound.
read_welcome() {
  node -e '
    const w = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).sandbox;
    console.log([w.smtp.ports.submission, w.smtp.ports.smtps, w.smtp.username, w.smtp.password, w.from].join(" "));
  ' "$data_dir/welcome.json" 2>/dev/null
}
welcome=""
for _ in $(seq 1 300); do
  kill -0 "$server_pid" 2>/dev/null || { cat "$data_dir/server.log" >&2; fail "posthorn serve exited before it was ready"; }
  if welcome="$(read_welcome)"; then break; fi
  welcome=""
  sleep 0.1
done
[ -n "$welcome" ] || { cat "$data_dir/server.log" >&2; fail "no sandbox welcome on stdout within 30 s"; }
read -r submission_port smtps_bound user password from <<<"$welcome"
[ "$smtps_bound" = "$smtps_port" ] || fail "the implicit-TLS listener is on $smtps_bound, not on $smtps_port"

send() {
  swaks --server "127.0.0.1:$1" "$2" --auth PLAIN --auth-user="$user" --auth-password="$3" \
    --from "$from" --to you@example.com --header "Subject: swaks $2" --body "Sent by swaks with $2." \
    --timeout 20 >"$data_dir/swaks.log" 2>&1
}

send "$submission_port" --tls "$password" || { cat "$data_dir/swaks.log" >&2; fail "STARTTLS on port $submission_port: swaks failed"; }
grep -Eq '^<[-~] +250 2\.0\.0 Queued as msg_' "$data_dir/swaks.log" || { cat "$data_dir/swaks.log" >&2; fail "STARTTLS: no 250 Queued reply"; }
send "$smtps_port" --tlsc "$password" || { cat "$data_dir/swaks.log" >&2; fail "implicit TLS on port $smtps_port: swaks failed"; }
grep -Eq '^<[-~] +250 2\.0\.0 Queued as msg_' "$data_dir/swaks.log" || { cat "$data_dir/swaks.log" >&2; fail "implicit TLS: no 250 Queued reply"; }

if send "$submission_port" --tls "wrong-$password"; then
  cat "$data_dir/swaks.log" >&2
  fail "a wrong password was accepted"
fi
grep -q '535 5\.7\.8' "$data_dir/swaks.log" || { cat "$data_dir/swaks.log" >&2; fail "a wrong password was refused, but not with 535 5.7.8"; }

kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
[ "$status" = 0 ] || { cat "$data_dir/server.log" >&2; fail "posthorn serve exited with $status on SIGTERM"; }
echo "swaks: ok"

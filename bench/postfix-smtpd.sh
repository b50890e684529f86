#!/usr/bin/env bash
# Baseline for `npm run bench:smtp`: messages per second Postfix's smtpd accepts on this machine
# under the same load shape (20 parallel sessions, ~5 KB messages, one recipient each), driven by
# Postfix's own load generator smtp-source. Prints `postfix_smtpd: N msgs/s`. Run as root:
#
#   sudo bash bench/postfix-smtpd.sh        (BENCH_MESSAGES=20000 by default)
#
# Not the same work as Posthorn's figure, and the differences all favour Postfix:
# - Plain SMTP, no STARTTLS, no AUTH: smtp-source has no TLS option and no AUTH; Posthorn's
#   sessions negotiate STARTTLS and AUTH PLAIN once each and carry every message over TLS.
# - Acceptance only on both sides: smtpd answers 250 once cleanup has written and fsynced the queue
#   file; the queue manager then hands it to the `discard` transport. Posthorn answers 250 once the
#   message, its recipient, events and delivery job are committed (SQLite WAL synchronous=FULL).
# - smtp-source is a C program; bench/smtp.ts's load generator is Node (nodemailer) sharing the
#   same two cores with the server.
#
# Safety: this runs a throwaway Postfix instance (its own config, queue and data directories under
# a temporary directory) whose only listener is 127.0.0.1:2526, whose every transport is `discard`
# and whose master.cf has no smtp/lmtp client at all, so nothing can leave the machine. It is
# stopped and removed at the end. If this script installs the postfix package, service start is
# suppressed during the install and the default instance (port 25) is stopped if it runs anyway.
set -euo pipefail

PORT=${BENCH_POSTFIX_PORT:-2526}
MESSAGES=${BENCH_MESSAGES:-20000}
SESSIONS=20
SIZE=5120

if [ "$(id -u)" -ne 0 ]; then echo "run as root (installs and starts a Postfix instance)" >&2; exit 1; fi

installed_here=0
if ! command -v smtp-source >/dev/null || ! command -v postfix >/dev/null; then
  installed_here=1
  echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
  echo "postfix postfix/mailname string bench.localhost" | debconf-set-selections
  # Keep the package's postinst from starting the default instance (Docker images already ship
  # such a policy; otherwise one is put in place for the install only).
  own_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && own_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postfix >/dev/null \
    || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postfix >/dev/null; }
  if [ "$own_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
fi
# No mail server on port 25 from this script: stop the default instance if the install started it.
if [ "$installed_here" = 1 ]; then postfix status >/dev/null 2>&1 && postfix stop >/dev/null 2>&1 || true; fi

ROOT=$(mktemp -d /tmp/postfix-bench.XXXXXX)
CONF=$ROOT/etc
mkdir -p "$CONF" "$ROOT/queue" "$ROOT/data"
chmod 755 "$ROOT"
chown postfix "$ROOT/data"   # data_directory belongs to mail_owner (master.lock lives there)
cleanup() {
  postfix -c "$CONF" stop >/dev/null 2>&1 || postfix -c "$CONF" abort >/dev/null 2>&1 || true
  sleep 1
  [ -n "${BENCH_KEEP:-}" ] || rm -rf "$ROOT"
}
trap cleanup EXIT

cat > "$CONF/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $ROOT/queue
data_directory = $ROOT/data
mail_owner = postfix
setgid_group = postdrop
myhostname = bench.localhost
mydomain = bench.test
myorigin = bench.test
mydestination = bench.test, bench.localhost, localhost
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
# Every transport discards: accepted mail is queued (and fsynced) by cleanup, then dropped.
local_transport = discard
virtual_transport = discard
relay_transport = discard
default_transport = discard
local_recipient_maps =
alias_maps =
alias_database =
relayhost =
biff = no
smtpd_tls_security_level = none
smtp_tls_security_level = none
maillog_file_prefixes = $ROOT
maillog_file = $ROOT/maillog
default_process_limit = 100
EOF

# master.cf: only what intake and the discard transport need, nothing that could send mail out.
cat > "$CONF/master.cf" <<EOF
127.0.0.1:$PORT inet n - n - - smtpd
cleanup   unix n - n - 0 cleanup
qmgr      unix n - n 300 1 qmgr
rewrite   unix - - n - - trivial-rewrite
bounce    unix - - n - 0 bounce
defer     unix - - n - 0 bounce
trace     unix - - n - 0 bounce
verify    unix - - n - 1 verify
flush     unix n - n 1000? 0 flush
proxymap  unix - - n - - proxymap
showq     unix n - n - - showq
error     unix - - n - - error
retry     unix - - n - - error
discard   unix - - n - - discard
anvil     unix - - n - 1 anvil
scache    unix - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
EOF

postfix -c "$CONF" check >/dev/null 2>&1 || true   # creates the queue directories with their owners
postfix -c "$CONF" start >/dev/null 2>&1 || { echo "postfix start failed:" >&2; cat "$ROOT/maillog" >&2 || true; exit 1; }
for _ in $(seq 1 50); do (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done

# Warm-up (processes forked, page cache), then the measured run.
smtp-source -s $SESSIONS -l $SIZE -m 1000 -f a@bench.test -t b@bench.test 127.0.0.1:$PORT
start=$(date +%s.%N)
smtp-source -s $SESSIONS -l $SIZE -m "$MESSAGES" -f a@bench.test -t b@bench.test 127.0.0.1:$PORT
end=$(date +%s.%N)

# Every message should have reached the discard transport (the log lags the 250s a little).
total=$((MESSAGES + 1000))
for _ in $(seq 1 100); do
  discarded=$(grep -c 'status=sent' "$ROOT/maillog" 2>/dev/null || true)
  [ "${discarded:-0}" -ge "$total" ] && break
  sleep 0.2
done
echo "($MESSAGES messages of $SIZE bytes in $(awk -v s="$start" -v e="$end" 'BEGIN{printf "%.2f", e-s}') s; $SESSIONS sessions; plain SMTP, no TLS/AUTH; ${discarded:-0} of $total discarded after queueing)" >&2
awk -v n="$MESSAGES" -v s="$start" -v e="$end" 'BEGIN{printf "postfix_smtpd: %d msgs/s\n", n/(e-s)}'

#!/usr/bin/env bash
# Makes sure PostgreSQL, Redis and NATS (JetStream) answer on their usual local
# ports, starting the machine's own installs when they do not. Used by .ci/run
# and by `npm start`; with docker-compose the fleet brings its own.
set -uo pipefail

answers() { (echo >"/dev/tcp/127.0.0.1/$1") >/dev/null 2>&1; }

wait_for() {
  local name=$1 port=$2
  for _ in $(seq 1 50); do
    answers "$port" && return 0
    sleep 0.2
  done
  echo "ensure-services: $name did not come up on port $port" >&2
  return 1
}

if ! answers 5432; then
  echo "ensure-services: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  wait_for PostgreSQL 5432 || exit 1
fi
if ! answers 6379; then
  echo "ensure-services: starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  wait_for Redis 6379 || exit 1
fi
if ! answers 4222; then
  echo "ensure-services: starting NATS with JetStream"
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log || true
  wait_for NATS 4222 || exit 1
fi
echo "ensure-services: postgres, redis and nats answer"

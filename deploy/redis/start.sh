#!/bin/sh
# Starts Redis with one ACL user per role, written at every start from .env so that no credential is stored in the
# repository, in an image or on a command line (`ps` shows command lines to every local user):
#   pipeline   the Flink job's current-state sink: reads and writes vehicle:* and fleet:*, runs its newer-wins script
#   dashboard  reads vehicle:* and fleet:*
#   monitor    fleet-exporter, fleet status, fleet verify and the health check: reads vehicle:* and fleet:*, INFO
#   admin      an operator: everything (maintenance, SHUTDOWN)
# The default user is off: a client without credentials gets NOAUTH. Every non-admin role is refused FLUSHALL,
# FLUSHDB, CONFIG, KEYS, DEBUG, SHUTDOWN and the rest of Redis' @dangerous commands. The rules are those of
# redis-client's RedisRole, which the embedded stack grants too; RedisStartScriptTest holds them equal.
# The ACL file holds the passwords' SHA-256, not the passwords, and is owner-only.
# maxmemory (REDIS_MAXMEMORY, default 256mb) with maxmemory-policy noeviction: a full Redis refuses writes with an OOM
# error (alert FleetRedisFull) instead of evicting a vehicle's current state silently.
# Rotation: change the passwords in .env, then `docker compose up -d redis flink-jobmanager dashboard fleet-exporter`.
# With --render-only the script writes the ACL file and exits (the test does that).
set -eu

: "${REDIS_PIPELINE_PASSWORD:?set REDIS_PIPELINE_PASSWORD in .env}"
: "${REDIS_DASHBOARD_PASSWORD:?set REDIS_DASHBOARD_PASSWORD in .env}"
: "${REDIS_MONITOR_PASSWORD:?set REDIS_MONITOR_PASSWORD in .env}"
: "${REDIS_ADMIN_PASSWORD:?set REDIS_ADMIN_PASSWORD in .env}"

# The container's path; overridable so that the script can be tried outside a container.
acl="${REDIS_ACL_FILE:-/run/fleet-redis/users.acl}"

fleet_keys='resetchannels ~vehicle:* ~fleet:*'

hash() {
  printf '%s' "$1" | sha256sum | cut -d ' ' -f 1
}

umask 077
mkdir -p "$(dirname "$acl")"
{
  echo "user default off resetpass resetkeys resetchannels -@all"
  echo "user pipeline on #$(hash "$REDIS_PIPELINE_PASSWORD") $fleet_keys -@all +@connection +@read +@write +eval +evalsha +script|load +script|exists +time -@dangerous"
  echo "user dashboard on #$(hash "$REDIS_DASHBOARD_PASSWORD") $fleet_keys -@all +@connection +@read -@dangerous"
  echo "user monitor on #$(hash "$REDIS_MONITOR_PASSWORD") $fleet_keys -@all +@connection +@read -@dangerous +info"
  echo "user admin on #$(hash "$REDIS_ADMIN_PASSWORD") ~* &* +@all"
} > "$acl.new"
mv "$acl.new" "$acl"

if [ "${1:-}" = "--render-only" ]; then
  exit 0
fi

# The image's entrypoint runs redis-server as the redis user, which must read the file.
if [ "$(id -u)" = "0" ]; then
  chown -R redis:redis "$(dirname "$acl")"
fi
exec docker-entrypoint.sh redis-server \
  --appendonly yes \
  --maxmemory "${REDIS_MAXMEMORY:-256mb}" \
  --maxmemory-policy noeviction \
  --aclfile "$acl"

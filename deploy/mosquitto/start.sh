#!/bin/sh
# Starts the MQTT broker with its password and ACL files written at every start, so that no credential is stored in the
# repository or in an image:
#   - the fleet's devices and gateways from /fleet/auth/password_file and acl_file, which `fleet devices
#     export-mosquitto deploy/mosquitto/auth` renders from the registry (optional: without them only the services below
#     connect);
#   - the services' users from .env: the ingest worker (reads fleet/+/position), the metrics exporter (reads $SYS/#)
#     and the simulator (a gateway for VH-0001 ... VH-<SIMULATOR_VEHICLES>).
# Passwords never appear on a command line: the plain lines are hashed in place by mosquitto_passwd -U (PBKDF2-SHA512).
# Reload after `fleet devices export-mosquitto`: docker compose kill -s HUP mosquitto. This script is the container's
# first process: it writes the files again and passes the signal on, and Mosquitto reads them without a restart
# (revoked users can no longer connect; their open connections stay until they end). Outside a container, start it
# with `env --default-signal=HUP`: a shell that inherits SIGHUP ignored (under nohup, say) cannot trap it.
set -eu

: "${MQTT_INGEST_USERNAME:?set MQTT_INGEST_USERNAME in .env}"
: "${MQTT_INGEST_PASSWORD:?set MQTT_INGEST_PASSWORD in .env}"
: "${MQTT_MONITOR_USERNAME:?set MQTT_MONITOR_USERNAME in .env}"
: "${MQTT_MONITOR_PASSWORD:?set MQTT_MONITOR_PASSWORD in .env}"
: "${MQTT_SIMULATOR_USERNAME:?set MQTT_SIMULATOR_USERNAME in .env}"
: "${MQTT_SIMULATOR_PASSWORD:?set MQTT_SIMULATOR_PASSWORD in .env}"
: "${SIMULATOR_VEHICLES:?set SIMULATOR_VEHICLES in .env}"

# The container's paths; overridable so that the script can be tried outside a container.
registry="${MOSQUITTO_REGISTRY_DIR:-/fleet/auth}"
auth="${MOSQUITTO_AUTH_DIR:-/mosquitto/auth}"
tls="${MOSQUITTO_TLS_DIR:-/mosquitto/tls}"
config="${MOSQUITTO_CONFIG:-/mosquitto/config/mosquitto.conf}"
data="${MOSQUITTO_DATA_DIR:-/mosquitto/data}"

if [ ! -f "$registry/tls/server.pem" ] || [ ! -f "$registry/tls/server-key.pem" ]; then
  echo "No TLS certificate for the device listener in deploy/mosquitto/auth/tls: run" >&2
  echo "  ./fleet devices export-mosquitto deploy/mosquitto/auth --tls-host <broker name> --data-dir <registry folder>" >&2
  echo "or put your own server.pem (chain) and server-key.pem (unencrypted PEM key) there." >&2
  exit 1
fi

umask 077
mkdir -p "$auth" "$tls"

render() {
  cp "$registry/tls/server.pem" "$registry/tls/server-key.pem" "$tls/"

  plain="$auth/services.plain"
  printf '%s:%s\n%s:%s\n%s:%s\n' \
    "$MQTT_INGEST_USERNAME" "$MQTT_INGEST_PASSWORD" \
    "$MQTT_MONITOR_USERNAME" "$MQTT_MONITOR_PASSWORD" \
    "$MQTT_SIMULATOR_USERNAME" "$MQTT_SIMULATOR_PASSWORD" > "$plain"
  mosquitto_passwd -U "$plain"
  {
    if [ -f "$registry/password_file" ]; then cat "$registry/password_file"; fi
    cat "$plain"
  } > "$auth/password_file.new"
  rm -f "$plain"

  {
    if [ -f "$registry/acl_file" ]; then
      cat "$registry/acl_file"
    else
      # The devices' patterns, as export-mosquitto writes them.
      echo "pattern write fleet/%u/position"
      echo "pattern read fleet/%u/commands/#"
    fi
    echo
    echo "# Services of .env (deploy/mosquitto/start.sh). The device patterns above apply to every user: these names"
    echo "# are no vehicles."
    for service in "$MQTT_INGEST_USERNAME" "$MQTT_MONITOR_USERNAME" "$MQTT_SIMULATOR_USERNAME"; do
      echo "user $service"
      echo "topic deny fleet/$service/position"
      echo "topic deny fleet/$service/commands/#"
      if [ "$service" = "$MQTT_INGEST_USERNAME" ]; then
        echo "topic read fleet/+/position"
      elif [ "$service" = "$MQTT_MONITOR_USERNAME" ]; then
        echo 'topic read $SYS/#'
      else
        # Mosquitto's ACL has no id prefix: the simulated fleet's vehicles one by one.
        vehicle=1
        while [ "$vehicle" -le "$SIMULATOR_VEHICLES" ]; do
          printf 'topic write fleet/VH-%04d/position\n' "$vehicle"
          vehicle=$((vehicle + 1))
        done
      fi
      echo
    done
  } > "$auth/acl_file.new"
  mv "$auth/password_file.new" "$auth/password_file"
  mv "$auth/acl_file.new" "$auth/acl_file"
  # The broker drops root privileges to the mosquitto user and must still read the files (for example on SIGHUP).
  if id mosquitto > /dev/null 2>&1; then
    chown -R mosquitto:mosquitto "$auth" "$tls" "$data"
  fi
}

render
/usr/sbin/mosquitto -c "$config" &
broker=$!
trap 'render && kill -HUP "$broker"' HUP
trap 'kill -TERM "$broker"' TERM INT
# wait returns early for every trapped signal: wait again until the broker itself has ended.
status=0
while kill -0 "$broker" 2>/dev/null; do
  if wait "$broker"; then status=0; else status=$?; fi
done
exit "$status"

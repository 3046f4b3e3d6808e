#!/bin/sh
# The daily reverse geocoding of the compose deployment (service geocode in docker-compose.yml): runs `fleet geocode`'s
# job once at start, so a new deployment catches up at once, then every day at GEOCODE_DAILY_AT (UTC, HH:MM). The job
# reads only the positions committed since its last run and commits atomically, so a run that fails (the catalog is
# down, the container is stopped) is simply repeated by the next one; the loop goes on after a failure.
set -u

run_at="${GEOCODE_DAILY_AT:-02:00}"
case "$run_at" in
    [0-2][0-9]:[0-5][0-9]) ;;
    *) echo "GEOCODE_DAILY_AT='$run_at' is not a time of day HH:MM (UTC)" >&2; exit 2 ;;
esac

geocode() {
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) geocode: starting"
    if java -cp '/opt/fleetlake/app/*:/opt/fleetlake/lib/*' io.fleetlake.spark.geocode.GeocodeMain; then
        echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) geocode: done"
    else
        echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) geocode: failed with status $?; the next run repeats it" >&2
    fi
}

geocode
while true; do
    now=$(date -u +%s)
    next=$(date -u -d "today $run_at" +%s)
    if [ "$next" -le "$now" ]; then
        next=$(date -u -d "tomorrow $run_at" +%s)
    fi
    echo "geocode: next run at $(date -u -d "@$next" +%Y-%m-%dT%H:%M:%SZ)"
    sleep $((next - now))
    geocode
done

#!/bin/sh
# One-shot creation of the pipeline's Kafka topics (service kafka-init in docker-compose.yml); names are those of
# io.fleetlake.model.Topics. Existing topics are left as they are, so it is safe to run again.
set -eu

topics=/opt/kafka/bin/kafka-topics.sh

create() {
    "$topics" --bootstrap-server "$BOOTSTRAP_SERVERS" --create --if-not-exists --replication-factor 1 "$@"
}

create --topic gps.raw.positions --partitions "$PARTITIONS"
create --topic gps.validated.positions --partitions "$PARTITIONS"
create --topic gps.dlq.positions --partitions "$PARTITIONS"
create --topic gps.late.positions --partitions "$PARTITIONS"
# The reprocessing ledger keeps only the latest entry per dead-lettered record.
create --topic gps.dlq.reprocessed --partitions 1 --config cleanup.policy=compact

"$topics" --bootstrap-server "$BOOTSTRAP_SERVERS" --list

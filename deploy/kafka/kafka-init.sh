#!/bin/sh
# One-shot set-up of the pipeline's Kafka (service kafka-init in docker-compose.yml), logged in as fleet-admin: the
# topics (names of io.fleetlake.model.Topics) and the grants of acls.conf, one ACL per line
# <user> <operation> <resource type> <pattern> <name>. Existing topics and ACLs are left as they are, so it is safe to
# run again; a grant deleted from acls.conf is not revoked (kafka-acls --remove does that). The administrator's
# password comes from the environment into an owner-only client file, never onto a command line.
set -eu

case "${KAFKA_ADMIN_PASSWORD:-}" in
    '' | *[!A-Za-z0-9_-]*)
        echo "kafka-init: KAFKA_ADMIN_PASSWORD is unset or holds a character other than letters, digits, '-' and '_'" >&2
        exit 1
        ;;
esac

umask 077
admin="$(mktemp)"
trap 'rm -f "$admin"' EXIT
{
    echo "security.protocol=SASL_PLAINTEXT"
    echo "sasl.mechanism=SCRAM-SHA-512"
    echo "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"fleet-admin\" password=\"$KAFKA_ADMIN_PASSWORD\";"
} > "$admin"

topics=/opt/kafka/bin/kafka-topics.sh
acls=/opt/kafka/bin/kafka-acls.sh

create() {
    "$topics" --bootstrap-server "$BOOTSTRAP_SERVERS" --command-config "$admin" --create --if-not-exists \
        --replication-factor 1 "$@"
}

create --topic gps.raw.positions --partitions "$PARTITIONS"
create --topic gps.validated.positions --partitions "$PARTITIONS"
create --topic gps.dlq.positions --partitions "$PARTITIONS"
create --topic gps.late.positions --partitions "$PARTITIONS"
# The reprocessing ledger keeps only the latest entry per dead-lettered record.
create --topic gps.dlq.reprocessed --partitions 1 --config cleanup.policy=compact

"$topics" --bootstrap-server "$BOOTSTRAP_SERVERS" --command-config "$admin" --list

grep -v -e '^#' -e '^[[:space:]]*$' "$ACLS_FILE" | while read -r user operation type pattern name; do
    case "$type" in
        cluster) resource="--cluster" ;;
        topic | group | transactional-id) resource="--$type $name" ;;
        *)
            echo "kafka-init: unknown resource type '$type' in $ACLS_FILE" >&2
            exit 1
            ;;
    esac
    # $resource is two words for a named resource; names in acls.conf hold no spaces.
    # shellcheck disable=SC2086
    "$acls" --bootstrap-server "$BOOTSTRAP_SERVERS" --command-config "$admin" --add --allow-principal "User:$user" \
        --operation "$operation" $resource --resource-pattern-type "$pattern" > /dev/null
    echo "kafka-init: User:$user may $operation $type $pattern $name"
done

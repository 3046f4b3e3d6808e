#!/bin/sh
# Starts the compose deployment's Kafka broker (service kafka) with the client security of security.properties:
# SASL/SCRAM-SHA-512 on the client listener (9092, the compose network), the ACLs of acls.conf (kafka-init grants them),
# nothing allowed without a grant. Written at every start from .env, so that no credential is stored in the repository,
# in an image or on a command line (`ps` shows command lines to every local user):
#   server.properties       the broker's settings plus security.properties with the administrator's password
#   admin-client.properties fleet-admin's client login, for the health check
#   scram-<user>.properties one SCRAM credential each, read by kafka-configs --add-config-file and deleted once set
# The SCRAM credentials of fleet-admin (the broker itself and kafka-init), fleet-connect, fleet-pipeline and
# fleet-monitor are set (again) at every start through the LOCAL listener (9094), whose clients are anonymous super
# users, like those of the controller listener (9093, the controller talks to itself that way); both are PLAINTEXT and
# therefore listen on 127.0.0.1 inside this container only: nothing on the network can reach them. (The controller
# listener cannot take credentials: Kafka 4.2's admin client refuses AlterUserScramCredentials there.) Rotation: change KAFKA_<SERVICE>_PASSWORD in .env, then
# `docker compose up -d` (kafka sets the new credential, the service using it restarts with it).
# Passwords are written into properties and JAAS lines, so they must be letters, digits, '-' and '_' (as
# ./fleet secrets init generates them). With --render-only the script writes the files and exits (the test does that).
set -eu

dir="${KAFKA_FLEET_DIR:-/tmp/fleet-kafka}"
security="${KAFKA_SECURITY_PROPERTIES:-/fleet/security.properties}"
data="${KAFKA_DATA_DIR:-/var/lib/kafka/data}"
kafka_bin=/opt/kafka/bin

password_of() {
    case "$1" in
        fleet-admin) echo "${KAFKA_ADMIN_PASSWORD:-}" ;;
        fleet-connect) echo "${KAFKA_CONNECT_PASSWORD:-}" ;;
        fleet-pipeline) echo "${KAFKA_PIPELINE_PASSWORD:-}" ;;
        fleet-monitor) echo "${KAFKA_MONITOR_PASSWORD:-}" ;;
    esac
}
users="fleet-admin fleet-connect fleet-pipeline fleet-monitor"

for user in $users; do
    case "$(password_of "$user")" in
        '' | *[!A-Za-z0-9_-]*)
            echo "kafka: the password of $user (KAFKA_*_PASSWORD in .env) is unset or holds a character other than" \
                "letters, digits, '-' and '_'; ./fleet secrets init generates one that fits" >&2
            exit 1
            ;;
    esac
done

umask 077
mkdir -p "$dir"
{
    echo "# Written by deploy/kafka/start.sh at every start; not in git."
    echo "process.roles=broker,controller"
    echo "node.id=1"
    # Clients on 9092 from the compose network; the controller and LOCAL on the loopback interface only (see above).
    echo "listeners=SASL_PLAINTEXT://:9092,CONTROLLER://127.0.0.1:9093,LOCAL://127.0.0.1:9094"
    echo "advertised.listeners=SASL_PLAINTEXT://kafka:9092,LOCAL://127.0.0.1:9094"
    echo "controller.listener.names=CONTROLLER"
    echo "controller.quorum.voters=1@127.0.0.1:9093"
    echo "log.dirs=$data"
    # One broker: every internal topic has one replica. The Flink job's transactions need the transaction state log
    # to be writable with one.
    echo "offsets.topic.replication.factor=1"
    echo "transaction.state.log.replication.factor=1"
    echo "transaction.state.log.min.isr=1"
    echo "share.coordinator.state.topic.replication.factor=1"
    echo "share.coordinator.state.topic.min.isr=1"
    echo "group.initial.rebalance.delay.ms=0"
    # Topics come from kafka-init with their partitions and policies; a misspelt topic name must not create one.
    echo "auto.create.topics.enable=false"
    grep -v '^#' "$security" | sed "s|\${KAFKA_ADMIN_PASSWORD}|$KAFKA_ADMIN_PASSWORD|"
} > "$dir/server.properties.new"
mv "$dir/server.properties.new" "$dir/server.properties"

{
    echo "security.protocol=SASL_PLAINTEXT"
    echo "sasl.mechanism=SCRAM-SHA-512"
    echo "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"fleet-admin\" password=\"$KAFKA_ADMIN_PASSWORD\";"
} > "$dir/admin-client.properties"

for user in $users; do
    # kafka-configs reads <mechanism>=iterations=<n>,password=<password> from a properties file.
    echo "SCRAM-SHA-512=iterations=8192,password=$(password_of "$user")" > "$dir/scram-$user.properties"
done

if [ "${1:-}" = "--render-only" ]; then
    exit 0
fi

# The tools must not start the image's JMX agent of KAFKA_OPTS: the broker holds its port.
KAFKA_OPTS= "$kafka_bin/kafka-storage.sh" format --ignore-formatted --cluster-id "$CLUSTER_ID" \
    --config "$dir/server.properties"

set_credentials() {
    for user in $users; do
        until KAFKA_OPTS= "$kafka_bin/kafka-configs.sh" --bootstrap-server 127.0.0.1:9094 --alter \
            --entity-type users --entity-name "$user" --add-config-file "$dir/scram-$user.properties" > /dev/null; do
            echo "kafka: the broker does not take the credential of $user yet; trying again in 2 s" >&2
            sleep 2
        done
        rm -f "$dir/scram-$user.properties"
    done
    echo "kafka: SCRAM credentials of $users set"
}

# In the background, so that the broker is the container's main process and gets its signals.
set_credentials &
exec "$kafka_bin/kafka-server-start.sh" "$dir/server.properties"

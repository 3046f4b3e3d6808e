package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import io.fleetlake.operations.inspect.PrometheusText.Sample;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What the MQTT broker's metrics endpoint said at one moment about device positions (series named by {@code
 * deploy/prometheus/jmx/mqtt-broker.yml} for HiveMQ, by {@code deploy/prometheus/prometheus.yml} for Mosquitto).
 *
 * @param acceptedByListener {@value #ACCEPTED}: QoS 1/2 publishes on {@code fleet/+/position} the broker received,
 *     per listener, since it started; empty when the broker serves no such count (Mosquitto counts every topic
 *     together)
 * @param dropped {@value #DROPPED}: messages the broker dropped since it started, over every topic, if served
 * @param queued {@value #QUEUED}: messages the broker holds for the position subscribers (queued, or sent and not
 *     acknowledged), if served
 * @param startedAt the broker process's start ({@value #PROCESS_START}), if served: a different value in a later
 *     reading means the counters started again from zero in between
 */
public record BrokerCounters(
        Map<String, Long> acceptedByListener, OptionalLong dropped, OptionalLong queued, Optional<Instant> startedAt) {
    public static final String ACCEPTED = "fleet_mqtt_position_publishes_accepted_total";
    public static final String DROPPED = "fleet_mqtt_messages_dropped_total";
    public static final String QUEUED = "fleet_mqtt_position_messages_queued";
    public static final String PROCESS_START = "process_start_time_seconds";
    static final String LISTENER = "listener";

    public BrokerCounters {
        acceptedByListener =
                Map.copyOf(new TreeMap<>(requireNonNull(acceptedByListener, "acceptedByListener is null")));
        requireNonNull(dropped, "dropped is null");
        requireNonNull(queued, "queued is null");
        requireNonNull(startedAt, "startedAt is null");
    }

    /** The counters in a scrape of the broker's metrics endpoint. */
    public static BrokerCounters from(List<Sample> samples) {
        Map<String, Long> accepted = new TreeMap<>();
        OptionalLong dropped = OptionalLong.empty();
        OptionalLong queued = OptionalLong.empty();
        Optional<Instant> startedAt = Optional.empty();
        for (Sample sample : samples) {
            switch (sample.name()) {
                case ACCEPTED -> accepted.merge(sample.label(LISTENER).orElse(""), (long) sample.value(), Long::sum);
                case DROPPED -> dropped = OptionalLong.of(dropped.orElse(0) + (long) sample.value());
                case QUEUED -> queued = OptionalLong.of(queued.orElse(0) + (long) sample.value());
                case PROCESS_START -> startedAt = Optional.of(Instant.ofEpochMilli((long) (sample.value() * 1000)));
                default -> {
                    // Every other series of the broker is not part of this reconciliation.
                }
            }
        }
        return new BrokerCounters(accepted, dropped, queued, startedAt);
    }
}

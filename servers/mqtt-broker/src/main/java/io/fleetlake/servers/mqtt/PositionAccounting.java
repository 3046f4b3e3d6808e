package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import com.hivemq.extension.sdk.api.packets.general.Qos;
import com.hivemq.extension.sdk.api.packets.publish.PublishPacket;
import io.fleetlake.model.MqttTopics;

/**
 * The broker's own count of device positions it accepted, per listener, kept in HiveMQ's metric registry so that it is
 * served with HiveMQ's metrics (JMX, renamed by {@code deploy/prometheus/jmx/mqtt-broker.yml}) and reconciled with
 * what reached Kafka ({@code fleet verify}, alert {@code FleetIngestHopGap}).
 *
 * <p>Counted: every PUBLISH with QoS 1 or 2 whose topic follows {@link MqttTopics#POSITION_FILTER} and that its
 * client was authorized to publish ({@link IdentityEnforcement} counts it when it authorizes it: HiveMQ calls inbound
 * interceptors before authorizers, so an interceptor would count refused publishes too), once per packet the broker
 * received (a device's resend with DUP set is a second packet, delivered again to the subscriber, and counted again).
 * QoS 0 publishes are not counted: the broker may drop them by design. The counters start at zero when the broker
 * starts; readers detect the reset by the counter going down (or by the process start time).
 */
final class PositionAccounting {
    /** Name prefix of the per-listener counters; the listener's name follows. */
    static final String ACCEPTED_PREFIX = "fleet.mqtt.position-publishes-accepted.";

    /** Used when HiveMQ does not say on which listener a publish arrived. */
    static final String UNKNOWN_LISTENER = "unknown";

    private PositionAccounting() {}

    /** The per-listener counters in one broker's registry. */
    static final class Counters {
        private final MetricRegistry registry;

        Counters(MetricRegistry registry) {
            this.registry = requireNonNull(registry, "registry is null");
        }

        /** Counts {@code packet} when it is a position published with QoS 1 or 2. */
        void count(PublishPacket packet, String listener) {
            if (packet.getQos() != Qos.AT_MOST_ONCE
                    && MqttTopics.vehicleId(packet.getTopic()).isPresent()) {
                accepted(listener).inc();
            }
        }

        /** The counter of {@code listener}, created at its first position. */
        Counter accepted(String listener) {
            return registry.counter(ACCEPTED_PREFIX + listener);
        }
    }
}

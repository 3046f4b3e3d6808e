package io.fleetlake.servers.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.hivemq.extension.sdk.api.packets.general.Qos;
import com.hivemq.extension.sdk.api.packets.publish.PublishPacket;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

class PositionAccountingTest {
    private final MetricRegistry registry = new MetricRegistry();
    private final PositionAccounting.Counters counters = new PositionAccounting.Counters(registry);

    @Test
    void countsQosOneAndTwoPositionsPerListenerAndNothingElse() {
        counters.count(publish("fleet/V-1/position", Qos.AT_LEAST_ONCE), "devices");
        counters.count(publish("fleet/V-2/position", Qos.EXACTLY_ONCE), "devices");
        counters.count(publish("fleet/V-1/position", Qos.AT_LEAST_ONCE), "gateways");
        counters.count(publish("fleet/V-1/position", Qos.AT_MOST_ONCE), "devices");
        counters.count(publish("fleet/V-1/status", Qos.AT_LEAST_ONCE), "devices");
        counters.count(publish("fleet/a/b/position", Qos.AT_LEAST_ONCE), "devices");

        assertThat(registry.getCounters().keySet())
                .containsExactlyInAnyOrder(
                        PositionAccounting.ACCEPTED_PREFIX + "devices",
                        PositionAccounting.ACCEPTED_PREFIX + "gateways");
        assertThat(counters.accepted("devices").getCount()).isEqualTo(2);
        assertThat(counters.accepted("gateways").getCount()).isEqualTo(1);
    }

    @Test
    void sharedSubscriptionQueueIdsAreTheGroupAndTheFilter() {
        assertThat(PositionQueue.sharedGroupQueue("$share/fleet-ingest/fleet/+/position"))
                .contains("fleet-ingest/fleet/+/position");
        assertThat(PositionQueue.sharedGroupQueue("fleet/+/position")).isEmpty();
        assertThat(PositionQueue.sharedGroupQueue("$share/fleet-ingest/fleet/#"))
                .isEmpty();
        assertThat(PositionQueue.sharedGroupQueue("$share//fleet/+/position")).isEmpty();
    }

    /** A received PUBLISH with a topic and a QoS; nothing else is asked of it. */
    private static PublishPacket publish(String topic, Qos qos) {
        return (PublishPacket) Proxy.newProxyInstance(
                PublishPacket.class.getClassLoader(),
                new Class<?>[] {PublishPacket.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getTopic" -> topic;
                    case "getQos" -> qos;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}

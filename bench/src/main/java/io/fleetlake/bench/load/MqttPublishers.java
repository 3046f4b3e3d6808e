package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.MqttPositionPublisher;
import io.fleetlake.simulator.PublishCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Several MQTT clients publishing like the fleet's devices (QoS 1, each device's payload format), each with a client id
 * of its own. Closing waits for their acknowledgements.
 */
public final class MqttPublishers implements AutoCloseable {
    private final List<MqttPositionPublisher> publishers;

    private MqttPublishers(List<MqttPositionPublisher> publishers) {
        this.publishers = List.copyOf(publishers);
    }

    /**
     * Connects {@code count} clients named {@code <clientIdPrefix>-<n>}.
     *
     * @param simulator the stack's simulator settings (broker address)
     */
    public static MqttPublishers connect(FleetSimulatorConfig simulator, String clientIdPrefix, int count) {
        requireNonNull(simulator, "simulator is null");
        List<MqttPositionPublisher> publishers = new ArrayList<>();
        try {
            for (int index = 0; index < count; index++) {
                FleetSimulatorConfig config = FleetSimulatorConfig.from(ConfigSource.of(Map.of(
                        FleetSimulatorConfig.MQTT_URI,
                        simulator.mqttUri().toString(),
                        FleetSimulatorConfig.CLIENT_ID,
                        clientIdPrefix + "-" + index,
                        FleetSimulatorConfig.MAX_IN_FLIGHT,
                        "2000",
                        FleetSimulatorConfig.CLOSE_TIMEOUT,
                        "120s")));
                MqttPositionPublisher publisher = new MqttPositionPublisher(config);
                publishers.add(publisher);
                publisher.start();
            }
        } catch (RuntimeException e) {
            publishers.forEach(MqttPositionPublisher::close);
            throw e;
        }
        return new MqttPublishers(publishers);
    }

    public MqttPositionPublisher get(int index) {
        return publishers.get(index);
    }

    public int size() {
        return publishers.size();
    }

    /** Published, acknowledged and failed messages over all clients. */
    public PublishCounts counts() {
        long published = 0;
        long acknowledged = 0;
        long failed = 0;
        for (MqttPositionPublisher publisher : publishers) {
            PublishCounts counts = publisher.counts();
            published += counts.published();
            acknowledged += counts.acknowledged();
            failed += counts.failed();
        }
        return new PublishCounts(published, acknowledged, failed);
    }

    /** Waits until every client has no message in flight; false when some still had at the timeout. */
    public boolean awaitAcknowledgements(Duration timeout) throws InterruptedException {
        for (MqttPositionPublisher publisher : publishers) {
            if (!publisher.awaitAcknowledgements(timeout)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        publishers.forEach(MqttPositionPublisher::close);
    }
}

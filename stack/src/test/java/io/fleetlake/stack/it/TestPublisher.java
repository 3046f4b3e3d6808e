package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.MqttPositionPublisher;
import io.fleetlake.stack.StackSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Publishes hand-made positions over MQTT QoS 1 like devices do, half of them Avro and half JSON. */
final class TestPublisher implements AutoCloseable {
    private final MqttPositionPublisher publisher;

    private TestPublisher(MqttPositionPublisher publisher) {
        this.publisher = publisher;
    }

    /** Connects as the test gateway {@code clientId} ({@link TestGateways}). */
    static TestPublisher connect(StackSettings settings, String clientId) {
        TestGateways.Credentials credentials = TestGateways.gateway(settings, clientId);
        FleetSimulatorConfig config = FleetSimulatorConfig.from(ConfigSource.of(Map.of(
                FleetSimulatorConfig.MQTT_URI,
                settings.mqttUri(),
                FleetSimulatorConfig.CLIENT_ID,
                clientId,
                FleetSimulatorConfig.MQTT_USERNAME,
                credentials.username(),
                FleetSimulatorConfig.MQTT_PASSWORD,
                credentials.password())));
        MqttPositionPublisher publisher = new MqttPositionPublisher(config);
        publisher.start();
        return new TestPublisher(publisher);
    }

    void publishAll(List<Position> positions) throws InterruptedException {
        for (int i = 0; i < positions.size(); i++) {
            publish(positions.get(i), i % 2 == 0 ? PayloadFormat.AVRO : PayloadFormat.JSON);
        }
    }

    void publish(Position position, PayloadFormat format) throws InterruptedException {
        publisher.publish(position, format);
    }

    void publishRaw(String topic, byte[] payload) throws InterruptedException {
        publisher.publishRaw(topic, payload);
    }

    void awaitAcknowledgements() throws InterruptedException {
        assertThat(publisher.awaitAcknowledgements(Duration.ofSeconds(60)))
                .as("the broker acknowledged every QoS 1 publish")
                .isTrue();
        assertThat(publisher.counts().failed()).isZero();
    }

    @Override
    public void close() {
        publisher.close();
    }
}

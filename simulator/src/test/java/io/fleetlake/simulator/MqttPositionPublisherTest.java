package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Behaviour without a broker; publishing to a real broker is covered by the stack module's integration tests. */
class MqttPositionPublisherTest {
    @Test
    void publishingBeforeStartIsRejected() {
        try (MqttPositionPublisher publisher = new MqttPositionPublisher(FleetSimulatorConfig.defaults())) {
            assertThatThrownBy(() ->
                            publisher.publish(Position.of("VH-0001", Instant.EPOCH, 40, -3, 0, 0), PayloadFormat.AVRO))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not started; call start() first");
            assertThat(publisher.counts()).isEqualTo(PublishCounts.NONE);
        }
    }

    @Test
    void startExplainsWhatToCheckWhenNoBrokerListens() throws IOException {
        int port = unusedPort();
        FleetSimulatorConfig config = FleetSimulatorConfig.from(ConfigSource.of(
                Map.of("simulator.mqtt-uri", "tcp://127.0.0.1:" + port, "simulator.connect-timeout", "5s")));

        try (MqttPositionPublisher publisher = new MqttPositionPublisher(config)) {
            assertThatThrownBy(publisher::start)
                    .isInstanceOf(BrokerUnavailableException.class)
                    .hasMessageContaining("tcp://127.0.0.1:" + port)
                    .hasMessageContaining("simulator.mqtt-uri");
            assertThatThrownBy(() -> publisher.publishRaw("fleet/VH-0001/position", new byte[] {1}))
                    .hasMessageContaining("closed");
            assertThatThrownBy(publisher::start).hasMessageContaining("already started");
        }
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}

package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HivemqMqttSubscriberTest {
    @Test
    void reconnectDelayDoublesUpToTenSeconds() {
        assertThat(HivemqMqttSubscriber.reconnectDelay(0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(HivemqMqttSubscriber.reconnectDelay(1)).isEqualTo(Duration.ofSeconds(2));
        assertThat(HivemqMqttSubscriber.reconnectDelay(3)).isEqualTo(Duration.ofSeconds(8));
        assertThat(HivemqMqttSubscriber.reconnectDelay(4)).isEqualTo(Duration.ofSeconds(10));
        assertThat(HivemqMqttSubscriber.reconnectDelay(1_000)).isEqualTo(Duration.ofSeconds(10));
    }
}

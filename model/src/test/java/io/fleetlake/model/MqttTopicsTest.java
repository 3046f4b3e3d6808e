package io.fleetlake.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MqttTopicsTest {
    @Test
    void positionTopicRoundTrips() {
        assertThat(MqttTopics.positionTopic("VH-0042")).isEqualTo("fleet/VH-0042/position");
        assertThat(MqttTopics.vehicleId("fleet/VH-0042/position")).contains("VH-0042");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "fleet/position",
                "fleet//position",
                "fleet/a/b/position",
                "fleet/VH-1/status",
                "other/VH-1/position",
                ""
            })
    void topicsOutsideTheLayoutHaveNoVehicle(String topic) {
        assertThat(MqttTopics.vehicleId(topic)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a/b", "a+b", "a#"})
    void vehicleIdsThatBreakTopicsAreRefused(String vehicleId) {
        assertThatThrownBy(() -> MqttTopics.positionTopic(vehicleId)).isInstanceOf(IllegalArgumentException.class);
    }
}

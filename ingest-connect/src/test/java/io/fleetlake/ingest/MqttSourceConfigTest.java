package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MqttSourceConfigTest {
    @Test
    void defaults() {
        MqttSourceConfig config = new MqttSourceConfig(Map.of());

        assertThat(config.serverUri()).isEqualTo(URI.create("tcp://127.0.0.1:1883"));
        assertThat(config.topicFilter()).isEqualTo("fleet/+/position");
        assertThat(config.clientIdPrefix()).isEqualTo("fleet-ingest");
        assertThat(config.username()).isEmpty();
        assertThat(config.password()).isEmpty();
        assertThat(config.sessionExpiry()).isEqualTo(Duration.ofDays(7));
        assertThat(config.queueCapacity()).isEqualTo(10_000);
        assertThat(config.maxBatchSize()).isEqualTo(1_000);
        assertThat(config.kafkaTopic()).isEqualTo("gps.raw.positions");
        assertThat(config.maxRecordSize()).isEqualTo(1_000_000);
        assertThat(config.deadLetterTopic()).isEqualTo("gps.dlq.positions");
        assertThat(config.deadLetterPreviewSize()).isEqualTo(4_096);
    }

    @Test
    void fullMapping() {
        MqttSourceConfig config = new MqttSourceConfig(Map.ofEntries(
                Map.entry(MqttSourceConfig.SERVER_URI, "ssl://broker.example:8884"),
                Map.entry(MqttSourceConfig.TOPIC_FILTER, "devices/#"),
                Map.entry(MqttSourceConfig.CLIENT_ID_PREFIX, "ingest-a"),
                Map.entry(MqttSourceConfig.USERNAME, "ingest"),
                Map.entry(MqttSourceConfig.PASSWORD, "secret"),
                Map.entry(MqttSourceConfig.SESSION_EXPIRY, "3600"),
                Map.entry(MqttSourceConfig.QUEUE_CAPACITY, "500"),
                Map.entry(MqttSourceConfig.MAX_BATCH_SIZE, "50"),
                Map.entry(MqttSourceConfig.KAFKA_TOPIC, "raw"),
                Map.entry(MqttSourceConfig.MAX_RECORD_SIZE, "200000"),
                Map.entry(MqttSourceConfig.DEAD_LETTER_TOPIC, "dead"),
                Map.entry(MqttSourceConfig.DEAD_LETTER_PREVIEW_SIZE, "100")));

        assertThat(config.serverUri()).isEqualTo(URI.create("ssl://broker.example:8884"));
        assertThat(config.topicFilter()).isEqualTo("devices/#");
        assertThat(config.clientIdPrefix()).isEqualTo("ingest-a");
        assertThat(config.username()).contains("ingest");
        assertThat(config.password()).hasValueSatisfying(password -> {
            assertThat(password.value()).isEqualTo("secret");
            assertThat(password.toString()).doesNotContain("secret");
        });
        assertThat(config.sessionExpiry()).isEqualTo(Duration.ofHours(1));
        assertThat(config.queueCapacity()).isEqualTo(500);
        assertThat(config.maxBatchSize()).isEqualTo(50);
        assertThat(config.kafkaTopic()).isEqualTo("raw");
        assertThat(config.maxRecordSize()).isEqualTo(200_000);
        assertThat(config.deadLetterTopic()).isEqualTo("dead");
        assertThat(config.deadLetterPreviewSize()).isEqualTo(100);
    }

    @Test
    void deadLetterPreviewMustLeaveRoomForKeyAndHeadersBelowTheRecordSize() {
        assertThat(new MqttSourceConfig(Map.of(
                                MqttSourceConfig.MAX_RECORD_SIZE, "20000",
                                MqttSourceConfig.DEAD_LETTER_PREVIEW_SIZE, "11808"))
                        .deadLetterPreviewSize())
                .isEqualTo(11_808);
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(
                        MqttSourceConfig.MAX_RECORD_SIZE, "20000",
                        MqttSourceConfig.DEAD_LETTER_PREVIEW_SIZE, "11809")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(MqttSourceConfig.DEAD_LETTER_PREVIEW_SIZE)
                .hasMessageContaining("must fit connect.max-record-size (20000)");
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(MqttSourceConfig.MAX_RECORD_SIZE, "8191")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(MqttSourceConfig.MAX_RECORD_SIZE);
    }

    @ParameterizedTest
    @CsvSource({"tcp://broker, tcp://broker:1883", "ssl://broker, ssl://broker:8883", "TCP://broker:1, tcp://broker:1"})
    void serverUriPortDefaultsToTheSchemeDefault(String value, String expected) {
        MqttSourceConfig config = new MqttSourceConfig(Map.of(MqttSourceConfig.SERVER_URI, value));

        assertThat(config.serverUri()).isEqualTo(URI.create(expected));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://127.0.0.1:1883 | must start with tcp:// (plain) or ssl:// (TLS)",
                "broker:1883 | must start with tcp:// (plain) or ssl:// (TLS)",
                "127.0.0.1:1883 | must be tcp://host:port or ssl://host:port",
                "tcp:// | must be tcp://host:port or ssl://host:port",
                "tcp://broker:1883/path | must not have a path",
                "tcp://bro ker:1883 | must be tcp://host:port or ssl://host:port",
                "tcp://broker:0 | must name a port between 1 and 65535"
            })
    void badServerUriIsRejected(String value, String message) {
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(MqttSourceConfig.SERVER_URI, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(MqttSourceConfig.SERVER_URI)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource({
        "mqtt.queue-capacity, -1, Value must be at least 1",
        "mqtt.queue-capacity, 0, Value must be at least 1",
        "mqtt.queue-capacity, 65536, Value must be no more than 65535",
        "mqtt.max-batch-size, 0, Value must be at least 1",
        "mqtt.session-expiry, 0, Value must be at least 1",
        "mqtt.session-expiry, 4294967296, Value must be no more than 4294967295",
        "mqtt.queue-capacity, many, Not a number of type INT"
    })
    void numbersOutOfRangeAreRejected(String key, String value, String message) {
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(key, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "fleet/#/position | is not a valid MQTT topic filter",
                "fleet/truck+/position | is not a valid MQTT topic filter",
                "$share/group/fleet/+/position | give the plain filter"
            })
    void badTopicFilterIsRejected(String value, String message) {
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(MqttSourceConfig.TOPIC_FILTER, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(MqttSourceConfig.TOPIC_FILTER)
                .hasMessageContaining(message);
    }

    @Test
    void emptyTopicFilterIsRejected() {
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(MqttSourceConfig.TOPIC_FILTER, "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be an MQTT topic filter");
    }

    @Test
    void clientIdPrefixThatCannotNameASharedSubscriptionIsRejected() {
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(MqttSourceConfig.CLIENT_ID_PREFIX, "fleet/ingest")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(MqttSourceConfig.CLIENT_ID_PREFIX)
                .hasMessageContaining("must be letters, digits");
    }

    @Test
    void invalidKafkaTopicIsRejected() {
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(MqttSourceConfig.KAFKA_TOPIC, "raw positions")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be a Kafka topic name");
    }

    @Test
    void passwordWithoutUsernameIsRejectedWithoutShowingIt() {
        assertThatThrownBy(() -> new MqttSourceConfig(Map.of(MqttSourceConfig.PASSWORD, "secret")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("a password needs mqtt.username")
                .hasMessageNotContaining("secret");
    }

    @Test
    void everyKeyIsDocumentedAndGrouped() {
        ConfigDef definition = MqttSourceConfig.configDef();

        assertThat(definition.names())
                .containsExactlyInAnyOrder(
                        MqttSourceConfig.SERVER_URI,
                        MqttSourceConfig.TOPIC_FILTER,
                        MqttSourceConfig.CLIENT_ID_PREFIX,
                        MqttSourceConfig.USERNAME,
                        MqttSourceConfig.PASSWORD,
                        MqttSourceConfig.SESSION_EXPIRY,
                        MqttSourceConfig.QUEUE_CAPACITY,
                        MqttSourceConfig.MAX_BATCH_SIZE,
                        MqttSourceConfig.KAFKA_TOPIC,
                        MqttSourceConfig.MAX_RECORD_SIZE,
                        MqttSourceConfig.DEAD_LETTER_TOPIC,
                        MqttSourceConfig.DEAD_LETTER_PREVIEW_SIZE);
        assertThat(definition.configKeys().values()).allSatisfy(key -> {
            assertThat(key.documentation).as(key.name).isNotBlank();
            assertThat(key.group).as(key.name).isNotBlank();
            assertThat(key.displayName).as(key.name).isNotBlank();
        });
        assertThat(definition.configKeys().get(MqttSourceConfig.PASSWORD).type).isEqualTo(ConfigDef.Type.PASSWORD);
    }

    @Test
    void configDefIsACopy() {
        MqttSourceConfig.configDef().define("extra", ConfigDef.Type.STRING, ConfigDef.Importance.LOW, "extra");

        assertThat(MqttSourceConfig.configDef().names()).doesNotContain("extra");
    }
}

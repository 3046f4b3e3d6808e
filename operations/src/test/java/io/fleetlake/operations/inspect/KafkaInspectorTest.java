package io.fleetlake.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

class KafkaInspectorTest {
    private static final Map<String, String> SASL = Map.of(
            "security.protocol", "SASL_PLAINTEXT",
            "sasl.mechanism", "SCRAM-SHA-512");

    @Test
    void consumerReadsCommittedBytesWithoutAGroup() {
        Properties properties = KafkaInspector.consumerProperties("fleet-test-", "127.0.0.1:9092", Map.of());

        assertThat(properties)
                .containsEntry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092")
                .containsEntry(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)
                .containsEntry(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName())
                .containsEntry(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName())
                .doesNotContainKey(ConsumerConfig.GROUP_ID_CONFIG)
                .hasSize(6);
    }

    @Test
    void everyConsumerHasAClientIdOfItsOwnUnderThePrefix() {
        String first = clientId(KafkaInspector.consumerProperties("fleet-test-", "127.0.0.1:9092", Map.of()));
        String second = clientId(KafkaInspector.consumerProperties("fleet-test-", "127.0.0.1:9092", Map.of()));

        assertThat(first).startsWith("fleet-test-").hasSizeGreaterThan("fleet-test-".length());
        assertThat(second).startsWith("fleet-test-").isNotEqualTo(first);
    }

    @Test
    void securitySettingsAreAdded() {
        Properties properties = KafkaInspector.consumerProperties("fleet-test-", "127.0.0.1:9092", SASL);

        assertThat(properties)
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    }

    private static String clientId(Properties properties) {
        return (String) properties.get(ConsumerConfig.CLIENT_ID_CONFIG);
    }
}

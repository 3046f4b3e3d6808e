package io.fleetlake.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KafkaSaslCredentialsTest {
    @Test
    void withoutCredentialsTheClientGetsNoSecurityProperties() {
        Optional<KafkaSaslCredentials> credentials = KafkaSaslCredentials.from(ConfigSource.empty(), "connect");

        assertThat(credentials).isEmpty();
        assertThat(KafkaSaslCredentials.clientProperties(credentials)).isEmpty();
    }

    @Test
    void credentialsBecomeAScramLoginOverSaslPlaintext() {
        Optional<KafkaSaslCredentials> credentials = KafkaSaslCredentials.from(
                ConfigSource.of(
                        Map.of("exporter.kafka-username", "fleet-monitor", "exporter.kafka-password", "s3cr3t")),
                "exporter");

        assertThat(KafkaSaslCredentials.clientProperties(credentials))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "security.protocol",
                        "SASL_PLAINTEXT",
                        "sasl.mechanism",
                        "SCRAM-SHA-512",
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                + " username=\"fleet-monitor\" password=\"s3cr3t\";"));
    }

    @Test
    void thePrefixIsPutBeforeEveryKey() {
        KafkaSaslCredentials credentials = new KafkaSaslCredentials("fleet-connect", "s3cr3t");

        assertThat(credentials.clientProperties("producer."))
                .containsOnlyKeys("producer.security.protocol", "producer.sasl.mechanism", "producer.sasl.jaas.config");
    }

    @Test
    void oneWithoutTheOtherIsRefusedNamingBothKeys() {
        assertThatThrownBy(() -> KafkaSaslCredentials.from(
                        ConfigSource.of(Map.of("pipeline.kafka-username", "fleet-pipeline")), "pipeline"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.kafka-username")
                .hasMessageContaining("FLEET_PIPELINE_KAFKA_PASSWORD");
    }

    @Test
    void aQuoteThatWouldEndTheJaasOptionIsRefusedWithoutShowingThePassword() {
        assertThatThrownBy(() -> KafkaSaslCredentials.from(
                        ConfigSource.of(Map.of(
                                "connect.kafka-username", "fleet-connect",
                                "connect.kafka-password", "abc\" debug=\"true")),
                        "connect"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.kafka-password")
                .hasMessageNotContaining("abc");
    }

    @Test
    void toStringRedactsThePassword() {
        assertThat(new KafkaSaslCredentials("fleet-monitor", "s3cr3t-value").toString())
                .contains("fleet-monitor")
                .doesNotContain("s3cr3t-value");
    }
}

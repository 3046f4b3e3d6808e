package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the compose deployment publishes on the host and what each service may use: the devices' MQTT over TLS on
 * {@code DEVICE_PUBLISH_ADDRESS}, the operator's pages on {@code OPERATOR_PUBLISH_ADDRESS}, nothing else; a memory
 * limit on every service.
 */
class ComposeExposureTest {
    private static final String DEVICE = "device.example";
    private static final String OPERATOR = "operator.example";

    /** The compose file with distinct addresses, so that each port shows which of the two it is published on. */
    private static ComposeFile deployment() {
        Map<String, String> variables = new TreeMap<>(
                DotEnvFile.read(Repository.file(Repository.ENVIRONMENT_EXAMPLE)).variables());
        variables.put("DEVICE_PUBLISH_ADDRESS", DEVICE);
        variables.put("OPERATOR_PUBLISH_ADDRESS", OPERATOR);
        return ComposeFile.read(Repository.file(Repository.COMPOSE_FILE), new DotEnvFile(variables));
    }

    @Test
    void onlyTheDeviceListenerAndTheOperatorsPagesArePublished() {
        ComposeFile compose = deployment();
        Map<String, String> published = new TreeMap<>();
        for (String service : compose.serviceNames()) {
            for (String port : compose.ports(service)) {
                assertThat(published.put(port, service))
                        .as("%s published twice", port)
                        .isNull();
            }
        }

        assertThat(published)
                .isEqualTo(Map.of(
                        DEVICE + ":8883:8883", "mosquitto",
                        OPERATOR + ":8088:8088", "dashboard",
                        OPERATOR + ":8443:8443", "trino",
                        OPERATOR + ":3000:3000", "grafana",
                        OPERATOR + ":9090:9090", "prometheus",
                        OPERATOR + ":9001:9001", "minio"));
    }

    @Test
    void theExampleKeepsTheOperatorsPagesOnThisMachine() {
        Map<String, String> example =
                DotEnvFile.read(Repository.file(Repository.ENVIRONMENT_EXAMPLE)).variables();

        assertThat(example)
                .containsEntry("OPERATOR_PUBLISH_ADDRESS", "127.0.0.1")
                .doesNotContainKey("PUBLISH_ADDRESS");
        assertThat(Repository.exampleDeployment().ports("trino")).containsExactly("127.0.0.1:8443:8443");
    }

    @Test
    void everyServiceHasAMemoryLimit() {
        ComposeFile compose = Repository.exampleDeployment();
        for (String service : compose.serviceNames()) {
            assertThat(compose.memoryLimitBytes(service)).as(service).isBetween(16L << 20, 4L << 30);
        }
    }
}

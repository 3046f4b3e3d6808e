package io.fleetlake.deployment;

import static io.fleetlake.deployment.ServiceConfigurations.FLINK_JOB_MANAGER;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Flink REST API of the compose deployment: reachable only inside the compose network (the dashboard, the exporter
 * and the health checks), with jar submission and the UI's cancel button off, since the job runs in application mode
 * and nothing submits a jar.
 */
class FlinkRestDeploymentTest {
    private final ComposeFile compose = Repository.exampleDeployment();

    @Test
    void theJobManagersRestPortIsNotPublished() {
        assertThat(compose.ports(FLINK_JOB_MANAGER)).isEmpty();
    }

    @Test
    void neitherJarSubmissionNorTheCancelButtonIsOffered() {
        Map<String, String> flink = PropertiesFiles.flinkProperties(
                compose.environment(FLINK_JOB_MANAGER).get("FLINK_PROPERTIES"));
        assertThat(flink).containsEntry("web.submit.enable", "false").containsEntry("web.cancel.enable", "false");
    }
}

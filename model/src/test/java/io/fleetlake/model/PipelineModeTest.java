package io.fleetlake.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PipelineModeTest {
    @Test
    void aModeIsNamedInAnyCaseAndAnUnknownOneIsRejectedWithTheChoices() {
        assertThat(PipelineMode.named(" Cluster ")).isEqualTo(PipelineMode.CLUSTER);
        assertThat(PipelineMode.named("embedded")).isEqualTo(PipelineMode.EMBEDDED);
        assertThat(PipelineMode.CLUSTER).hasToString("cluster");
        assertThatThrownBy(() -> PipelineMode.named("yarn"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid configuration stack.pipeline-mode = yarn: expected one of embedded, cluster");
    }
}

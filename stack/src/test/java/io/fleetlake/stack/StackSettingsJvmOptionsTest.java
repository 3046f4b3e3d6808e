package io.fleetlake.stack;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackSettingsJvmOptionsTest {
    @Test
    void splitsTheOptionsOfOneComponentOnWhitespace() {
        StackSettings settings = StackSettings.from(
                ConfigSource.of(Map.of(
                        StackSettings.JVM_OPTIONS_PREFIX + "pipeline",
                        " -Xmx2g  -XX:StartFlightRecording=filename=/tmp/p.jfr ")),
                Path.of("data"));

        assertThat(settings.jvmOptions("pipeline"))
                .containsExactly("-Xmx2g", "-XX:StartFlightRecording=filename=/tmp/p.jfr");
        assertThat(settings.jvmOptions("kafka")).isEmpty();
    }
}

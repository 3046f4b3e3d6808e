package io.fleetlake.bench.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void parsesNulSeparatedArguments() {
        byte[] content = "java\0-cp\0/a.jar:/b.jar\0io.fleetlake.flink.FleetPipelineMain\0--config\0x\0"
                .getBytes(StandardCharsets.UTF_8);

        assertThat(ProcessCpu.parseCommandLine(content))
                .containsExactly(
                        "java", "-cp", "/a.jar:/b.jar", "io.fleetlake.flink.FleetPipelineMain", "--config", "x");
        assertThat(ProcessCpu.parseCommandLine(new byte[0])).isEmpty();
    }

    @Test
    void readsThisProcesssCommandLineIncludingItsLongClassPath() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs procfs");

        assertThat(ProcessCpu.commandLine(ProcessHandle.current().pid()))
                .isNotEmpty()
                .anyMatch(argument -> argument.contains("java") || argument.contains("surefire"));
        assertThat(ProcessCpu.commandLine(Long.MAX_VALUE)).isEmpty();
    }
}

package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd unit of the README ({@code deploy/systemd/fleet.service}) as systemd reads it: {@code systemd-analyze
 * verify} parses every directive and checks that the command exists, here with the install folder replaced by this
 * checkout (whose {@code fleet} script is what the unit runs).
 */
class SystemdUnitIT {
    private static final String UNIT = "deploy/systemd/fleet.service";
    private static final String INSTALL_FOLDER = "/opt/fleet-lakehouse";

    @TempDir
    Path directory;

    @Test
    void systemdAcceptsTheUnit() throws IOException, InterruptedException {
        Result result = verify(unit());

        assertThat(result.output()).as("systemd-analyze verify").isEmpty();
        assertThat(result.exitCode()).isZero();
    }

    @Test
    void theUnitRunsTheLauncherAndLetsItStopItsComponents() throws IOException {
        String unit = unit();

        assertThat(unit)
                .contains("ExecStart=" + INSTALL_FOLDER + "/fleet up ")
                .contains("KillMode=mixed")
                .contains("Restart=always")
                .contains("Environment=FLEET_SKIP_BUILD=true");
    }

    @Test
    void theCheckFailsOnABrokenUnit() throws IOException, InterruptedException {
        Result result = verify(unit().replace("KillMode=mixed", "KillMode=gently"));

        assertThat(result.output()).contains("Failed to parse kill mode");
    }

    private static String unit() throws IOException {
        return Files.readString(Repository.file(UNIT), StandardCharsets.UTF_8);
    }

    private Result verify(String unit) throws IOException, InterruptedException {
        Path file = directory.resolve("fleet.service");
        Files.writeString(file, unit.replace(INSTALL_FOLDER, Repository.root().toString()), StandardCharsets.UTF_8);
        Process process = new ProcessBuilder("systemd-analyze", "verify", file.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("systemd-analyze verify did not end within 60 s");
        }
        return new Result(process.exitValue(), output);
    }

    private record Result(int exitCode, String output) {}
}

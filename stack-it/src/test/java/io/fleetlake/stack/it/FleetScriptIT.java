package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.stack.process.FleetHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code fleet} script a user runs finds the stack's built jar and starts the command line: the stack module also
 * packages a {@code -tests} jar, which once made the script refuse every command as "not built".
 */
class FleetScriptIT {
    @Test
    void theScriptStartsTheCommandLineFromTheBuiltModules(@TempDir Path folder)
            throws IOException, InterruptedException {
        Path home = FleetHome.locate().root();
        Path output = folder.resolve("fleet-help.txt");
        ProcessBuilder script = new ProcessBuilder("bash", home.resolve("fleet").toString(), "--help")
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        // The suite has built every module; the script must not start a build of its own.
        script.environment().put("FLEET_SKIP_BUILD", "true");
        Process process = script.start();

        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("fleet --help ends").isTrue();
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue())
                .as("exit code of fleet --help; it printed:%n%s", printed)
                .isZero();
        assertThat(printed).contains("Usage: fleet").contains("demo").contains("secrets");
    }
}

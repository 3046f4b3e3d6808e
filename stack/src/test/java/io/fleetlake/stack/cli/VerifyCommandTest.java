package io.fleetlake.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.operations.verify.VerifyScope;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class VerifyCommandTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void everythingByDefault() {
        assertThat(scope()).isEqualTo(VerifyScope.everything());
    }

    @Test
    void fromToAndPrefix() {
        assertThat(scope("--from", "2026-11-29T08:00:00Z", "--to", "2026-11-29T09:00:00Z", "--vehicle-prefix", "VH-"))
                .isEqualTo(new VerifyScope(
                        Optional.of(Instant.parse("2026-11-29T08:00:00Z")),
                        Optional.of(Instant.parse("2026-11-29T09:00:00Z")),
                        Optional.of("VH-")));
    }

    @Test
    void sinceIsADurationBackFromNow() {
        assertThat(scope("--since", "2h").from()).contains(Instant.parse("2026-11-29T10:00:00Z"));
    }

    @Test
    void fromAndSinceTogetherAreRefused() {
        assertThatThrownBy(() -> scope("--from", "2026-11-29T08:00:00Z", "--since", "2h"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Give --from or --since, not both");
        assertThatThrownBy(() -> scope("--from", "2026-11-29T09:00:00Z", "--to", "2026-11-29T08:00:00Z"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be before --to");
    }

    @Test
    void helpNamesTheDefinitionsAndTheExitStatus() {
        StringWriter help = new StringWriter();
        CommandLine commandLine = new CommandLine(new FleetCli());
        commandLine.setOut(new PrintWriter(help, true));

        assertThat(commandLine.execute("verify", "--help")).isZero();
        // picocli wraps the description: compare with single spaces.
        assertThat(help.toString().replaceAll("\\s+", " "))
                .contains("Lost: a raw record the pipeline has committed past")
                .contains("Duplicated: a (vehicle_id, event_time) with more than one row")
                .contains("Conflicting: the same, but the key's row in fleet.positions holds other content")
                .contains("Stalled: a raw record the pipeline has not committed past")
                .contains("--stalled-after")
                .contains("not catching up within DURATION is a failure")
                .contains("--vehicle-prefix")
                .contains("--json")
                .contains("Exit status 0");
    }

    private static VerifyScope scope(String... arguments) {
        VerifyCommand command = new VerifyCommand();
        new CommandLine(command).parseArgs(arguments);
        return command.scope(NOW);
    }
}

package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PlanningApiMainTest {
    private final StringWriter output = new StringWriter();

    @Test
    void helpDescribesTheOptionsAndKeys() {
        int status = command().execute("--help");

        assertThat(status).isZero();
        assertThat(output.toString())
                .contains("Usage: planning-api")
                .contains("--config")
                .contains("--set")
                .contains("planning.port (8090)")
                .contains("simulator.seed")
                .contains("FLEET_PLANNING_PORT");
    }

    @Test
    void invalidConfigurationFailsTheStart() {
        assertThat(command().execute("--set", "planning.port=-1")).isEqualTo(1);
    }

    private CommandLine command() {
        return new CommandLine(new PlanningApiMain()).setOut(new PrintWriter(output, true));
    }
}

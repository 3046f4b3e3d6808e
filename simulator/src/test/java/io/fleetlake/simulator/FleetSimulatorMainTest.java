package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FleetSimulatorMainTest {
    private final StringWriter output = new StringWriter();

    @Test
    void helpDescribesTheOptionsAndKeys() {
        int status = command().execute("--help");

        assertThat(status).isZero();
        assertThat(output.toString())
                .contains("Usage: fleet-simulator")
                .contains("--config")
                .contains("--set")
                .contains("simulator.mqtt-uri")
                .contains("FLEET_SIMULATOR_VEHICLES");
    }

    @Test
    void invalidConfigurationFailsTheStart() {
        assertThat(command().execute("--set", "simulator.vehicles=0"))
                .isEqualTo(FleetSimulatorMain.EXIT_STARTUP_FAILED);
    }

    @Test
    void unreachableBrokerFailsTheStart() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }

        int status = command().execute("--set", "simulator.mqtt-uri=tcp://127.0.0.1:" + port);

        assertThat(status).isEqualTo(FleetSimulatorMain.EXIT_STARTUP_FAILED);
        assertThat(output.toString()).isEmpty();
    }

    private CommandLine command() {
        return new CommandLine(new FleetSimulatorMain()).setOut(new PrintWriter(output, true));
    }
}

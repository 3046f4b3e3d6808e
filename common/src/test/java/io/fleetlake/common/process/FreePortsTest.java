package io.fleetlake.common.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortsTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @TempDir
    Path directory;

    @Test
    void picksABindablePortBelowTheKernelsRangeForConnections() throws IOException {
        int port = FreePorts.pick(LOOPBACK);

        assertThat(port)
                .isGreaterThanOrEqualTo(FreePorts.LOWEST)
                .isLessThan(FreePorts.ephemeralLow(Path.of("/proc/sys/net/ipv4/ip_local_port_range")));
        try (ServerSocket socket = new ServerSocket(port, 1, LOOPBACK)) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void skipsPortsInUseAndPortsAlreadyPicked() throws IOException {
        int free = FreePorts.pick(LOOPBACK);
        int highest = FreePorts.ephemeralLow(Path.of("/proc/sys/net/ipv4/ip_local_port_range")) - 1;
        // Every port of the range but two is taken: one of those two is bound, so only the other can be picked.
        Set<Integer> taken =
                IntStream.rangeClosed(FreePorts.LOWEST, highest).boxed().collect(Collectors.toCollection(HashSet::new));
        taken.remove(free);
        int bound = free == highest ? highest - 1 : highest;
        taken.remove(bound);
        try (ServerSocket occupied = new ServerSocket(bound, 1, LOOPBACK)) {
            assertThat(FreePorts.pick(LOOPBACK, taken)).isEqualTo(free);
        }
    }

    @Test
    void readsTheLowEndOfTheRangeAndFallsBackToTheDefault() throws IOException {
        Path range = directory.resolve("ip_local_port_range");
        Files.writeString(range, "40000\t60999\n");
        assertThat(FreePorts.ephemeralLow(range)).isEqualTo(40_000);

        Files.writeString(range, "garbage");
        assertThat(FreePorts.ephemeralLow(range)).isEqualTo(FreePorts.DEFAULT_EPHEMERAL_LOW);
        assertThat(FreePorts.ephemeralLow(directory.resolve("missing"))).isEqualTo(FreePorts.DEFAULT_EPHEMERAL_LOW);
    }
}

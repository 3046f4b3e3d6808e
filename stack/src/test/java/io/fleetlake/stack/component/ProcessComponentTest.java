package io.fleetlake.stack.component;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ProcessComponentTest {
    @TempDir
    Path directory;

    @Test
    void aPortHeldByAnotherProcessIsReportedWithThatProcess() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            ProcessComponent component = sleeper(taken.getLocalPort());

            assertThatThrownBy(component::start)
                    .hasMessageStartingWith("Port " + taken.getLocalPort() + " of sleeper is already in use by pid "
                            + ProcessHandle.current().pid())
                    .hasMessageContaining("stop that process");
            assertThat(component.processHandle()).isEmpty();
        }
    }

    @Test
    void aProbeAnsweredByAnotherProcessDoesNotMakeItHealthy() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        ProcessComponent component = sleeper(port);
        component.start();
        try (ServerSocket impostor = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            // The probe passes (something answers on the port), but the process the stack started is not listening.
            assertThat(component.isHealthy()).isFalse();
        } finally {
            component.stop();
        }
    }

    @Test
    void healthyWhenItsOwnProcessListens() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        ProcessComponent component = ProcessComponent.builder("listener")
                .command(() -> List.of(
                        "python3",
                        "-c",
                        "import socket,time; s=socket.socket(); s.bind(('127.0.0.1'," + port
                                + ")); s.listen(); time.sleep(600)"))
                .workingDirectory(directory)
                .logFile(directory.resolve("listener.log"))
                .healthProbe(() -> true)
                .listensOn(port)
                .build();
        component.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(component::isHealthy);
            assertThat(component.pidFile()).exists();
        } finally {
            component.stop();
        }
        assertThat(component.pidFile()).doesNotExist();
    }

    @Test
    void buildSaysWhatIsMissing() {
        assertThatThrownBy(() -> ProcessComponent.builder("kafka").build())
                .hasMessage("Process component kafka needs command(...) before build()");
        assertThatThrownBy(() -> ProcessComponent.builder("kafka").listensOn(70_000))
                .hasMessage("kafka: no TCP port 70000");
    }

    private ProcessComponent sleeper(int port) {
        return ProcessComponent.builder("sleeper")
                .command(() -> List.of("sleep", "600"))
                .workingDirectory(directory)
                .logFile(directory.resolve("sleeper.log"))
                .healthProbe(() -> true)
                .listensOn(port)
                .build();
    }
}

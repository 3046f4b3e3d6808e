package io.fleetlake.common.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ListeningSocketsTest {
    @BeforeEach
    void linuxOnly() {
        // The stack's launcher runs on Linux; the checks are skipped (and say so) where /proc is missing.
        assertThat(ListeningSockets.available())
                .as("/proc tells sockets and descriptors")
                .isTrue();
    }

    @Test
    void tellsWhichProcessListensOnAPort() throws Exception {
        ProcessHandle self = ProcessHandle.current();
        Process other = new ProcessBuilder("sleep", "600").start();
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = socket.getLocalPort();

            assertThat(ListeningSockets.isListening(port)).isTrue();
            assertThat(ListeningSockets.listensOn(self, port)).isTrue();
            assertThat(ListeningSockets.listensOn(other.toHandle(), port)).isFalse();
            assertThat(ListeningSockets.ownerOf(port).map(ProcessHandle::pid)).contains(self.pid());
            assertThat(ListeningSockets.describe(self)).startsWith("pid " + self.pid() + " (");

            socket.close();
            assertThat(ListeningSockets.isListening(port)).isFalse();
            assertThat(ListeningSockets.ownerOf(port)).isEmpty();
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void aDescendantListeningCountsForItsAncestor() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            // This JVM is the descendant of its parent (the build): the parent counts as listening on its port.
            ProcessHandle parent = ProcessHandle.current().parent().orElseThrow();
            assertThat(ListeningSockets.listensOn(parent, socket.getLocalPort()))
                    .isTrue();
        }
    }
}

package io.fleetlake.common.process;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks a TCP port for a server that binds it later (a child process, a server configured before it starts): the one
 * way the project chooses free ports. The kernel's own choice (binding port 0) comes from the range it also gives
 * outgoing connections as their local ports (Linux: {@code net.ipv4.ip_local_port_range}, 32768–60999 by default), so
 * any connection made meanwhile can take that port, and the server then fails with "address already in use". The
 * ports picked here lie below that range and above the stack's default ports (11000–19999), where only an explicit
 * bind takes a port.
 */
public final class FreePorts {
    static final int LOWEST = 20_000;
    static final int DEFAULT_EPHEMERAL_LOW = 32_768;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int ATTEMPTS = 200;

    private FreePorts() {}

    /** A port nothing is bound to on {@code address} now. */
    public static int pick(InetAddress address) {
        return pick(address, Set.of());
    }

    /** A port nothing is bound to on {@code address} now, and not one of {@code taken} (picked, not yet bound). */
    public static int pick(InetAddress address, Set<Integer> taken) {
        requireNonNull(address, "address is null");
        requireNonNull(taken, "taken is null");
        int highest = ephemeralLow(EPHEMERAL_RANGE) - 1;
        if (highest < LOWEST) {
            // A system that hands out low ports for connections leaves no safer range: take the kernel's choice.
            return kernelChoice(address, taken);
        }
        // From a random start, so that processes picking at once rarely try the same ports, through the whole range.
        int size = highest - LOWEST + 1;
        int start = ThreadLocalRandom.current().nextInt(size);
        for (int offset = 0; offset < size; offset++) {
            int port = LOWEST + (start + offset) % size;
            if (!taken.contains(port) && bindable(address, port)) {
                return port;
            }
        }
        throw new IllegalStateException(
                "No free port on " + address.getHostAddress() + " between " + LOWEST + " and " + highest);
    }

    /** The first port of the kernel's range for outgoing connections, from {@code rangeFile} (two numbers). */
    static int ephemeralLow(Path rangeFile) {
        // A reader, not Files.readString, which returned only the file's first byte from /proc here (it sizes its
        // buffer by the file's length, which /proc reports as 0).
        try (BufferedReader reader = Files.newBufferedReader(rangeFile, StandardCharsets.US_ASCII)) {
            String line = reader.readLine();
            return Integer.parseInt(line == null ? "" : line.trim().split("\\s+")[0]);
        } catch (IOException | NumberFormatException e) {
            // Not Linux, or not readable: Linux's and most systems' default.
            return DEFAULT_EPHEMERAL_LOW;
        }
    }

    private static int kernelChoice(InetAddress address, Set<Integer> taken) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, address)) {
                if (!taken.contains(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new IllegalStateException("Cannot bind a port on " + address.getHostAddress(), e);
            }
        }
        throw new IllegalStateException("No free port on " + address.getHostAddress());
    }

    private static boolean bindable(InetAddress address, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(address, port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

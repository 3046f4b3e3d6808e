package io.fleetlake.trino;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a Linux process listens on, read from {@code /proc} (what {@code ss -ltnp} shows for one pid),
 * so the test needs neither iproute2 nor root.
 */
final class ListeningSockets {
    private static final String LISTEN_STATE = "0A";

    private ListeningSockets() {}

    static boolean supported() {
        return Files.isDirectory(Path.of("/proc/self/fd")) && Files.isRegularFile(Path.of("/proc/net/tcp"));
    }

    static List<InetSocketAddress> of(long pid) {
        Path process = Path.of("/proc", Long.toString(pid));
        Set<String> socketInodes = socketInodes(process.resolve("fd"));
        List<InetSocketAddress> listening = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path file = process.resolve("net").resolve(table);
            if (!Files.isRegularFile(file)) {
                continue;
            }
            try (Stream<String> lines = Files.lines(file)) {
                lines.skip(1).map(String::trim).map(line -> line.split("\\s+")).forEach(columns -> {
                    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                    if (columns[3].equals(LISTEN_STATE) && socketInodes.contains(columns[9])) {
                        listening.add(address(columns[1]));
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return listening;
    }

    private static Set<String> socketInodes(Path fdDirectory) {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> descriptors = Files.list(fdDirectory)) {
            descriptors.forEach(descriptor -> {
                try {
                    String target = Files.readSymbolicLink(descriptor).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // A descriptor closed between listing and reading has no socket to report.
                    if (Files.exists(descriptor, LinkOption.NOFOLLOW_LINKS)) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inodes;
    }

    /** {@code 0100007F:1F90} or a 32-digit IPv6 form; each 32-bit word is in host (little-endian) byte order. */
    private static InetSocketAddress address(String hexAddress) {
        String[] parts = hexAddress.split(":");
        String hexIp = parts[0];
        byte[] bytes = new byte[hexIp.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int index = 0; index < 4; index++) {
                int offset = (word * 4 + 3 - index) * 2;
                bytes[word * 4 + index] = (byte) Integer.parseInt(hexIp.substring(offset, offset + 2), 16);
            }
        }
        try {
            // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) comes back as the IPv4 address.
            return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("Not an address: " + hexAddress, e);
        }
    }
}

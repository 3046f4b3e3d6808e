package io.fleetlake.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The TCP sockets this JVM listens on, read from Linux's /proc. */
final class ListeningSockets {
    private static final Pattern SOCKET_LINK = Pattern.compile("socket:\\[(\\d+)]");
    private static final String LISTEN_STATE = "0A";

    private ListeningSockets() {}

    static boolean available() {
        return Files.isReadable(Path.of("/proc/self/fd")) && Files.isReadable(Path.of("/proc/net/tcp"));
    }

    /** Local addresses as hexadecimal {@code address:port} as /proc writes them, for example 0100007F:1F90. */
    static List<String> ofThisProcess() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            for (Path descriptor : descriptors.toList()) {
                try {
                    Matcher matcher = SOCKET_LINK.matcher(
                            Files.readSymbolicLink(descriptor).toString());
                    if (matcher.matches()) {
                        inodes.add(matcher.group(1));
                    }
                } catch (IOException e) {
                    // The descriptor was closed while listing; it cannot be listening then.
                    continue;
                }
            }
        }
        List<String> listening = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.isReadable(path)) {
                continue;
            }
            // Read once: the table changes while sockets open and close, so two reads need not agree on its length.
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] columns = line.trim().split("\\s+");
                if (columns[3].equals(LISTEN_STATE) && inodes.contains(columns[9])) {
                    listening.add(columns[1]);
                }
            }
        }
        return listening;
    }

    /** Whether a /proc local address is on the IPv4 or IPv6 loopback. */
    static boolean isLoopback(String localAddress) {
        String address = localAddress.substring(0, localAddress.indexOf(':'));
        return address.endsWith("7F") && address.length() == 8
                || address.equals("00000000000000000000000001000000")
                || address.equals("0000000000000000FFFF00000100007F");
    }
}

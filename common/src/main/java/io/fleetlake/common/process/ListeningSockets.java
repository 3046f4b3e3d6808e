package io.fleetlake.common.process;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which process listens on a TCP port, read from Linux's {@code /proc}: the socket tables ({@code /proc/net/tcp},
 * {@code tcp6}) map a listening port to socket inodes, and a process's descriptors ({@code /proc/<pid>/fd}) link to the
 * inodes it holds. A launcher uses it to accept a health probe's answer only from the process it started itself, and to
 * name the process that holds a port it needs. Where {@code /proc} is missing, {@link #available()} is false and the
 * callers skip these checks.
 */
public final class ListeningSockets {
    private static final Pattern SOCKET_LINK = Pattern.compile("socket:\\[(\\d+)]");
    private static final Pattern PID = Pattern.compile("\\d+");
    private static final String LISTEN_STATE = "0A";
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private ListeningSockets() {}

    /** True where {@code /proc} tells sockets and descriptors (Linux). */
    public static boolean available() {
        return Files.isReadable(TABLES.get(0)) && Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** True when some process listens on {@code port} (any address). */
    public static boolean isListening(int port) throws IOException {
        return !listeningInodes(port).isEmpty();
    }

    /** True when {@code process} or one of its descendants listens on {@code port}. */
    public static boolean listensOn(ProcessHandle process, int port) throws IOException {
        requireNonNull(process, "process is null");
        Set<String> listening = listeningInodes(port);
        if (listening.isEmpty()) {
            return false;
        }
        if (holdsAny(process.pid(), listening)) {
            return true;
        }
        for (ProcessHandle descendant : process.descendants().toList()) {
            if (holdsAny(descendant.pid(), listening)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A process that listens on {@code port}, to name it in an error message; empty when none does or it belongs to a
     * user whose descriptors this one cannot read.
     */
    public static Optional<ProcessHandle> ownerOf(int port) throws IOException {
        Set<String> listening = listeningInodes(port);
        if (listening.isEmpty()) {
            return Optional.empty();
        }
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path directory : processes.toList()) {
                String name = directory.getFileName().toString();
                if (PID.matcher(name).matches() && holdsAny(Long.parseLong(name), listening)) {
                    return ProcessHandle.of(Long.parseLong(name));
                }
            }
        }
        return Optional.empty();
    }

    /** A process as an error message names it: its pid and command line. */
    public static String describe(ProcessHandle process) {
        return "pid " + process.pid()
                + process.info()
                        .commandLine()
                        .map(line -> " (" + abbreviate(line) + ")")
                        .orElse("");
    }

    private static String abbreviate(String commandLine) {
        return commandLine.length() <= 160 ? commandLine : commandLine.substring(0, 157) + "...";
    }

    private static Set<String> listeningInodes(int port) throws IOException {
        String hexPort = String.format("%04X", port);
        Set<String> inodes = new HashSet<>();
        for (Path table : TABLES) {
            if (!Files.isReadable(table)) {
                continue;
            }
            // Read once: the table changes while sockets open and close, so two reads need not agree on its length.
            List<String> lines = Files.readAllLines(table);
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] columns = line.trim().split("\\s+");
                if (columns.length > 9
                        && columns[3].equals(LISTEN_STATE)
                        && columns[1].endsWith(":" + hexPort)
                        && !columns[9].equals("0")) {
                    inodes.add(columns[9]);
                }
            }
        }
        return inodes;
    }

    private static boolean holdsAny(long pid, Set<String> inodes) {
        Path descriptors = Path.of("/proc", Long.toString(pid), "fd");
        try (Stream<Path> links = Files.list(descriptors)) {
            for (Path descriptor : links.toList()) {
                Optional<String> inode = socketInode(descriptor);
                if (inode.isPresent() && inodes.contains(inode.get())) {
                    return true;
                }
            }
            return false;
        } catch (IOException | SecurityException e) {
            // The process ended while listing, or belongs to another user: it holds nothing this process can see.
            return false;
        }
    }

    private static Optional<String> socketInode(Path descriptor) {
        try {
            Matcher matcher =
                    SOCKET_LINK.matcher(Files.readSymbolicLink(descriptor).toString());
            return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
        } catch (IOException e) {
            // The descriptor was closed while listing; it cannot be listening then.
            return Optional.empty();
        }
    }
}

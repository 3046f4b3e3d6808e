package io.fleetlake.bench.observe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * CPU time of the component processes the bench started (descendants of this JVM), found by their main class. The
 * command line is read from {@code /proc/<pid>/cmdline}: {@link ProcessHandle.Info#arguments()} is empty on Linux for
 * command lines as long as the components' class paths.
 */
public final class ProcessCpu {
    private ProcessCpu() {}

    /** The newest live descendant process whose command line names the class; empty where there is no /proc. */
    public static Optional<ProcessHandle> find(String mainClass) {
        return ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .filter(process -> commandLine(process.pid()).contains(mainClass))
                .max(Comparator.comparing(
                        process -> process.info().startInstant().orElse(Instant.EPOCH)));
    }

    /** User plus system CPU time the process has used so far, if the operating system tells. */
    public static Optional<Duration> cpuTime(ProcessHandle process) {
        return process.info().totalCpuDuration();
    }

    /** The process's arguments, the program included; empty when it has exited or there is no /proc. */
    static List<String> commandLine(long pid) {
        try {
            return parseCommandLine(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")));
        } catch (IOException e) {
            // The process exited between listing and reading: it is not the one looked for.
            return List.of();
        }
    }

    /** {@code /proc/<pid>/cmdline}: the arguments, each ended by a NUL byte. */
    static List<String> parseCommandLine(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return List.of();
        }
        return Arrays.asList(text.split("\0"));
    }
}

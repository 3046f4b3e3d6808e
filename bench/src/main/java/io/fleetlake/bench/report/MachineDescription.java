package io.fleetlake.bench.report;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The machine a run was measured on.
 *
 * @param cores processors available to the JVM
 * @param memoryBytes physical memory
 * @param jdk the JVM running the bench (every component but Trino runs on the same one)
 * @param operatingSystem name, version and architecture
 * @param date when the run started
 * @param loadAverage the 1, 5 and 15 minute load averages at the start, as {@code /proc/loadavg} shows them
 */
public record MachineDescription(
        int cores, long memoryBytes, String jdk, String operatingSystem, Instant date, String loadAverage) {
    private static final Path LOAD_AVERAGE = Path.of("/proc/loadavg");

    public MachineDescription {
        requireNonNull(jdk, "jdk is null");
        requireNonNull(operatingSystem, "operatingSystem is null");
        requireNonNull(date, "date is null");
        requireNonNull(loadAverage, "loadAverage is null");
    }

    /** This machine, now. */
    public static MachineDescription current() {
        long memory =
                ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                        ? os.getTotalMemorySize()
                        : -1;
        return new MachineDescription(
                Runtime.getRuntime().availableProcessors(),
                memory,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                Instant.now(),
                currentLoadAverage().orElse("unknown (no /proc/loadavg)"));
    }

    /** The 1, 5 and 15 minute load averages, such as {@code 0.42 0.80 1.10}. */
    public static Optional<String> currentLoadAverage() {
        try {
            String[] fields = Files.readString(LOAD_AVERAGE).trim().split("\\s+");
            return fields.length >= 3 ? Optional.of(fields[0] + " " + fields[1] + " " + fields[2]) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public String memory() {
        return memoryBytes < 0
                ? "unknown"
                : String.format(Locale.ROOT, "%.1f GiB", memoryBytes / (1024.0 * 1024 * 1024));
    }
}

package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * CPU time from Linux's {@code /proc}: of a process ({@code /proc/<pid>/stat}), of each of its threads ({@code
 * /proc/<pid>/task/<tid>/stat}, named by the thread's name as the kernel knows it, 15 characters at most) and of the
 * whole machine ({@code /proc/stat}). Times are in clock ticks of {@link #TICKS_PER_SECOND}.
 *
 * <p>A process that exits between listing and reading is simply absent from the answer: these are measurements, and
 * the caller keeps the last value it saw.
 */
public final class ProcStat {
    /**
     * USER_HZ, the unit of the times in {@code /proc}: 100 on every architecture the JDK runs on under Linux (x86,
     * arm64, ppc64, s390x, riscv64); it is not the kernel's internal tick rate.
     */
    public static final int TICKS_PER_SECOND = 100;

    private final Path root;

    public ProcStat(Path root) {
        this.root = requireNonNull(root, "root is null");
    }

    /** The machine's own {@code /proc}. */
    public static ProcStat system() {
        return new ProcStat(Path.of("/proc"));
    }

    /** Whether this machine has a {@code /proc} to read (Linux). */
    public boolean available() {
        return Files.isReadable(root.resolve("stat"));
    }

    /** User + system CPU of a process (all its threads, not its children), or empty when it is gone. */
    public Optional<ProcessTime> process(long pid) {
        return read(root.resolve(Long.toString(pid)).resolve("stat")).map(ProcStat::parseProcessTime);
    }

    /** User + system CPU of every thread of a process; empty when it is gone. */
    public List<ThreadTime> threads(long pid) {
        Path tasks = root.resolve(Long.toString(pid)).resolve("task");
        List<ThreadTime> threads = new ArrayList<>();
        try (Stream<Path> entries = Files.list(tasks)) {
            for (Path task : entries.toList()) {
                read(task.resolve("stat")).map(ProcStat::parseThreadTime).ifPresent(threads::add);
            }
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot list the threads of process " + pid + " in " + tasks, e);
        }
        return threads;
    }

    /** The machine's CPU time since boot, over all cores. */
    public MachineTime machine() {
        return read(root.resolve("stat"))
                .map(ProcStat::parseMachineTime)
                .orElseThrow(() -> new IllegalStateException("Cannot read " + root.resolve("stat")));
    }

    /**
     * Parses a {@code /proc/<pid>/stat} line. The second field, the command name in parentheses, may itself contain
     * spaces and parentheses, so the fields are counted from its last closing parenthesis.
     */
    static ProcessTime parseProcessTime(String line) {
        String[] fields = fieldsAfterName(line);
        // fields[0] is field 3 (state); utime is field 14, stime 15, starttime 22.
        return new ProcessTime(
                Long.parseLong(line.substring(0, line.indexOf(' ')).trim()),
                Long.parseLong(fields[11]) + Long.parseLong(fields[12]),
                Long.parseLong(fields[19]));
    }

    static ThreadTime parseThreadTime(String line) {
        String[] fields = fieldsAfterName(line);
        return new ThreadTime(
                Long.parseLong(line.substring(0, line.indexOf(' ')).trim()),
                line.substring(line.indexOf('(') + 1, line.lastIndexOf(')')),
                Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
    }

    /** Parses the first line of {@code /proc/stat}: {@code cpu user nice system idle iowait irq softirq steal ...}. */
    static MachineTime parseMachineTime(String content) {
        String first =
                content.lines().findFirst().orElseThrow(() -> new IllegalArgumentException("/proc/stat is empty"));
        String[] fields = first.trim().split("\\s+");
        if (!fields[0].equals("cpu") || fields.length < 9) {
            throw new IllegalArgumentException("Not the cpu line of /proc/stat: " + first);
        }
        long user = Long.parseLong(fields[1]);
        long nice = Long.parseLong(fields[2]);
        long system = Long.parseLong(fields[3]);
        long idle = Long.parseLong(fields[4]);
        long iowait = Long.parseLong(fields[5]);
        long irq = Long.parseLong(fields[6]);
        long softirq = Long.parseLong(fields[7]);
        long steal = Long.parseLong(fields[8]);
        return new MachineTime(user + nice + system + irq + softirq + steal, idle + iowait);
    }

    private static String[] fieldsAfterName(String line) {
        int end = line.lastIndexOf(')');
        if (end < 0) {
            throw new IllegalArgumentException("Not a /proc stat line: " + line);
        }
        String[] fields = line.substring(end + 1).trim().split("\\s+");
        if (fields.length < 20) {
            throw new IllegalArgumentException("Too few fields in /proc stat line: " + line);
        }
        return fields;
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            // A process that exits while its file is read gives ESRCH rather than ENOENT.
            if (!Files.exists(file.getParent())) {
                return Optional.empty();
            }
            throw new IllegalStateException("Cannot read " + file, e);
        }
    }

    /**
     * @param pid the process
     * @param ticks user + system CPU since it started
     * @param startTicks when it started, in ticks since boot: with the pid it tells a reused pid from the same process
     */
    public record ProcessTime(long pid, long ticks, long startTicks) {}

    /**
     * @param tid the thread's id
     * @param name the thread's name as the kernel knows it (at most 15 characters)
     * @param ticks user + system CPU since it started
     */
    public record ThreadTime(long tid, String name, long ticks) {
        public ThreadTime {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * @param busyTicks user, nice, system, interrupt and steal time over all cores since boot
     * @param idleTicks idle and I/O wait time over all cores since boot
     */
    public record MachineTime(long busyTicks, long idleTicks) {}
}

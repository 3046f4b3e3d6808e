package io.fleetlake.stack.process;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.process.LogFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child process of the launcher whose output goes to a log file. Every start appends to the log after a start marker
 * ({@link LogFiles}), so the log of a crashed run is still there after the restart. Stopping sends SIGTERM to the
 * process and its descendants, waits for a grace period and then kills whatever is left, so that no orphan survives
 * the launcher.
 */
public final class ManagedProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedProcess.class);
    private static final int LOG_TAIL_LINES = 40;
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Path KILL = Path.of("/bin/kill");

    private final String name;
    private final Process process;
    private final Path logFile;
    private volatile boolean paused;

    private ManagedProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code command}, appending its standard output and error to {@code logFile} after a start marker (the file
     * is rotated first when it has grown large; see {@link LogFiles}).
     *
     * @param environment variables added to the launcher's own environment
     */
    public static ManagedProcess start(
            String name, List<String> command, Path workingDirectory, Map<String, String> environment, Path logFile) {
        requireNonNull(name, "name is null");
        requireNonNull(command, "command is null");
        requireNonNull(workingDirectory, "workingDirectory is null");
        requireNonNull(environment, "environment is null");
        requireNonNull(logFile, "logFile is null");
        try {
            Files.createDirectories(workingDirectory);
            LogFiles.beginRun(logFile, name);
            ProcessBuilder builder = new ProcessBuilder(inOwnSession(command))
                    .directory(workingDirectory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(environment);
            LOG.debug("Starting {}: {}", name, String.join(" ", command));
            return new ManagedProcess(name, builder.start(), logFile);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    /**
     * Ctrl-C in a terminal signals the whole foreground process group. Children in a session of their own are not
     * signalled by it, so the launcher stops them itself, in reverse dependency order. setsid keeps the pid (it execs
     * when its caller is not a group leader), so stopping and killing still reach the server.
     */
    private static List<String> inOwnSession(List<String> command) {
        if (!Files.isExecutable(SETSID)) {
            return command;
        }
        List<String> wrapped = new ArrayList<>();
        wrapped.add(SETSID.toString());
        wrapped.addAll(command);
        return wrapped;
    }

    public String name() {
        return name;
    }

    public Path logFile() {
        return logFile;
    }

    public long pid() {
        return process.pid();
    }

    /** The operating system's handle of the process, for its CPU time and other information. */
    public ProcessHandle handle() {
        return process.toHandle();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Exit code, or -1 while the process runs. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** The last lines of the log, to put into an error message when the process fails. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join(
                    System.lineSeparator(), lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log " + logFile + " is not readable: " + e.getMessage() + ")";
        }
    }

    /** Stops the process and its descendants; see the class comment. */
    public void stop(Duration gracePeriod) {
        if (paused && process.isAlive()) {
            // A stopped process would only see SIGTERM once it runs again.
            resume();
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(gracePeriod.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("{} did not stop within {} s; killing it", name, gracePeriod.toSeconds());
                process.destroyForcibly();
                process.waitFor(gracePeriod.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Freezes the process and its descendants with SIGSTOP, as a stalled machine, a long garbage collection or a hung
     * disk would: it keeps its sockets open but answers nothing until {@link #resume()}. For failure-injection tests.
     */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** Lets a {@link #pause() paused} process and its descendants run again (SIGCONT). */
    public void resume() {
        signal("CONT");
        paused = false;
    }

    /** True between {@link #pause()} and {@link #resume()}. */
    public boolean isPaused() {
        return paused;
    }

    private void signal(String signal) {
        List<String> command = new ArrayList<>(List.of(KILL.toString(), "-" + signal, Long.toString(process.pid())));
        process.descendants().forEach(descendant -> command.add(Long.toString(descendant.pid())));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException(
                        "Cannot send SIG" + signal + " to " + name + " (pid " + process.pid() + "): " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + KILL + " to send SIG" + signal + " to " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + name, e);
        }
        LOG.info("Sent SIG{} to {} (pid {})", signal, name, process.pid());
    }

    /** Kills the process without a grace period, as a crash would; for failure tests. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(30));
    }
}

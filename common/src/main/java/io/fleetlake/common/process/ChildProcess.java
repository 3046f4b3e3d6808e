package io.fleetlake.common.process;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server process started by a launcher (the stack, the Trino assembly), with its output appended to a log file. The
 * one way the project runs and stops the processes it supervises.
 *
 * <ul>
 *   <li><b>It dies with its launcher.</b> On Linux the process gets the parent-death signal SIGTERM ({@code setpriv
 *       --pdeathsig}), so a launcher that is killed ({@code kill -9}, the OOM killer) takes its servers with it instead
 *       of leaving orphans that hold their ports. The kernel sends that signal when the <em>thread</em> that created the
 *       process ends, not the process, so every child is created by one thread that lives as long as the JVM.
 *   <li><b>A leftover of an earlier run is stopped before a new one starts.</b> With a pid file, the process's pid and
 *       start time are recorded at start and removed at a stop; a start that finds the file naming a live process
 *       with that start time (a launcher that could not signal it, a server that ignored the signal) stops that process
 *       and its descendants first.
 *   <li><b>Ctrl-C reaches it once.</b> It runs in a session of its own ({@code setsid}), so the terminal's Ctrl-C goes
 *       to the launcher only, which stops its children itself, in order. {@code setsid} and {@code setpriv} exec the
 *       command in place, so the pid stays the server's.
 *   <li><b>Its log survives it.</b> Every start appends after a start marker ({@link LogFiles}).
 *   <li><b>A stop is SIGTERM, a grace period, then SIGKILL</b>, for the process and its descendants.
 * </ul>
 */
public final class ChildProcess {
    private static final Logger LOG = LoggerFactory.getLogger(ChildProcess.class);
    private static final int LOG_TAIL_LINES = 40;
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private static final Path KILL = Path.of("/bin/kill");
    private static final Duration LEFTOVER_GRACE_PERIOD = Duration.ofSeconds(30);

    /**
     * The thread that creates every child process. The parent-death signal is tied to the creating thread, and a
     * pooled thread that ends after a while idle would take the children it created with it; this one never ends.
     */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "child-process-spawner");
        thread.setDaemon(true);
        return thread;
    });

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Optional<Path> pidFile;
    private volatile boolean paused;

    private ChildProcess(String name, Process process, Path logFile, Optional<Path> pidFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.pidFile = pidFile;
    }

    /**
     * Starts {@code command}, appending its standard output and error to {@code logFile} after a start marker (the
     * file is rotated first when it has grown large; see {@link LogFiles}).
     *
     * @param environment variables added to the launcher's own environment
     * @param pidFile where the process is recorded, so that a later start stops it if it outlived its launcher; see
     *     the class comment
     */
    public static ChildProcess start(
            String name,
            List<String> command,
            Path workingDirectory,
            Map<String, String> environment,
            Path logFile,
            Optional<Path> pidFile) {
        requireNonNull(name, "name is null");
        requireNonNull(command, "command is null");
        requireNonNull(workingDirectory, "workingDirectory is null");
        requireNonNull(environment, "environment is null");
        requireNonNull(logFile, "logFile is null");
        requireNonNull(pidFile, "pidFile is null");
        pidFile.ifPresent(file -> stopLeftover(name, file));
        try {
            Files.createDirectories(workingDirectory);
            LogFiles.beginRun(logFile, name);
            ProcessBuilder builder = new ProcessBuilder(wrapped(command))
                    .directory(workingDirectory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(environment);
            LOG.debug("Starting {}: {}", name, String.join(" ", command));
            Process process = spawn(builder, name, command);
            ChildProcess child = new ChildProcess(name, process, logFile, pidFile);
            pidFile.ifPresent(child::writePidFile);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    private static Process spawn(ProcessBuilder builder, String name, List<String> command) throws IOException {
        Future<Process> started = SPAWNER.submit(builder::start);
        try {
            return started.get();
        } catch (InterruptedException e) {
            // The start goes on without us; the process must not be left running unseen.
            started.cancel(false);
            stopQuietly(started);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting " + name, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("Cannot start " + name + " (" + command.get(0) + ")", e.getCause());
        }
    }

    private static void stopQuietly(Future<Process> started) {
        try {
            started.get(10, TimeUnit.SECONDS).destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | CancellationException e) {
            LOG.debug("The interrupted start did not produce a process: {}", e.toString());
        }
    }

    /** The command with the parent-death signal and a session of its own, where the system has the tools. */
    static List<String> wrapped(List<String> command) {
        List<String> wrapped = new ArrayList<>();
        if (Files.isExecutable(SETPRIV)) {
            wrapped.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "TERM", "--"));
        } else {
            LOG.warn(
                    "{} is missing: a child process outlives a launcher that is killed; the next start stops it",
                    SETPRIV);
        }
        if (Files.isExecutable(SETSID)) {
            wrapped.add(SETSID.toString());
        }
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Stops the process a pid file names when it is still the one that was recorded there (same pid and start time),
     * with its descendants; then removes the file. Nothing happens when the file is missing or names a process that has
     * ended. Starting with a pid file does this first; a launcher that must free a port before it starts (Trino checks
     * its port) calls it itself.
     */
    public static void stopLeftover(String name, Path pidFile) {
        requireNonNull(name, "name is null");
        requireNonNull(pidFile, "pidFile is null");
        Optional<PidRecord> recorded = PidRecord.read(pidFile);
        if (recorded.isEmpty()) {
            return;
        }
        Optional<ProcessHandle> leftover = recorded.get().liveProcess();
        if (leftover.isPresent()) {
            ProcessHandle process = leftover.get();
            LOG.warn(
                    "{} (pid {}, started {}) is still running from an earlier run of this data folder; stopping it"
                            + " before starting {} again",
                    name,
                    process.pid(),
                    recorded.get().startedAt(),
                    name);
            List<ProcessHandle> tree = new ArrayList<>();
            tree.add(process);
            tree.addAll(process.descendants().toList());
            // A hung leftover may be stopped (SIGSTOP): it acts on SIGTERM only once it runs again.
            tree.forEach(ProcessHandle::destroy);
            sendSignal(name, "CONT", tree);
            stopTree(name, process, tree.subList(1, tree.size()), LEFTOVER_GRACE_PERIOD);
        }
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot remove the pid file " + pidFile + ": " + e.getMessage(), e);
        }
    }

    private void writePidFile(Path file) {
        Optional<PidRecord> record = PidRecord.of(process.toHandle());
        if (record.isEmpty()) {
            // Ended at once: nothing outlives it, and its exit is reported by whoever watches it.
            return;
        }
        record.get().write(file);
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

    /** The operating system's handle of the process, for its CPU time, descendants and sockets. */
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

    /**
     * Waits up to {@code timeout} for the process to end.
     *
     * @return true when it has ended
     */
    public boolean waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Blocks until the process ends and returns its exit status. */
    public int awaitExit() throws InterruptedException {
        return process.waitFor();
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

    /** Stops the process and its descendants (see the class comment) and removes its pid file. */
    public void stop(Duration gracePeriod) {
        requireNonNull(gracePeriod, "gracePeriod is null");
        if (paused && process.isAlive()) {
            // A stopped process would only see SIGTERM once it runs again.
            resume();
        }
        stopTree(name, process.toHandle(), process.descendants().toList(), gracePeriod);
        removePidFile();
    }

    private static void stopTree(
            String name, ProcessHandle process, List<ProcessHandle> descendants, Duration gracePeriod) {
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        try {
            process.onExit().get(gracePeriod.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("{} (pid {}) did not stop within {} s; killing it", name, process.pid(), gracePeriod.toSeconds());
            process.destroyForcibly();
            awaitEnd(process, gracePeriod);
        } catch (ExecutionException e) {
            LOG.debug("Waiting for {} to end failed: {}", name, e.toString());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void awaitEnd(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("pid {} has not ended {} s after SIGKILL", process.pid(), timeout.toSeconds());
        }
    }

    private void removePidFile() {
        if (pidFile.isEmpty() || process.isAlive()) {
            return;
        }
        try {
            Files.deleteIfExists(pidFile.get());
        } catch (IOException e) {
            LOG.warn("Cannot remove the pid file {} of {}: {}", pidFile.get(), name, e.getMessage());
        }
    }

    /** Kills the process and its descendants without a grace period, as a crash would; for failure tests. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(process.toHandle());
        tree.addAll(process.descendants().toList());
        sendSignal(name, signal, tree);
        LOG.info("Sent SIG{} to {} (pid {})", signal, name, process.pid());
    }

    private static void sendSignal(String name, String signal, List<ProcessHandle> targets) {
        List<String> command = new ArrayList<>(List.of(KILL.toString(), "-" + signal));
        targets.forEach(target -> command.add(Long.toString(target.pid())));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.waitFor() != 0 && targets.get(0).isAlive()) {
                throw new IllegalStateException("Cannot send SIG" + signal + " to " + name + " (pid "
                        + targets.get(0).pid() + "): " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + KILL + " to send SIG" + signal + " to " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + name, e);
        }
    }
}

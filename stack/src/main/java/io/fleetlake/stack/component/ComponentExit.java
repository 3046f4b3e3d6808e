package io.fleetlake.stack.component;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How a component's process ended without being told to stop.
 *
 * @param exitCode the process's exit status; 128 + n when signal n killed it (137 for {@code kill -9})
 * @param logFile where the component logged, to read why it ended
 */
public record ComponentExit(int exitCode, Optional<Path> logFile) {
    private static final int SIGNAL_BASE = 128;
    private static final int SIGKILL = 9;

    public ComponentExit {
        requireNonNull(logFile, "logFile is null");
    }

    /** For example {@code "exit code 137 (killed by signal 9, SIGKILL: kill -9 or the kernel's OOM killer)"}. */
    public String describe() {
        if (exitCode > SIGNAL_BASE && exitCode < SIGNAL_BASE + 65) {
            int signal = exitCode - SIGNAL_BASE;
            String cause = signal == SIGKILL ? ", SIGKILL: kill -9 or the kernel's OOM killer" : "";
            return "exit code " + exitCode + " (killed by signal " + signal + cause + ")";
        }
        return "exit code " + exitCode;
    }
}

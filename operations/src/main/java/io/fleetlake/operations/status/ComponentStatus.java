package io.fleetlake.operations.status;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What the supervisor knows about one component.
 *
 * @param name the component
 * @param state whether it runs, is being restarted, or was given up on
 * @param pid its process while it runs
 * @param restarts how often the supervisor started it again since the stack started
 * @param failuresInARow failures since it last stayed up for the policy's stable time
 * @param lastExitCode exit status of its last unexpected end
 * @param lastFailure what went wrong last, such as {@code "exit code 137 (killed by signal 9 ...)"}
 * @param lastFailureAt when that was noticed
 * @param logFile where it logs
 */
public record ComponentStatus(
        String name,
        State state,
        OptionalLong pid,
        int restarts,
        int failuresInARow,
        OptionalInt lastExitCode,
        Optional<String> lastFailure,
        Optional<Instant> lastFailureAt,
        Optional<Path> logFile) {
    public ComponentStatus {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(pid, "pid is null");
        requireNonNull(lastExitCode, "lastExitCode is null");
        requireNonNull(lastFailure, "lastFailure is null");
        requireNonNull(lastFailureAt, "lastFailureAt is null");
        requireNonNull(logFile, "logFile is null");
    }

    /** Where a supervised component stands. */
    public enum State {
        /** Up and watched. */
        RUNNING,
        /** Ended by itself; waiting for its next start or starting again. */
        RESTARTING,
        /**
         * Optional for the stack and not healthy since the stack started (a slow or failing query-side component): the
         * stack runs without it while the supervisor keeps starting it with backoff.
         */
        STARTING,
        /** Failed {@code stack.restart-max-attempts} restarts in a row; no longer restarted. */
        GAVE_UP
    }
}

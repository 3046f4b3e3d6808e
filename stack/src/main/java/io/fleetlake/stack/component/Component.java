package io.fleetlake.stack.component;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One part of the embedded stack: a server process, an in-process server, or a one-shot set-up task. The stack starts
 * a component once all its dependencies are healthy, then polls {@link #isHealthy()} until it passes.
 */
public interface Component {
    /** Short name, unique in the stack: used for log files, configuration files and messages. */
    String name();

    /** Names of the components that must be healthy before this one starts. */
    Set<String> dependencies();

    /** Launches the component; may return before it is ready. */
    void start();

    /** One health probe; must not block for more than a couple of seconds. */
    boolean isHealthy();

    /** Why the component can no longer become healthy (for example its process exited), if that is known. */
    Optional<String> failure();

    /** Where users reach it, for example {@code PLAINTEXT://127.0.0.1:19092}; empty for set-up tasks. */
    String endpoint();

    /** The component's log file, if it writes one. */
    Optional<Path> logFile();

    /** Stops the component and releases what it holds; safe to call when it was never started. */
    void stop();

    /**
     * The operating-system process the component runs as, for measurements such as its CPU time; empty while it is
     * stopped, and for components that are not a process of their own (set-up tasks, in-process servers).
     */
    default Optional<ProcessHandle> processHandle() {
        return Optional.empty();
    }

    /**
     * How the component ended by itself: its process exited although nobody stopped it. Empty while it runs, before
     * {@link #start()}, after {@link #stop()}, and for a component that cannot tell; the stack's supervisor restarts
     * a component once this is present, so only components that implement it are supervised.
     */
    default Optional<ComponentExit> exit() {
        return Optional.empty();
    }

    /** The operating system's id of the component's running process, if it is one. */
    default OptionalLong pid() {
        return processHandle().filter(ProcessHandle::isAlive).stream()
                .mapToLong(ProcessHandle::pid)
                .findFirst();
    }
}

package io.fleetlake.maintenance.run;

/** Where a maintenance run tells what it is doing: the log for the service, the terminal for {@code fleet maintain}. */
@FunctionalInterface
public interface Progress {
    void step(String message);
}

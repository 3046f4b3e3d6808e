package io.fleetlake.stack.cli;

import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.supervision.ComponentStatus;
import io.fleetlake.stack.supervision.StackStatusFile;
import io.fleetlake.stack.supervision.StackStatusFile.StackStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fleet status}: what the running stack's supervisor knows about each component. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Show the components of the stack running on the data folder: state, process, restarts by the"
                + " supervisor and the last failure (from <data-dir>/stack-status.json). Exit status 1 when no stack"
                + " runs there or a component was given up on.")
public final class StatusCommand implements Callable<Integer> {
    @Mixin
    private StackOptions options;

    @Option(names = "--json", description = "Print the status file as it is.")
    private boolean json;

    @Override
    public Integer call() throws java.io.IOException {
        StackSettings settings = options.settings(options.configuration(), options.home());
        Path file = StackStatusFile.location(settings.dataDirectory());
        Optional<StackStatus> status = StackStatusFile.read(file);
        if (status.isEmpty()) {
            System.err.println("No stack has run on " + settings.dataDirectory() + " (no " + file.getFileName() + ")");
            return 1;
        }
        if (json) {
            System.out.println(Files.readString(file));
        } else {
            print(status.get());
        }
        boolean gaveUp = status.get().components().stream()
                .anyMatch(component -> component.state() == ComponentStatus.State.GAVE_UP);
        return status.get().launcherRunning() && !gaveUp ? 0 : 1;
    }

    private static void print(StackStatus status) {
        System.out.printf(
                "Stack started %s by pid %d (%s), %d restart(s) by the supervisor%n%n",
                status.startedAt(),
                status.launcherPid(),
                status.launcherRunning() ? "running" : "no longer running: this is the last run's status",
                status.totalRestarts());
        System.out.printf("%-14s %-11s %-9s %-9s %s%n", "Component", "State", "Pid", "Restarts", "Last failure");
        for (ComponentStatus component : status.components()) {
            System.out.printf(
                    "%-14s %-11s %-9s %-9d %s%n",
                    component.name(),
                    component.state(),
                    component.pid().isPresent() ? Long.toString(component.pid().getAsLong()) : "-",
                    component.restarts(),
                    component
                            .lastFailure()
                            .map(failure -> failure
                                    + component
                                            .lastFailureAt()
                                            .map(at -> " at " + at)
                                            .orElse(""))
                            .orElse("-"));
        }
    }
}

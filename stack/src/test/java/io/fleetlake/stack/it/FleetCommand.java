package io.fleetlake.stack.it;

import static java.util.Objects.requireNonNull;

import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cli.FleetCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine;

/**
 * Runs a {@code fleet} command in this JVM against a running test stack, as a user would from a terminal: the stack's
 * data folder, ports and credentials are passed as {@code --data-dir} and {@code --set} options.
 */
final class FleetCommand {
    private FleetCommand() {}

    static Result run(StackSettings settings, String... command) {
        return execute(settings, new StringWriter(), command);
    }

    /**
     * Starts a command on a thread of its own, for a test that acts while it runs; what it has written to standard error
     * so far (its progress) can be read meanwhile.
     */
    static Running start(StackSettings settings, String... command) {
        StringWriter err = new StringWriter();
        CompletableFuture<Result> result = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        result.complete(execute(settings, err, command));
                    } catch (RuntimeException | Error e) {
                        result.completeExceptionally(e);
                    }
                },
                "fleet-" + command[0]);
        thread.setDaemon(true);
        thread.start();
        return new Running(result, err);
    }

    private static Result execute(StackSettings settings, StringWriter err, String... command) {
        List<String> arguments = new ArrayList<>(List.of(command));
        arguments.addAll(stackOptions(settings));
        StringWriter out = new StringWriter();
        CommandLine commandLine = new CommandLine(new FleetCli());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(arguments.toArray(String[]::new));
        return new Result(exitCode, out.toString(), err.toString());
    }

    /** The options that point a command at the stack of {@code settings}. */
    static List<String> stackOptions(StackSettings settings) {
        List<String> options =
                new ArrayList<>(List.of("--data-dir", settings.dataDirectory().toString()));
        for (String key : settings.configuration().keys()) {
            if (!key.equals(StackSettings.FREE_PORTS) && !key.equals(StackSettings.DATA_DIRECTORY)) {
                options.add("--set");
                options.add(key + "=" + settings.configuration().string(key).orElseThrow());
            }
        }
        for (StackPort port : StackPort.values()) {
            options.add("--set");
            options.add(port.key() + "=" + settings.port(port));
        }
        return options;
    }

    /** A command started by {@link #start}. */
    record Running(CompletableFuture<Result> result, StringWriter err) {
        Running {
            requireNonNull(result, "result is null");
            requireNonNull(err, "err is null");
        }

        /** Its standard error so far. */
        String errSoFar() {
            return err.toString();
        }
    }

    /** What the command printed and its exit status. */
    record Result(int exitCode, String out, String err) {
        Result {
            requireNonNull(out, "out is null");
            requireNonNull(err, "err is null");
        }

        @Override
        public String toString() {
            return "exit code " + exitCode + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }
}

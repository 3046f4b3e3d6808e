package io.fleetlake.stack.cli;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.dashboard.DashboardOperators;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackDashboardIdentity;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleet dashboard-password}: sets or rotates the password of a dashboard operator of a data folder. The dashboard
 * reads the operators file at every sign-in and checks it on every request, so the new password applies at once and
 * every session signed in with the old one ends. The password is never taken from the command line (where other users
 * and the process list could read it): generated and printed once, or read from standard input with {@code --stdin}.
 */
@Command(
        name = "dashboard-password",
        mixinStandardHelpOptions = true,
        description = {
            "Set or rotate the password of a dashboard operator of a data folder: generated and printed once, or read"
                    + " from standard input (--stdin). Applies at once, without a restart; sessions signed in with the"
                    + " old password end."
        })
public final class DashboardPasswordCommand implements Callable<Integer> {
    @Mixin
    StackOptions options;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--user",
            paramLabel = "USER",
            defaultValue = DashboardOperators.OPERATOR,
            description = "The operator's user name (default: ${DEFAULT-VALUE}); a new name adds an operator.")
    private String user;

    @Option(
            names = "--stdin",
            description = "Read the new password (at least 12 characters) from the first line of standard input"
                    + " instead of generating one.")
    private boolean fromStandardInput;

    @Override
    public Integer call() {
        try {
            StackSettings settings = options.settings(options.configuration(), options.home());
            StackDashboardIdentity identity = StackDashboardIdentity.of(settings);
            if (fromStandardInput) {
                identity.operators().set(user, readPassword());
                identity.forget(user);
                spec.commandLine().getOut().println("Set the dashboard password of " + user + ".");
                return 0;
            }
            IssuedSecret issued = identity.operators().issue(user);
            identity.remember(issued);
            spec.commandLine().getOut().println("user:     " + issued.name());
            spec.commandLine().getOut().println("password: " + issued.secret());
            spec.commandLine()
                    .getOut()
                    .println("(fleet up and fleet demo show it again; only its hash is in "
                            + identity.operators().path() + ")");
            return 0;
        } catch (IllegalArgumentException | UncheckedIOException e) {
            spec.commandLine().getErr().println("fleet dashboard-password: " + e.getMessage());
            return 1;
        }
    }

    private static String readPassword() {
        try {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (line == null || line.isEmpty()) {
                throw new IllegalArgumentException("No password on standard input");
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the password from standard input", e);
        }
    }
}

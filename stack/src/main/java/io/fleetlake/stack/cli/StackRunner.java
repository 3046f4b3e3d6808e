package io.fleetlake.stack.cli;

import io.fleetlake.identity.dashboard.DashboardOperators;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.identity.StackDashboardIdentity;
import java.util.Optional;

/** Start-up and shutdown behaviour shared by the commands that run the stack. */
final class StackRunner {
    private StackRunner() {}

    /** Starts the stack; Ctrl-C or the end of the command stops it, in reverse order. */
    static void startWithShutdownHook(EmbeddedStack stack, StackSettings settings) {
        Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "stack-shutdown"));
        System.out.println("Starting the fleet stack in " + settings.dataDirectory() + " ...");
        stack.start();
    }

    static void printEndpoints(EmbeddedStack stack, StackSettings settings) {
        System.out.println();
        System.out.printf("%-10s %-40s %s%n", "Component", "Endpoint", "Log");
        for (Component component : stack.components()) {
            if (!component.endpoint().isEmpty()) {
                System.out.printf(
                        "%-10s %-40s %s%n",
                        component.name(),
                        component.endpoint(),
                        component.logFile().map(Object::toString).orElse(""));
            }
        }
        System.out.println();
        printDashboardSignIn(settings);
    }

    /**
     * Where to sign in to the dashboard, with the generated password while it is in force: on the terminal only, like
     * the other credentials the commands print, never in a log.
     */
    static void printDashboardSignIn(StackSettings settings) {
        Optional<String> password = StackDashboardIdentity.of(settings).generatedPassword();
        System.out.println("Dashboard: " + settings.dashboardUri() + "/ - sign in as " + DashboardOperators.OPERATOR
                + password.map(present -> " with the password " + present).orElse(" with the password you set")
                + " (change it: fleet dashboard-password)");
        System.out.println();
    }
}

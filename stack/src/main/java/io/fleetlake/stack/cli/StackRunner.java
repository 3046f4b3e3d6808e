package io.fleetlake.stack.cli;

import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.Component;

/** Start-up and shutdown behaviour shared by the commands that run the stack. */
final class StackRunner {
    private StackRunner() {}

    /** Starts the stack; Ctrl-C or the end of the command stops it, in reverse order. */
    static void startWithShutdownHook(EmbeddedStack stack, StackSettings settings) {
        Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "stack-shutdown"));
        System.out.println("Starting the fleet stack in " + settings.dataDirectory() + " ...");
        stack.start();
    }

    static void printEndpoints(EmbeddedStack stack) {
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
    }
}

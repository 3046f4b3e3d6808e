package io.fleetlake.stack.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Commands on the dead-letter topic. */
@Command(
        name = "dlq",
        mixinStandardHelpOptions = true,
        description = "Work with dead-lettered positions (gps.dlq.positions).",
        subcommands = {ReprocessCommand.class})
public final class DlqCommand implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Name a dlq command, for example: fleet dlq reprocess --reason OUTSIDE_REGION");
    }
}

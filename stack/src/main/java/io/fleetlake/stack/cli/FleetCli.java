package io.fleetlake.stack.cli;

import io.fleetlake.trino.audit.AuditCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code fleet} command line: runs the pipeline locally on real components. */
@Command(
        name = "fleet",
        mixinStandardHelpOptions = true,
        versionProvider = FleetVersion.class,
        description = "Fleet lakehouse: MQTT -> Kafka -> Flink -> Iceberg (REST catalog, S3) -> Trino, and Redis.",
        footer = {
            "",
            "Benchmarks: fleet bench --help (the bench module; run through the ./fleet script).",
            "Tests: fleet test --help (installs what the suite drives, then runs every test)."
        },
        subcommands = {
            DemoCommand.class,
            UpCommand.class,
            StatusCommand.class,
            ClusterCommand.class,
            VerifyCommand.class,
            SqlCommand.class,
            DlqCommand.class,
            BackfillCommand.class,
            SparkCommand.class,
            MaintainCommand.class,
            GeocodeCommand.class,
            DevicesCommand.class,
            CatalogClientsCommand.class,
            DashboardPasswordCommand.class,
            SecretsCommand.class,
            AuditCommand.class,
            CommandLine.HelpCommand.class
        })
public final class FleetCli implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Name a command, for example: fleet demo");
    }

    public static void main(String[] args) {
        int exitCode = new CommandLine(new FleetCli()).execute(args);
        // Client libraries (Kafka, Trino JDBC, MQTT) leave non-daemon threads behind.
        System.exit(exitCode);
    }
}

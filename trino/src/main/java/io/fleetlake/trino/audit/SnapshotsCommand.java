package io.fleetlake.trino.audit;

import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fleet audit snapshots}: what each snapshot added, and how many of the added positions arrived late. */
@Command(
        name = "snapshots",
        mixinStandardHelpOptions = true,
        description = "What each snapshot of a fleet table added, oldest first; for positions also how many added rows"
                + " were late arrivals (event time older than the commit by more than --late-threshold).")
public final class SnapshotsCommand implements Callable<Integer> {
    @ParentCommand
    private AuditCommand audit;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--since",
            paramLabel = "TIME",
            description = "Only snapshots committed at or after this instant. Default: all.")
    private String since;

    @Option(
            names = "--table",
            paramLabel = "TABLE",
            defaultValue = "positions",
            converter = AuditCommand.TableConverter.class,
            description = "positions, rejected_positions or vehicle_minutes. Default: ${DEFAULT-VALUE}.")
    private AuditTable table;

    @Option(
            names = "--late-threshold",
            paramLabel = "DURATION",
            defaultValue = "5m",
            description = "A row is late when its event time is older than its commit by more than this. Default:"
                    + " ${DEFAULT-VALUE}.")
    private String lateThreshold;

    @Override
    public Integer call() {
        return audit.execute(spec, queries -> {
            Instant start =
                    since == null ? Instant.EPOCH : Times.parseInstant("--since", since, audit.zone(), audit.clock());
            return AuditResultTables.snapshots(
                    table,
                    queries.snapshotAdditions(table, start, Times.parseDuration("--late-threshold", lateThreshold)));
        });
    }
}

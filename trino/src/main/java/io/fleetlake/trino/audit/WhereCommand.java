package io.fleetlake.trino.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fleet audit where}: where a vehicle was at an instant, as known at another. */
@Command(
        name = "where",
        mixinStandardHelpOptions = true,
        description = "Where a vehicle was at --at (its newest fix at or before it) as known at --known-at, and how old"
                + " that fix was at --at.")
public final class WhereCommand implements Callable<Integer> {
    @ParentCommand
    private AuditCommand audit;

    @Spec
    private CommandSpec spec;

    @Option(names = "--vehicle", required = true, paramLabel = "ID", description = "Vehicle id.")
    private String vehicleId;

    @Option(names = "--at", required = true, paramLabel = "TIME", description = "The instant asked about.")
    private String at;

    @Option(
            names = "--known-at",
            paramLabel = "TIME",
            description = "Answer with what the table held at this instant (time travel). Default: now.")
    private String knownAt;

    @Option(
            names = "--lookback",
            paramLabel = "DURATION",
            defaultValue = "7d",
            description = "How far before --at to look for a fix. Default: ${DEFAULT-VALUE}.")
    private String lookback;

    @Override
    public Integer call() {
        return audit.execute(spec, queries -> {
            Instant instant = Times.parseInstant("--at", at, audit.zone(), audit.clock());
            AsOf asOf = knownAt == null
                    ? AsOf.current()
                    : AsOf.instant(Times.parseInstant("--known-at", knownAt, audit.zone(), audit.clock()));
            Duration window = Times.parseDuration("--lookback", lookback);
            WhereAt answer = queries.whereAt(vehicleId, instant, asOf, window);
            if (answer.fix().isEmpty()) {
                AuditCommand.note(
                        spec,
                        "Vehicle " + vehicleId + " has no fix in the " + lookback + " before " + Times.iso(instant)
                                + " as known at " + asOf.describe() + "; a longer --lookback searches further back");
            }
            return AuditResultTables.whereAt(answer);
        });
    }
}

package io.fleetlake.trino.audit;

import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fleet audit track}: the track of a vehicle over a time range, now or as it stood earlier. */
@Command(
        name = "track",
        mixinStandardHelpOptions = true,
        description = "The track of a vehicle over [--from, --to), oldest fix first, as the history stands now or as it"
                + " stood at a snapshot, a tag or an instant.")
public final class TrackCommand implements Callable<Integer> {
    @ParentCommand
    private AuditCommand audit;

    @Spec
    private CommandSpec spec;

    @Option(names = "--vehicle", required = true, paramLabel = "ID", description = "Vehicle id.")
    private String vehicleId;

    @Option(names = "--from", required = true, paramLabel = "TIME", description = "Range start, inclusive.")
    private String from;

    @Option(names = "--to", required = true, paramLabel = "TIME", description = "Range end, exclusive.")
    private String to;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    private AsOfOptions asOf = new AsOfOptions();

    @Override
    public Integer call() {
        return audit.execute(spec, queries -> {
            Instant start = Times.parseInstant("--from", from, audit.zone(), audit.clock());
            Instant end = Times.parseInstant("--to", to, audit.zone(), audit.clock());
            return AuditResultTables.track(
                    queries.track(vehicleId, start, end, asOf.toAsOf(audit.zone(), audit.clock())));
        });
    }
}

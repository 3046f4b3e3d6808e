package io.fleetlake.trino.audit;

import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fleet audit rejections}: rejected positions by reason over time. */
@Command(
        name = "rejections",
        mixinStandardHelpOptions = true,
        description = "Rejected positions by reason over [--from, --to), in hour or day buckets (UTC).")
public final class RejectionsCommand implements Callable<Integer> {
    @ParentCommand
    private AuditCommand audit;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--from",
            paramLabel = "TIME",
            description = "Range start, inclusive. Default: one day before --to for hour buckets, thirty days for day"
                    + " buckets.")
    private String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Range end, exclusive. Default: now.")
    private String to;

    @Option(
            names = "--bucket",
            paramLabel = "BUCKET",
            defaultValue = "hour",
            converter = AuditCommand.BucketConverter.class,
            description = "hour or day. Default: ${DEFAULT-VALUE}.")
    private RejectionBucket bucket;

    @Override
    public Integer call() {
        return audit.execute(spec, queries -> {
            Instant end =
                    to == null ? audit.clock().instant() : Times.parseInstant("--to", to, audit.zone(), audit.clock());
            Instant start = from == null
                    ? end.minus(bucket.defaultRange())
                    : Times.parseInstant("--from", from, audit.zone(), audit.clock());
            return AuditResultTables.rejections(queries.rejectionsByReason(start, end, bucket));
        });
    }
}

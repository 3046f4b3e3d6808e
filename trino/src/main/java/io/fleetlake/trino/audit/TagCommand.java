package io.fleetlake.trino.audit;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fleet audit tag}: the daily audit tag, created idempotently through the Iceberg REST catalog. */
@Command(
        name = "tag",
        mixinStandardHelpOptions = true,
        description =
                "Tag audit-YYYY-MM-DD on the newest snapshot committed by the end of --date (UTC). Running it again"
                        + " is a no-op; a tag that points elsewhere is an error unless --force.")
public final class TagCommand implements Callable<Integer> {
    @ParentCommand
    private AuditCommand audit;

    @Spec
    private CommandSpec spec;

    @Option(names = "--date", paramLabel = "DAY", description = "The day, YYYY-MM-DD (UTC). Default: yesterday.")
    private String date;

    @Option(
            names = "--table",
            paramLabel = "TABLE",
            defaultValue = "positions",
            converter = AuditCommand.TableConverter.class,
            description = "positions, rejected_positions or vehicle_minutes. Default: ${DEFAULT-VALUE}.")
    private AuditTable table;

    @Option(
            names = "--keep",
            paramLabel = "DURATION",
            defaultValue = "400d",
            description = "Retention of the tag (max-ref-age-ms), counted from the tagged snapshot's commit: snapshot"
                    + " expiry keeps the tag and its snapshot until then. Default: ${DEFAULT-VALUE}.")
    private String keep;

    @Option(names = "--force", description = "Move the tag when it points to another snapshot.")
    private boolean force;

    @Override
    public Integer call() {
        return audit.execute(spec, queries -> {
            LocalDate day = date == null
                    ? LocalDate.ofInstant(audit.clock().instant(), ZoneOffset.UTC)
                            .minusDays(1)
                    : Times.parseDate("--date", date);
            Duration retention = Times.parseDuration("--keep", keep);
            TagResult result = force ? queries.retag(table, day, retention) : queries.tag(table, day, retention);
            return AuditResultTables.tagResult(result);
        });
    }
}

package io.fleetlake.trino.audit;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fleet audit tags}: the tags of a fleet table. */
@Command(
        name = "tags",
        mixinStandardHelpOptions = true,
        description = "The tags of a fleet table (from the Iceberg REST catalog), with their snapshot and retention.")
public final class TagsCommand implements Callable<Integer> {
    @ParentCommand
    private AuditCommand audit;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--table",
            paramLabel = "TABLE",
            defaultValue = "positions",
            converter = AuditCommand.TableConverter.class,
            description = "positions, rejected_positions or vehicle_minutes. Default: ${DEFAULT-VALUE}.")
    private AuditTable table;

    @Override
    public Integer call() {
        return audit.execute(spec, queries -> AuditResultTables.tags(table, queries.tags(table)));
    }
}

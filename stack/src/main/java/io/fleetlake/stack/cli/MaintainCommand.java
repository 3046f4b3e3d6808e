package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.maintenance.TableMaintenanceJob;
import io.fleetlake.stack.process.FleetHome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fleet maintain}: one table maintenance run on the running stack's Iceberg tables. */
@Command(
        name = "maintain",
        mixinStandardHelpOptions = true,
        description = {
            "Maintain the running stack's Iceberg tables once, now: compact small data files (applying delete files),"
                    + " drop dangling delete files, rewrite manifests, expire snapshots older than"
                    + " maintenance.snapshot-retention (7d; every audit-* tag is kept for its own retention) and"
                    + " remove orphan files older than maintenance.orphan-min-age (3d).",
            "Prints progress and a summary per table (files before/after, bytes, snapshots expired, orphans removed,"
                    + " elapsed). Safe while the pipeline streams. The stack's maintenance component does the same"
                    + " every maintenance.interval (30m).",
            "Exit status 1 when a step failed (the other steps still ran)."
        })
public final class MaintainCommand implements Callable<Integer> {
    @Mixin
    private StackOptions options;

    @Option(names = "--dry-run", description = "Show what would be compacted, expired and removed; change nothing.")
    private boolean dryRun;

    @Option(
            names = "--table",
            paramLabel = "NAMESPACE.TABLE",
            description = "Only this table, such as fleet.positions (repeatable). Default: maintenance.tables (the"
                    + " three fleet tables).")
    private List<String> tables = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        FleetHome home = options.home();
        ConfigSource configuration = options.configuration();
        StackSettings settings = options.settings(configuration, home);
        List<String> arguments = new ArrayList<>();
        if (dryRun) {
            arguments.add("--dry-run");
        }
        tables.forEach(table -> {
            arguments.add("--table");
            arguments.add(table);
        });
        return new TableMaintenanceJob(settings, home).run(arguments, ProcessBuilder.Redirect.INHERIT);
    }
}

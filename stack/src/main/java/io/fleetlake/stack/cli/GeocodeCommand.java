package io.fleetlake.stack.cli;

import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.spark.GeocodeLauncher;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fleet geocode}: names the new positions of the history after their nearest place. */
@Command(
        name = "geocode",
        mixinStandardHelpOptions = true,
        description = {
            "Reverse geocodes the positions committed to fleet.positions since the last run (offline, with the"
                    + " gazetteer bundled at build time) into fleet.position_places, with Spark on the running"
                    + " stack's catalog and storage; prints progress and a summary (rows, new snapshots, elapsed,"
                    + " rows/s). Query the result through Trino: SELECT * FROM fleet.positions_with_places.",
            "A rerun over the same snapshots writes nothing. Keys: geocode.max-distance-km (default 30), spark.*"
        })
public final class GeocodeCommand implements Callable<Integer> {
    @Mixin
    private StackOptions options;

    @Option(names = "--full", description = "Reread every position, not only the snapshots since the last run.")
    private boolean full;

    @Option(
            names = "--since",
            paramLabel = "INSTANT|DURATION",
            description = "Also reread the snapshots committed since then: 2026-11-28T06:00:00Z, or 6h, 2d back.")
    private String since;

    @Override
    public Integer call() throws InterruptedException {
        FleetHome home = options.home();
        StackSettings settings = options.settings(options.configuration(), home);
        return new GeocodeLauncher(settings, home).run(full, Optional.ofNullable(since));
    }
}

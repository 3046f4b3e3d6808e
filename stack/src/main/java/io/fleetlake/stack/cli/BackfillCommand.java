package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.backfill.AffectedWindow;
import io.fleetlake.operations.backfill.VehicleMinutesBackfill;
import io.fleetlake.stack.StackSettings;
import java.sql.SQLException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fleet backfill}: recomputes vehicle-minute windows that late positions changed. */
@Command(
        name = "backfill",
        mixinStandardHelpOptions = true,
        description = {
            "Recompute fleet.vehicle_minutes windows from fleet.positions. By default the windows of every position in"
                    + " gps.late.positions (arrived after its window closed); or one vehicle's time range.",
            "Idempotent: running it again changes nothing."
        })
public final class BackfillCommand implements Callable<Integer> {
    @Mixin
    private StackOptions options;

    @Option(
            names = "--since",
            paramLabel = "TIME",
            description = "Only late positions with an event time at or after TIME (ISO-8601 instant or a duration back"
                    + " from now such as 6h).")
    private String since;

    @ArgGroup(exclusive = false)
    private VehicleRange range;

    @Override
    public Integer call() throws SQLException {
        ConfigSource configuration = options.configuration();
        StackSettings settings = options.settings(configuration, options.home());
        SortedSet<AffectedWindow> windows = range == null
                ? VehicleMinutesBackfill.windowsOfLatePositions(
                        settings.kafkaBootstrapServers(), ReprocessCommand.parseSince(since, Instant.now()))
                : range.windows();
        System.out.printf("Windows to recompute: %,d%n", windows.size());
        long changed = new VehicleMinutesBackfill(
                        settings.trino(TrinoUser.ADMIN), configuration.doubleValue("enrichment.stop-speed-kmh", 3.0))
                .recompute(windows);
        System.out.printf("Rows of fleet.vehicle_minutes inserted or updated: %,d%n", changed);
        return 0;
    }

    /** An explicit range instead of the late-positions topic. */
    static final class VehicleRange {
        @Option(names = "--vehicle", required = true, paramLabel = "ID", description = "Vehicle to recompute.")
        String vehicleId;

        @Option(names = "--from", required = true, paramLabel = "TIME", description = "Start (ISO-8601 instant).")
        String from;

        @Option(names = "--to", required = true, paramLabel = "TIME", description = "End, exclusive (ISO-8601).")
        String to;

        SortedSet<AffectedWindow> windows() {
            Instant start = instant("--from", from).truncatedTo(ChronoUnit.MINUTES);
            Instant end = instant("--to", to);
            SortedSet<AffectedWindow> windows = new TreeSet<>();
            for (Instant window = start; window.isBefore(end); window = window.plus(1, ChronoUnit.MINUTES)) {
                windows.add(new AffectedWindow(vehicleId, window));
            }
            return windows;
        }

        private static Instant instant(String option, String value) {
            try {
                return Instant.parse(value);
            } catch (DateTimeParseException e) {
                throw new ConfigException(
                        option + " '" + value + "' is not an ISO-8601 instant such as" + " 2026-11-29T08:00:00Z");
            }
        }
    }
}

package io.fleetlake.stack.spark;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs the geocoding job ({@code spark-jobs}, {@code GeocodeMain}) against the embedded stack's catalog and storage,
 * as its own JVM, and waits for it. It prints its progress and a summary; {@code geocode.*} keys of the stack's
 * configuration reach it.
 */
public final class GeocodeLauncher {
    private static final String MAIN_CLASS = "io.fleetlake.spark.geocode.GeocodeMain";

    private final SparkJobProcess process;

    public GeocodeLauncher(StackSettings settings, FleetHome home) {
        this.process =
                new SparkJobProcess(requireNonNull(settings, "settings is null"), requireNonNull(home, "home is null"));
    }

    /**
     * @param full reread every position instead of the snapshots since the last run
     * @param since also reread the snapshots committed since then: an instant or a duration such as {@code 6h}
     * @return the job's exit code (0 when the places were written or nothing was new)
     */
    public int run(boolean full, Optional<String> since) throws InterruptedException {
        requireNonNull(since, "since is null");
        List<String> arguments = new ArrayList<>();
        if (full) {
            arguments.add("--full");
        }
        since.ifPresent(value -> {
            arguments.add("--since");
            arguments.add(value);
        });
        return process.run("spark-geocode", MAIN_CLASS, List.of("geocode."), arguments, CatalogRole.MAINTAINER);
    }
}

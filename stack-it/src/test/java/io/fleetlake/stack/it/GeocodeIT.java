package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.spark.GeocodeLauncher;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code fleet geocode} on the running stack: positions published at known places get those places through the Trino
 * view, the view returns one row per position, and a later run geocodes only the new positions and leaves the earlier
 * rows as they were. Two runs of the Spark job, one per input: that a run with nothing new to read writes nothing
 * (neither a row nor a snapshot) is proven by GeocodeJobTest (spark-jobs), over the same snapshot and over snapshots
 * that add no rows, and needs no third start of Spark here.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class GeocodeIT {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final String VIEW = Tables.qualified(Tables.POSITIONS_WITH_PLACES);
    private static final String PLACES = Tables.qualified(Tables.POSITION_PLACES);

    @Test
    void namesPositionsThroughTheViewOnceAndIncrementally(RunningStack running) throws Exception {
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        GeocodeLauncher job = new GeocodeLauncher(running.settings(), FleetHome.locate());
        Instant start = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);

        publishAndAwait(
                running,
                trino,
                List.of(
                        Position.of("GEO-MAD", start, 40.4169, -3.7035, 20, 90), // Madrid, Puerta del Sol
                        Position.of("GEO-CEU", start, 35.8890, -5.3198, 20, 90), // Ceuta
                        Position.of("GEO-PMI", start, 39.5676, 2.6485, 20, 90), // Palma
                        Position.of("GEO-PDL", start, 37.7394, -25.6687, 20, 90))); // Ponta Delgada

        assertThat(job.run(false, Optional.empty()))
                .as("exit code of the first run")
                .isZero();

        assertThat(trino.query("SELECT vehicle_id, place_name, province, region, country_code FROM " + VIEW
                        + " WHERE vehicle_id LIKE 'GEO-%' ORDER BY vehicle_id"))
                .containsExactly(
                        List.of("GEO-CEU", "Ceuta", "Ceuta", "Ceuta", "ES"),
                        List.of("GEO-MAD", "Sol", "Madrid", "Madrid", "ES"),
                        List.of("GEO-PDL", "Ponta Delgada", "Azores", "Azores", "PT"),
                        List.of("GEO-PMI", "Palma", "Illes Balears", "Balearic Islands", "ES"));
        assertOnePlacePerPosition(trino);
        String firstGeocodedAt = geocodedAt(trino, "GEO-MAD");
        List<List<String>> firstRows = geoPlaces(trino);
        assertThat(firstRows).hasSize(4);

        // New positions: the next run reads only them; the earlier rows keep the time they were geocoded.
        publishAndAwait(
                running,
                trino,
                List.of(
                        Position.of("GEO-MAD", start.plusSeconds(5), 40.4170, -3.7030, 20, 90), // still at Sol
                        Position.of("GEO-LIS", start, 38.7075, -9.1364, 20, 90))); // Lisbon, Praça do Comércio
        assertThat(job.run(false, Optional.empty())).isZero();

        assertThat(trino.query("SELECT vehicle_id, province, country_code, coalesce(municipality, '-') FROM " + VIEW
                        + " WHERE vehicle_id IN ('GEO-MAD', 'GEO-LIS') ORDER BY vehicle_id, event_time"))
                .containsExactly(
                        List.of("GEO-LIS", "Lisbon", "PT", "Lisbon"),
                        List.of("GEO-MAD", "Madrid", "ES", "-"),
                        List.of("GEO-MAD", "Madrid", "ES", "-"));
        assertThat(trino.query("SELECT count(DISTINCT geocoded_at) FROM " + PLACES + " WHERE vehicle_id = 'GEO-MAD'"))
                .as("the second run added a row and left the first one alone")
                .containsExactly(List.of("2"));
        assertThat(geocodedAt(trino, "GEO-MAD"))
                .as("the first row was not rewritten")
                .isEqualTo(firstGeocodedAt);
        assertThat(geoPlaces(trino))
                .as("the second run wrote the two new positions only: the four rows of the first are unchanged")
                .hasSize(6)
                .containsAll(firstRows);
        assertOnePlacePerPosition(trino);
        assertThat(trino.query("SELECT value FROM fleet.\"position_places$properties\""
                        + " WHERE key = 'fleet.geocode.positions-snapshot-id'"))
                .singleElement()
                .satisfies(row -> assertThat(Long.parseLong(row.get(0))).isPositive());
    }

    private static void assertOnePlacePerPosition(TrinoInspector trino) throws Exception {
        // Positions committed after the run have no place yet: the view still has exactly one row for each.
        List<String> counts = trino.query("SELECT (SELECT count(*) FROM " + VIEW + "), (SELECT count(*) FROM "
                        + Tables.qualified(Tables.POSITIONS) + "),"
                        + " (SELECT count(*) FROM (SELECT vehicle_id, event_time FROM " + PLACES
                        + " GROUP BY 1, 2 HAVING count(*) > 1))")
                .get(0);
        assertThat(Long.parseLong(counts.get(0)))
                .as("rows of the view vs positions")
                .isEqualTo(Long.parseLong(counts.get(1)));
        assertThat(counts.get(2)).as("keys stored twice in position_places").isEqualTo("0");
        assertThat(trino.query("SELECT count(*) FROM " + VIEW + " v WHERE vehicle_id LIKE 'GEO-%'"
                        + " AND NOT EXISTS (SELECT 1 FROM " + PLACES
                        + " pl WHERE pl.vehicle_id = v.vehicle_id AND pl.event_time = v.event_time)"))
                .as("test positions without a place row")
                .containsExactly(List.of("0"));
    }

    /** Every stored place row of the test's vehicles, with the time it was geocoded. */
    private static List<List<String>> geoPlaces(TrinoInspector trino) throws Exception {
        return trino.query("SELECT vehicle_id, CAST(event_time AS varchar), coalesce(place_name, '-'),"
                + " CAST(geocoded_at AS varchar) FROM " + PLACES + " WHERE vehicle_id LIKE 'GEO-%'");
    }

    private static String geocodedAt(TrinoInspector trino, String vehicle) throws Exception {
        return trino.query("SELECT CAST(min(geocoded_at) AS varchar) FROM " + PLACES + " WHERE vehicle_id = ?", vehicle)
                .get(0)
                .get(0);
    }

    private static void publishAndAwait(RunningStack running, TrinoInspector trino, List<Position> positions)
            throws Exception {
        long before = geoPositions(trino);
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "geocode-test")) {
            publisher.publishAll(positions);
            publisher.awaitAcknowledgements();
        }
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> geoPositions(trino) == before + positions.size());
    }

    private static long geoPositions(TrinoInspector trino) throws Exception {
        return Long.parseLong(trino.query(
                        "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE 'GEO-%'")
                .get(0)
                .get(0));
    }
}

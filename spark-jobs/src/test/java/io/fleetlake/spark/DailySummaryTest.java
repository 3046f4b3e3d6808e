package io.fleetlake.spark;

import static io.fleetlake.spark.TestSpark.position;
import static io.fleetlake.spark.TestSpark.rejection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetlake.model.geo.GreatCircle;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DailySummaryTest {
    private static final LocalDate DAY = LocalDate.parse("2026-11-28");
    private static final Instant COMPUTED_AT = Instant.parse("2026-11-29T01:00:00Z");
    /** Metres per degree of longitude on the equator, where the haversine distance is R times the angle. */
    private static final double METRES_PER_DEGREE = GreatCircle.EARTH_RADIUS_METRES * Math.PI / 180;

    private static final double TOLERANCE = 1e-9;

    private SparkSession spark;

    @BeforeAll
    void startSpark(@TempDir Path warehouse) {
        spark = TestSpark.startWithHadoopCatalog(warehouse);
    }

    @AfterAll
    void stopSpark() {
        spark.stop();
    }

    @Test
    void summarisesEachVehicleOfTheDay() {
        // bus-1 drives east 0.02 degrees, comes back 0.01 and waits; listed out of event-time order. Sorted by
        // longitude instead of event time the distance would be 0.02 degrees, not 0.03.
        List<Row> positions = List.of(
                position("bus-1", "2026-11-28T00:01:00.500Z", 0, 0.01, 1, "route-1", "ON_ROUTE"),
                position("bus-1", "2026-11-27T23:59:59.999Z", 0, -0.01, 1, "route-1", "ON_ROUTE"),
                position("bus-1", "2026-11-28T00:02:00.500Z", 0, 0.01, 40, null, "NO_ROUTE"),
                position("bus-1", "2026-11-28T00:00:00Z", 0, 0, 1, "route-1", "ON_ROUTE"),
                position("bus-1", "2026-11-29T00:00:00Z", 0, 5, 1, "route-1", "ON_ROUTE"),
                position("bus-1", "2026-11-28T00:00:30Z", 0, 0.02, 2, "route-1", "DEVIATING"),
                position("bus-2", "2026-11-28T12:00:00Z", 40.4, -3.7, 0, null, "NO_ROUTE"),
                position("bus-3", "2026-11-28T23:59:50Z", 41.0, 2.0, 0, "route-3", "STOPPED"),
                position("bus-3", "2026-11-28T23:59:59.999999Z", 41.0, 2.0, 2.9, "route-3", "STOPPED"));
        List<Row> rejections = Arrays.asList(
                rejection("2026-11-28T00:10:00Z", "bus-1"),
                rejection("2026-11-28T23:59:59.999999Z", "bus-1"),
                rejection("2026-11-27T23:59:59Z", "bus-1"),
                rejection("2026-11-29T00:00:00Z", "bus-1"),
                rejection("2026-11-28T08:00:00Z", null),
                rejection("2026-11-28T08:00:00Z", "bus-9"));

        List<SummaryRow> summary = summarise(positions, rejections);

        assertThat(summary)
                .usingRecursiveFieldByFieldElementComparator(SummaryRow.WITH_TOLERANCE)
                .containsExactly(
                        new SummaryRow(DAY, "bus-1", 4, 0.03 * METRES_PER_DEGREE / 1000, 60.5, 2.0 / 3, 2, COMPUTED_AT),
                        new SummaryRow(DAY, "bus-2", 1, 0, 0, null, 0, COMPUTED_AT),
                        new SummaryRow(DAY, "bus-3", 2, 0, 9.999999, 0.0, 0, COMPUTED_AT),
                        new SummaryRow(DAY, "bus-9", 0, 0, 0, null, 1, COMPUTED_AT));
    }

    @Test
    void measuresGreatCircleDistancesAwayFromTheEquator() {
        // One degree of latitude along a meridian, then a quarter of the way round the equator.
        List<Row> positions = List.of(
                position("truck", "2026-11-28T10:00:00Z", 40, 10, 80, null, "NO_ROUTE"),
                position("truck", "2026-11-28T11:00:00Z", 41, 10, 80, null, "NO_ROUTE"),
                position("ship", "2026-11-28T10:00:00Z", 0, 0, 30, null, "NO_ROUTE"),
                position("ship", "2026-11-28T11:00:00Z", 0, 90, 30, null, "NO_ROUTE"));

        List<SummaryRow> summary = summarise(positions, List.of());

        assertThat(summary).extracting(SummaryRow::vehicleId).containsExactly("ship", "truck");
        assertThat(summary.get(0).distanceKm()).isCloseTo(90 * METRES_PER_DEGREE / 1000, within(TOLERANCE));
        assertThat(summary.get(1).distanceKm()).isCloseTo(METRES_PER_DEGREE / 1000, within(TOLERANCE));
    }

    @Test
    void aDayWithoutDataHasNoRows() {
        List<Row> positions = List.of(position("bus-1", "2026-11-27T12:00:00Z", 0, 0, 1, null, "NO_ROUTE"));

        assertThat(summarise(positions, List.of(rejection("2026-11-29T00:00:00Z", "bus-1"))))
                .isEmpty();
    }

    @Test
    void hasTheTableColumnsInOrder() {
        assertThat(DailySummary.compute(
                                TestSpark.positions(spark, List.of()),
                                TestSpark.rejections(spark, List.of()),
                                DAY,
                                COMPUTED_AT)
                        .columns())
                .containsExactlyElementsOf(DailySummaryTable.COLUMNS);
    }

    private List<SummaryRow> summarise(List<Row> positions, List<Row> rejections) {
        return DailySummary.compute(
                        TestSpark.positions(spark, positions),
                        TestSpark.rejections(spark, rejections),
                        DAY,
                        COMPUTED_AT)
                .orderBy(DailySummaryTable.VEHICLE_ID)
                .collectAsList()
                .stream()
                .map(SummaryRow::of)
                .toList();
    }
}

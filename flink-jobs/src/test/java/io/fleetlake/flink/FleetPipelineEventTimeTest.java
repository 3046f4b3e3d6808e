package io.fleetlake.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.enrichment.RouteGeometry;
import io.fleetlake.flink.enrichment.TestRoutes;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.sinks.VehicleState;
import io.fleetlake.flink.sources.RouteSource;
import io.fleetlake.flink.types.PipelineSerialization;
import io.fleetlake.model.EnrichmentColumns.DistanceMethod;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.codec.PositionCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.functions.FromElementsGeneratorFunction;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole topology on a MiniCluster with routes from a real HTTP planning API and positions released in phases, so
 * that the watermark passes each window before the next phase arrives: enriched positions, minute rows, a late position
 * that replaces its minute's row, and one too late for it. One source subtask only ever reads undecodable records, so
 * the watermark advances only because that subtask is idle; between phases every position subtask is idle too.
 */
class FleetPipelineEventTimeTest {
    private static final int PARALLELISM = 2;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();
    private static final PositionCodec CODEC = PositionCodec.bundled();
    private static final Instant MINUTE = Instant.parse("2026-11-29T18:00:00Z");
    private static final String ON_ROUTE = "VH-01";
    private static final String NO_ROUTE = "VH-02";
    private static final double MOVING = 30;
    private static final double STANDING = 0.5;
    private static final RouteGeometry ROUTE = RouteGeometry.of(TestRoutes.route("R-1", ON_ROUTE));

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());

    private final CollectingSink<RejectedRecord> deadLetters = new CollectingSink<>();
    private final CollectingSink<RejectedRecord> rejectedTable = new CollectingSink<>();
    private final CollectingSink<VehicleState> currentState = new CollectingSink<>();
    private final CollectingSink<EnrichedPosition> table = new CollectingSink<>();
    private final CollectingSink<VehicleMinute> minutes = new CollectingSink<>();
    private final CollectingSink<EnrichedPosition> late = new CollectingSink<>();
    private final ReleaseGate gate = new ReleaseGate();
    private PlanningApiServer planningApi;

    @BeforeEach
    void startPlanningApi() throws Exception {
        planningApi = PlanningApiServer.start();
        planningApi.serve(List.of(TestRoutes.route("R-1", ON_ROUTE)));
    }

    @AfterEach
    void stop() {
        planningApi.close();
        List.of(deadLetters, rejectedTable, currentState, table, minutes, late).forEach(CollectingSink::clear);
        gate.clear();
    }

    @Test
    void positionsAreEnrichedCountedPerMinuteAndLatePositionsSetAside() throws Exception {
        List<Position> fixes = List.of(
                // Phase 1: the route's first stop is at 40.405, the second at the corner's east, the last at its end.
                fix(ON_ROUTE, 0, 40.4010, -3.70, MOVING),
                fix(NO_ROUTE, 10, 40.4200, -3.71, STANDING),
                fix(ON_ROUTE, 20, 40.4050, -3.70, MOVING),
                fix(ON_ROUTE, 50, 40.4090, -3.70, MOVING),
                fix(NO_ROUTE, 80, 40.4200, -3.71, STANDING),
                fix(ON_ROUTE, 120, 40.4100, -3.695, STANDING),
                // Phase 2: late, within the allowed lateness of the minute 18:00.
                fix(ON_ROUTE, 35, 40.4070, -3.70, MOVING),
                // Phase 3: the watermark passes 18:06, the end of the lateness of the minute 18:00.
                fix(ON_ROUTE, 330, 40.4100, -3.69, STANDING),
                fix(ON_ROUTE, 420, 40.4100, -3.69, STANDING),
                // Phase 4: too late for the minute 18:00.
                fix(ON_ROUTE, 45, 40.4080, -3.70, MOVING));
        JobClient job = start(fixes);
        try {
            await().atMost(WAIT).until(() -> counter(job, PipelineMetricNames.ROUTE_UPDATES) >= 1);

            gate.release(6);
            await().atMost(WAIT)
                    .until(() ->
                            rows(ON_ROUTE, 0).size() == 1 && rows(NO_ROUTE, 0).size() == 1);
            gate.release(7);
            await().atMost(WAIT).until(() -> rows(ON_ROUTE, 0).size() == 2);
            gate.release(9);
            await().atMost(WAIT).until(() -> rows(ON_ROUTE, 5).size() == 1);
            gate.release(10);
            await().atMost(WAIT)
                    .until(() -> late.values().size() == 1 && table.values().size() == fixes.size());
        } finally {
            job.cancel().get();
        }

        assertThat(table.values()).extracting(EnrichedPosition::position).containsExactlyInAnyOrderElementsOf(fixes);
        assertThat(currentState.values())
                .containsExactlyInAnyOrderElementsOf(
                        table.values().stream().map(VehicleState::of).toList());
        assertThat(deadLetters.values())
                .as("the other source subtask only reads undecodable records")
                .hasSize(fixes.size())
                .extracting(RejectedRecord::reason)
                .containsOnly(RejectionReason.MALFORMED_PAYLOAD);

        Enrichment first = enrichment(ON_ROUTE, 0);
        assertThat(first.routeId()).isEqualTo("R-1");
        assertThat(first.status()).isEqualTo(VehicleStatus.ON_ROUTE);
        assertThat(first.nextStopId()).isEqualTo("S-1");
        assertThat(first.distanceToNextStopMethod()).isEqualTo(DistanceMethod.ALONG_ROUTE);
        assertThat(first.distanceToNextStopM())
                .isCloseTo(TestRoutes.firstLegMetres(40.405) - TestRoutes.firstLegMetres(40.401), offset(0.5));
        assertThat(first.distanceFromRouteM()).isCloseTo(0, offset(0.5));
        assertThat(first.stale()).isFalse();
        assertThat(enrichment(ON_ROUTE, 20).nextStopId())
                .as("arrived at the first stop")
                .isEqualTo("S-2");
        assertThat(enrichment(ON_ROUTE, 50).distanceToNextStopM())
                .isCloseTo(ROUTE.stopAlongPathM()[1] - TestRoutes.firstLegMetres(40.409), offset(0.5));
        assertThat(enrichment(ON_ROUTE, 120).nextStopId()).isEqualTo("S-3");
        assertThat(enrichment(ON_ROUTE, 330))
                .as("every stop reached, standing since 18:02")
                .extracting(Enrichment::nextStopId, Enrichment::status)
                .containsExactly(null, VehicleStatus.STOPPED);
        assertThat(enrichment(NO_ROUTE, 10)).isEqualTo(Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
        assertThat(enrichment(NO_ROUTE, 80)).isEqualTo(Enrichment.withoutRoute(VehicleStatus.STOPPED));

        assertThat(rows(ON_ROUTE, 0))
                .as("fired on time, then again for the late position: the second row replaces the first")
                .extracting(minute -> minute.aggregate().positions())
                .containsExactly(3, 4);
        assertThat(minutes.values())
                .extracting(VehicleMinute::vehicleId, VehicleMinute::windowStart, minute -> minute.aggregate()
                        .positions())
                .containsExactlyInAnyOrder(
                        tuple(ON_ROUTE, MINUTE, 3),
                        tuple(ON_ROUTE, MINUTE, 4),
                        tuple(NO_ROUTE, MINUTE, 1),
                        tuple(NO_ROUTE, MINUTE.plusSeconds(60), 1),
                        tuple(ON_ROUTE, MINUTE.plusSeconds(120), 1),
                        tuple(ON_ROUTE, MINUTE.plusSeconds(300), 1));
        assertThat(late.values()).singleElement().satisfies(tooLate -> {
            assertThat(tooLate.position()).isEqualTo(fixes.get(9));
            assertThat(tooLate.source().offset()).isEqualTo(9);
        });
    }

    private JobClient start(List<Position> fixes) throws Exception {
        List<RawRecord> records = new ArrayList<>();
        for (int i = 0; i < fixes.size(); i++) {
            Position fix = fixes.get(i);
            records.add(
                    TestRecords.raw(CODEC.encodeAvro(fix), fix.vehicleId(), 0, i, receivedAt(fixes.subList(0, i + 1))));
        }
        for (int i = 0; i < fixes.size(); i++) {
            records.add(TestRecords.raw(null, "VH-99", 1, i));
        }
        TypeInformation<RawRecord> type = TypeInformation.of(RawRecord.class);
        // The generator gives each subtask one half: the positions to one, the undecodable records to the other.
        DataGeneratorSource<RawRecord> source = new DataGeneratorSource<>(
                new FromElementsGeneratorFunction<>(type, records.toArray(RawRecord[]::new)),
                records.size(),
                gate,
                type);
        FleetPipelineJob job = FleetPipelineJob.builder()
                .source(source)
                .routeSource(RouteSource.create(planningApi.uri(), EnrichmentConfig.defaults()))
                .deadLetterSink(deadLetters)
                .rejectedTableSink(rejections -> rejections
                        .sinkTo(rejectedTable)
                        .name("collect-rejected-table")
                        .uid("collect-rejected-table"))
                .currentStateSink(currentState)
                .positionTableSink(CollectingTable.of(table, EnrichedPosition.class, "collect-table"))
                .vehicleMinuteTableSink(
                        rows -> rows.sinkTo(minutes).name("collect-minutes").uid("collect-minutes"))
                .latePositionSink(late)
                .validationRules(TestRecords.RULES)
                .enrichment(EnrichmentConfig.defaults())
                .stateTtl(Duration.ofHours(1))
                .maxOutOfOrderness(Duration.ofSeconds(30))
                .sourceIdleness(Duration.ofMillis(500))
                .allowedLateness(Duration.ofMinutes(5))
                .build();
        Configuration configuration = PipelineSerialization.configure(new Configuration());
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        environment.setParallelism(PARALLELISM);
        job.addTo(environment);
        return environment.executeAsync(PipelineMetricNames.JOB_NAME);
    }

    /** Received a second and a half after the newest fix so far: late fixes arrive late, as in the field. */
    private static Instant receivedAt(List<Position> sentSoFar) {
        return sentSoFar.stream()
                .map(Position::eventTime)
                .max(Instant::compareTo)
                .orElseThrow()
                .plusMillis(1500);
    }

    private static Position fix(String vehicleId, long seconds, double latitude, double longitude, double speed) {
        return new Position(
                vehicleId, MINUTE.plusSeconds(seconds), latitude, longitude, speed, 0.0, null, null, null, null);
    }

    private Enrichment enrichment(String vehicleId, long seconds) {
        Instant eventTime = MINUTE.plusSeconds(seconds);
        return table.values().stream()
                .filter(enriched -> enriched.vehicleId().equals(vehicleId)
                        && enriched.position().eventTime().equals(eventTime))
                .map(EnrichedPosition::enrichment)
                .findFirst()
                .orElseThrow();
    }

    private List<VehicleMinute> rows(String vehicleId, int minute) {
        Instant windowStart = MINUTE.plusSeconds(60L * minute);
        return minutes.values().stream()
                .filter(row ->
                        row.vehicleId().equals(vehicleId) && row.windowStart().equals(windowStart))
                .toList();
    }

    private static long counter(JobClient job, String name) {
        Map<String, Metric> metrics = METRICS.findMetrics(job.getJobID(), "\\." + Pattern.quote(name) + "$");
        return metrics.values().stream()
                .mapToLong(metric -> ((Counter) metric).getCount())
                .sum();
    }
}

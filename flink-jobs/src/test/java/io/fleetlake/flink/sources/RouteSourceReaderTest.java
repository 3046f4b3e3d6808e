package io.fleetlake.flink.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.flink.PlanningApiServer;
import io.fleetlake.flink.RecordingMetricGroup;
import io.fleetlake.flink.enrichment.TestRoutes;
import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.planning.PlannedRoute;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.core.io.InputStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reader against a real HTTP server on the loopback. */
class RouteSourceReaderTest {
    private static final Duration REFRESH = Duration.ofMillis(200);
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Instant NOW = Instant.parse("2026-11-29T18:00:00Z");
    private static final List<PlannedRoute> ROUTES =
            List.of(TestRoutes.route("R-1", "VH-1"), TestRoutes.route("R-2", "VH-2"));

    private final RecordingMetricGroup metrics = new RecordingMetricGroup();
    private final CollectingOutput output = new CollectingOutput();
    private PlanningApiServer planningApi;
    private RouteSourceReader reader;

    @BeforeEach
    void startPlanningApi() throws IOException {
        planningApi = PlanningApiServer.start();
    }

    @AfterEach
    void stop() {
        if (reader != null) {
            reader.close();
        }
        planningApi.close();
    }

    @Test
    void pollsAtStartAndThenEveryRefresh() {
        planningApi.serve(ROUTES);
        reader = reader(planningApi.uri());
        reader.start();

        await().atMost(WAIT).until(() -> drain() >= 3);

        assertThat(output.polls).allSatisfy(poll -> {
            assertThat(poll.routes()).isEqualTo(ROUTES);
            assertThat(poll.fetchedAt()).isEqualTo(NOW);
        });
        assertThat(metrics.count(PipelineMetricNames.ROUTE_POLLS_SUCCEEDED)).isGreaterThanOrEqualTo(3);
        assertThat(metrics.count(PipelineMetricNames.ROUTE_POLLS_FAILED)).isZero();
    }

    @Test
    void aSlowPlanningApiNeverBlocksTheReaderAndYieldsNoUpdate() {
        planningApi.hold();
        reader = reader(planningApi.uri());
        reader.start();
        await().atMost(WAIT).until(() -> planningApi.requests() >= 1);

        long before = System.nanoTime();
        InputStatus status = reader.pollNext(output);
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(TIMEOUT);
        assertThat(status).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(reader.isAvailable()).isNotDone();

        await().atMost(WAIT).until(() -> {
            drain();
            return metrics.count(PipelineMetricNames.ROUTE_POLLS_FAILED) >= 1;
        });
        assertThat(output.polls).as("a timed-out poll yields nothing").isEmpty();

        planningApi.serve(ROUTES);
        planningApi.release();
        await().atMost(WAIT).until(() -> drain() >= 1);
        assertThat(output.polls.get(0).routes()).isEqualTo(ROUTES);
    }

    @Test
    void anUnreachablePlanningApiYieldsNoUpdateAndKeepsTrying() throws IOException {
        reader = reader(unusedPort());
        reader.start();

        await().atMost(WAIT).until(() -> {
            drain();
            return metrics.count(PipelineMetricNames.ROUTE_POLLS_FAILED) >= 2;
        });

        assertThat(output.polls).isEmpty();
    }

    @Test
    void anAnswerThatIsNotAListOfRoutesYieldsNoUpdate() {
        planningApi.answer(503, "maintenance");
        reader = reader(planningApi.uri());
        reader.start();
        await().atMost(WAIT).until(() -> {
            drain();
            return metrics.count(PipelineMetricNames.ROUTE_POLLS_FAILED) >= 1;
        });

        planningApi.answer(200, "{\"routes\": [{\"route_id\": \"R-1\"}]}");
        await().atMost(WAIT).until(() -> {
            drain();
            return metrics.count(PipelineMetricNames.ROUTE_POLLS_FAILED) >= 2;
        });

        assertThat(output.polls).isEmpty();
        planningApi.serve(List.of());
        await().atMost(WAIT).until(() -> drain() >= 1);
        assertThat(output.polls.get(0).routes()).isEmpty();
    }

    @Test
    void routesAreUnderTheBaseUriWithAnyPathPrefix() {
        assertThat(PlanningApiClient.routesUri(URI.create("http://planning:8090")))
                .isEqualTo(URI.create("http://planning:8090/v1/routes"));
        assertThat(PlanningApiClient.routesUri(URI.create("https://gateway/planning/")))
                .isEqualTo(URI.create("https://gateway/planning/v1/routes"));
    }

    /** Hands over every finished poll, as the source operator does when the reader says it is available. */
    private int drain() {
        while (reader.isAvailable().isDone()) {
            reader.pollNext(output);
            if (!reader.isAvailable().isDone()) {
                break;
            }
        }
        return output.polls.size();
    }

    private RouteSourceReader reader(URI planningUri) {
        return new RouteSourceReader(
                new PlanningApiClient(planningUri, Optional.empty(), TIMEOUT, Clock.fixed(NOW, ZoneOffset.UTC)),
                REFRESH,
                Duration.ofMinutes(10),
                metrics);
    }

    private static URI unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }
    }

    private static final class CollectingOutput implements ReaderOutput<RoutePoll> {
        private final List<RoutePoll> polls = new ArrayList<>();

        @Override
        public void collect(RoutePoll poll) {
            polls.add(poll);
        }

        @Override
        public void collect(RoutePoll poll, long timestamp) {
            polls.add(poll);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<RoutePoll> createOutputForSplit(String splitId) {
            throw new UnsupportedOperationException("The route source has no splits");
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }
}

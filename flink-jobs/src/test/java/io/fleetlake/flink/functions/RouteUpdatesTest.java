package io.fleetlake.flink.functions;

import static io.fleetlake.flink.enrichment.TestRoutes.route;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.model.planning.PlannedRoute;
import java.time.Instant;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RouteUpdatesTest {
    private static final Instant FIRST_POLL = Instant.parse("2026-11-29T18:00:00Z");
    private static final Instant SECOND_POLL = FIRST_POLL.plusSeconds(300);

    private OneInputStreamOperatorTestHarness<RoutePoll, RouteUpdate> harness;

    @BeforeEach
    void openHarness() throws Exception {
        harness = harness();
        harness.open();
    }

    @AfterEach
    void closeHarness() throws Exception {
        harness.close();
    }

    @Test
    void everyRouteOfAPollIsOneUpdate() throws Exception {
        PlannedRoute first = route("R-1", "VH-1");
        PlannedRoute second = route("R-2", "VH-2");

        harness.processElement(new RoutePoll(FIRST_POLL, List.of(first, second)), 0);

        assertThat(harness.extractOutputValues())
                .containsExactly(RouteUpdate.assigned(first, FIRST_POLL), RouteUpdate.assigned(second, FIRST_POLL));
    }

    @Test
    void vehicleMissingFromTheNextPollHasItsRouteWithdrawn() throws Exception {
        harness.processElement(new RoutePoll(FIRST_POLL, List.of(route("R-1", "VH-1"), route("R-2", "VH-2"))), 0);
        harness.getOutput().clear();

        harness.processElement(new RoutePoll(SECOND_POLL, List.of(route("R-2", "VH-2"))), 0);
        harness.processElement(new RoutePoll(SECOND_POLL.plusSeconds(300), List.of(route("R-2", "VH-2"))), 0);

        assertThat(harness.extractOutputValues())
                .containsExactly(
                        RouteUpdate.withdrawn("VH-1", SECOND_POLL),
                        RouteUpdate.assigned(route("R-2", "VH-2"), SECOND_POLL),
                        RouteUpdate.assigned(route("R-2", "VH-2"), SECOND_POLL.plusSeconds(300)));
    }

    @Test
    void ofTwoRoutesOfOneVehicleTheOneUpdatedLastWins() throws Exception {
        PlannedRoute older = route("R-1", "VH-1");
        PlannedRoute newer =
                new PlannedRoute("R-1b", "VH-1", older.updatedAt().plusSeconds(60), older.stops(), older.path());

        harness.processElement(new RoutePoll(FIRST_POLL, List.of(newer, older)), 0);

        assertThat(harness.extractOutputValues()).containsExactly(RouteUpdate.assigned(newer, FIRST_POLL));
    }

    @Test
    void withdrawalSurvivesARestore() throws Exception {
        harness.processElement(new RoutePoll(FIRST_POLL, List.of(route("R-1", "VH-1"))), 0);
        OperatorSubtaskState snapshot = harness.snapshot(1, 0);
        harness.close();

        harness = harness();
        harness.initializeState(snapshot);
        harness.open();
        harness.processElement(new RoutePoll(SECOND_POLL, List.of()), 0);

        assertThat(harness.extractOutputValues()).containsExactly(RouteUpdate.withdrawn("VH-1", SECOND_POLL));
    }

    private static OneInputStreamOperatorTestHarness<RoutePoll, RouteUpdate> harness() throws Exception {
        return new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(new RouteUpdates()));
    }
}

package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.operations.inspect.PrometheusText;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class IngestHopReconciliationTest {
    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final Instant STARTED = Instant.parse("2026-12-01T08:00:00Z");
    private static final Instant RESTARTED = Instant.parse("2026-12-01T09:00:00Z");

    @Test
    void everyAcceptedPositionInKafkaOrRefusedIsClean() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 1_000L), 3, 0, STARTED),
                counters(Map.of("tcp", 1_900L), 3, 0, STARTED),
                898,
                2,
                WINDOW);

        assertThat(hop.accepted()).isEqualTo(900);
        assertThat(hop.gap()).isZero();
        assertThat(hop.droppedIncrease()).hasValue(0);
        assertThat(hop.clean()).isTrue();
    }

    @Test
    void acceptedPositionsThatNeverReachedKafkaAreAGap() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 1_000L), 0, 0, STARTED),
                counters(Map.of("tcp", 1_900L), 0, 0, STARTED),
                600,
                0,
                WINDOW);

        assertThat(hop.gap()).isEqualTo(300);
        assertThat(hop.clean()).isFalse();
    }

    @Test
    void messagesTheBrokerStillHoldsAtTheEndAreInFlightNotLost() {
        IngestHopReconciliation held = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 1_000L), 0, 0, STARTED),
                counters(Map.of("tcp", 1_900L), 0, 300, STARTED),
                600,
                0,
                WINDOW);
        IngestHopReconciliation oneMore = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 1_000L), 0, 0, STARTED),
                counters(Map.of("tcp", 1_900L), 0, 299, STARTED),
                600,
                0,
                WINDOW);

        assertThat(held.gap()).isZero();
        assertThat(held.clean()).isTrue();
        assertThat(oneMore.gap())
                .as("only what is held at the end is tolerated")
                .isEqualTo(1);
    }

    @Test
    void theBacklogAtTheStartReachingKafkaIsNoGapAndNoNegativeOne() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 1_000L), 0, 5_000, STARTED),
                counters(Map.of("tcp", 1_100L), 0, 0, STARTED),
                5_100,
                0,
                WINDOW);

        assertThat(hop.gap()).isZero();
        assertThat(hop.queuedAtStart()).hasValue(5_000);
        assertThat(hop.clean()).isTrue();
    }

    @Test
    void listenersAreSummedAndOneThatAppearsDuringTheWindowCountsFromZero() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                counters(Map.of("devices", 100L), 0, 0, STARTED),
                counters(Map.of("devices", 150L, "gateways", 40L), 0, 0, STARTED),
                80,
                0,
                WINDOW);

        assertThat(hop.acceptedByListener())
                .containsExactlyInAnyOrderEntriesOf(Map.of("devices", 50L, "gateways", 40L));
        assertThat(hop.gap()).isEqualTo(10);
        assertThat(hop.brokerRestarted()).isFalse();
    }

    @Test
    void aCounterThatWentDownIsAResetCountedSinceTheRestart() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 50_000L), 7, 0, STARTED),
                counters(Map.of("tcp", 400L), 2, 0, STARTED),
                300,
                0,
                WINDOW);

        assertThat(hop.brokerRestarted()).isTrue();
        assertThat(hop.accepted()).as("accepted since the restart").isEqualTo(400);
        assertThat(hop.gap()).as("a lower bound: still found").isEqualTo(100);
        assertThat(hop.droppedIncrease()).as("dropped since the restart").hasValue(2);
    }

    @Test
    void aRestartWhoseCounterAlreadyPassedTheOldValueIsToldByTheProcessStartTime() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 100L), 0, 0, STARTED),
                counters(Map.of("tcp", 700L), 0, 0, RESTARTED),
                700,
                0,
                WINDOW);

        assertThat(hop.brokerRestarted()).isTrue();
        assertThat(hop.accepted()).as("not 700 - 100").isEqualTo(700);
        assertThat(hop.clean()).isTrue();
    }

    @Test
    void anyMessageTheBrokerDroppedFails() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                counters(Map.of("tcp", 100L), 10, 0, STARTED),
                counters(Map.of("tcp", 200L), 11, 0, STARTED),
                100,
                0,
                WINDOW);

        assertThat(hop.gap()).isZero();
        assertThat(hop.dropped()).isTrue();
        assertThat(hop.clean()).isFalse();
    }

    @Test
    void publishesOfOtherTopicsAreNotCounted() {
        String metrics =
                """
                fleet_mqtt_publishes_received_total 90000.0
                fleet_mqtt_position_publishes_accepted_total{listener="tcp-listener-1883"} 1200.0
                fleet_mqtt_position_messages_queued 3.0
                fleet_mqtt_messages_dropped_total 0.0
                process_start_time_seconds 1.7648928E9
                """;
        BrokerCounters counters = BrokerCounters.from(PrometheusText.parse(metrics));

        assertThat(counters.acceptedByListener()).containsExactly(Map.entry("tcp-listener-1883", 1200L));
        assertThat(counters.queued()).hasValue(3);
        assertThat(counters.dropped()).hasValue(0);
        assertThat(counters.startedAt()).contains(Instant.ofEpochSecond(1_764_892_800L));
    }

    @Test
    void aBrokerWithoutPositionCountsIsNotReconciledButItsDropsStillFail() {
        String mosquitto =
                """
                fleet_mqtt_publishes_received_total 500.0
                fleet_mqtt_messages_dropped_total 4.0
                """;
        String later =
                """
                fleet_mqtt_publishes_received_total 900.0
                fleet_mqtt_messages_dropped_total 9.0
                """;
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                BrokerCounters.from(PrometheusText.parse(mosquitto)),
                BrokerCounters.from(PrometheusText.parse(later)),
                0,
                0,
                WINDOW);

        assertThat(hop.reconciled()).isFalse();
        assertThat(hop.notReconciled().get()).contains(BrokerCounters.ACCEPTED);
        assertThat(hop.gap()).isZero();
        assertThat(hop.droppedIncrease()).hasValue(5);
        assertThat(hop.clean()).isFalse();
    }

    @Test
    void withoutTheQueueSizeNothingIsJudged() {
        IngestHopReconciliation hop = IngestHopReconciliation.compare(
                new BrokerCounters(Map.of("tcp", 0L), OptionalLong.of(0), OptionalLong.empty(), Optional.empty()),
                new BrokerCounters(Map.of("tcp", 500L), OptionalLong.of(0), OptionalLong.empty(), Optional.empty()),
                0,
                0,
                WINDOW);

        assertThat(hop.reconciled()).isFalse();
        assertThat(hop.notReconciled().get()).contains(BrokerCounters.QUEUED);
        assertThat(hop.clean()).isTrue();
    }

    private static BrokerCounters counters(Map<String, Long> accepted, long dropped, long queued, Instant startedAt) {
        return new BrokerCounters(accepted, OptionalLong.of(dropped), OptionalLong.of(queued), Optional.of(startedAt));
    }
}

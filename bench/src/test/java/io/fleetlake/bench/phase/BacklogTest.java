package io.fleetlake.bench.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BacklogTest {
    private static final Instant START = Instant.parse("2026-11-29T12:00:00Z");
    private static final List<Vehicle> VEHICLES = List.of(
            new Vehicle(0, "V0", PayloadFormat.AVRO, 1),
            new Vehicle(1, "V1", PayloadFormat.JSON, 1),
            new Vehicle(2, "V2", PayloadFormat.AVRO, 2),
            new Vehicle(3, "V3", PayloadFormat.AVRO, 1));

    @Test
    void vehiclesShareTheRecordsRoundRobin() {
        Backlog backlog = new Backlog(VEHICLES, START, Duration.ofSeconds(1), 10);

        assertThat(backlog.fixesOf(0)).isEqualTo(3);
        assertThat(backlog.fixesOf(1)).isEqualTo(3);
        assertThat(backlog.fixesOf(2)).isEqualTo(2);
        assertThat(backlog.fixesOf(3)).isEqualTo(2);
    }

    @Test
    void vehiclesAreStaggeredWithinTheInterval() {
        Backlog backlog = new Backlog(VEHICLES, START, Duration.ofSeconds(1), 10);

        assertThat(backlog.firstEventTime(0)).isEqualTo(START.toEpochMilli());
        assertThat(backlog.firstEventTime(2)).isEqualTo(START.toEpochMilli() + 500);
        assertThat(backlog.lastEventTime(0)).isEqualTo(START.toEpochMilli() + 2_000);
        assertThat(backlog.lastEventTime(3)).isEqualTo(START.toEpochMilli() + 1_750);
    }

    @Test
    void shareProcessedFollowsTheNewestEventTimeOfAVehicle() {
        Backlog backlog = new Backlog(VEHICLES, START, Duration.ofSeconds(1), 40);
        long first = backlog.firstEventTime(1);

        assertThat(backlog.shareProcessed(1, first - 1)).isZero();
        assertThat(backlog.shareProcessed(1, first)).isEqualTo(0.1);
        assertThat(backlog.shareProcessed(1, first + 4_000)).isEqualTo(0.5);
        assertThat(backlog.shareProcessed(1, backlog.lastEventTime(1))).isEqualTo(1.0);
        assertThat(backlog.shareProcessed(1, backlog.lastEventTime(1) + 60_000)).isEqualTo(1.0);
    }
}

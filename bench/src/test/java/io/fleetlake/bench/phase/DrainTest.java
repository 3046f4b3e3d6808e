package io.fleetlake.bench.phase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetlake.bench.observe.TrinoPollingConnection.Snapshot;
import io.fleetlake.bench.phase.DrainMonitor.Drain;
import io.fleetlake.bench.phase.DrainMonitor.ProgressPoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DrainTest {
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void drainRateRunsFromTheFirstRecordToTheLaterOfCommitAndRedis() {
        Drain drain = new Drain(T0, new Snapshot(1, T0.plusSeconds(20), 100_000), T0.plusSeconds(18), List.of());

        assertThat(drain.end()).isEqualTo(T0.plusSeconds(20));
        assertThat(drain.drainRate(100_000)).isEqualTo(5_000);

        Drain redisLast = new Drain(T0, new Snapshot(1, T0.plusSeconds(20), 100_000), T0.plusSeconds(25), List.of());
        assertThat(redisLast.drainRate(100_000)).isEqualTo(4_000);
    }

    @Test
    void steadyRateRunsFromTenToNinetyPercent() {
        List<ProgressPoint> progress = List.of(
                new ProgressPoint(T0, 0.02),
                new ProgressPoint(T0.plusSeconds(1), 0.12),
                new ProgressPoint(T0.plusSeconds(5), 0.5),
                new ProgressPoint(T0.plusSeconds(9), 0.92),
                new ProgressPoint(T0.plusSeconds(10), 1.0));
        Drain drain = new Drain(T0, new Snapshot(1, T0.plusSeconds(15), 100_000), T0.plusSeconds(12), progress);

        // (0.92 - 0.12) of 100,000 records in 8 s
        assertThat(drain.steadyRate(100_000))
                .hasValueSatisfying(rate -> assertThat(rate).isCloseTo(10_000, within(1e-6)));
    }

    @Test
    void noSteadyRateWhenTheSamplesMissedTheWindow() {
        List<ProgressPoint> jump = List.of(new ProgressPoint(T0, 0.05), new ProgressPoint(T0.plusSeconds(1), 1.0));
        Drain drain = new Drain(T0, new Snapshot(1, T0.plusSeconds(5), 10), T0.plusSeconds(5), jump);

        assertThat(drain.steadyRate(10)).isEmpty();
    }

    @Test
    void tenthRatesShowASlowdownAsTheBacklogIsProcessed() {
        // 10 % in the first second, then each tenth takes one second more than the one before.
        List<ProgressPoint> progress = new ArrayList<>();
        progress.add(new ProgressPoint(T0, 0.001));
        long millis = 0;
        for (int tenth = 1; tenth <= 10; tenth++) {
            millis += tenth * 1_000L;
            progress.add(new ProgressPoint(T0.plusMillis(millis), tenth / 10.0));
        }
        Drain drain = new Drain(T0, new Snapshot(1, T0.plusSeconds(60), 100_000), T0.plusSeconds(56), progress);

        List<Optional<Double>> rates = drain.tenthRates(100_000);

        assertThat(rates).hasSize(10);
        assertThat(rates.get(0)).hasValueSatisfying(rate -> assertThat(rate).isCloseTo(9_900, within(1e-6)));
        assertThat(rates.get(1)).hasValueSatisfying(rate -> assertThat(rate).isCloseTo(5_000, within(1e-6)));
        assertThat(rates.get(9)).hasValueSatisfying(rate -> assertThat(rate).isCloseTo(1_000, within(1e-6)));
        assertThat(drain.secondsTo(0.3)).hasValue(6.0);
        assertThat(drain.rateBetween(0.03, 0.27, 100_000)).isPresent();
    }
}

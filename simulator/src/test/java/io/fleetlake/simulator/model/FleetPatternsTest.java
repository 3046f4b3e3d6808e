package io.fleetlake.simulator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FleetPatternsTest {
    private static final Duration THREE_MINUTES = Duration.ofMinutes(3);
    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);
    private static final Duration ONE_SECOND = Duration.ofSeconds(1);

    @Test
    void noIncidentsKeepsOnlyTheDeliveryStops() {
        FleetPatterns patterns = FleetPatterns.noIncidents(THREE_MINUTES);

        assertThat(patterns.deliveryStopDuration()).isEqualTo(THREE_MINUTES);
        assertThat(patterns.v2Share()).isZero();
        assertThat(patterns.deviationsPerHour()).isZero();
        assertThat(patterns.glitchesPerHour()).isZero();
        assertThat(patterns.garageOutagesPerHour()).isZero();
    }

    @Test
    void garageOutagesTakeAtMostHalfOfTheTime() {
        assertThat(FleetPatterns.offlineShare(2, Duration.ofMinutes(15))).isEqualTo(0.5);
        assertThat(new FleetPatterns(0, THREE_MINUTES, 0, 0, 2, Duration.ofMinutes(15), ONE_SECOND)
                        .garageOutagesPerHour())
                .isEqualTo(2);
        assertThatThrownBy(() -> new FleetPatterns(0, THREE_MINUTES, 0, 0, 3.1, TEN_MINUTES, ONE_SECOND))
                .hasMessageContaining("at most half");
    }

    @Test
    void aGarageBufferHoldsAtMostOneHundredThousandFixes() {
        assertThat(FleetPatterns.bufferedFixes(TEN_MINUTES, ONE_SECOND)).isEqualTo(600);
        assertThat(FleetPatterns.bufferedFixes(Duration.ofMillis(1500), ONE_SECOND))
                .isEqualTo(2);
        assertThatThrownBy(() -> new FleetPatterns(0, THREE_MINUTES, 0, 0, 0.1, TEN_MINUTES, Duration.ofMillis(5)))
                .hasMessageContaining("at most 100000 fixes");
        assertThatThrownBy(() -> new FleetPatterns(0, THREE_MINUTES, 0, 0, 0.1, TEN_MINUTES, Duration.ofNanos(500)))
                .hasMessageContaining("at most every millisecond");
    }

    @Test
    void ratesAndDurationsAreBounded() {
        assertThatThrownBy(() -> new FleetPatterns(1.5, THREE_MINUTES, 0, 0, 0, TEN_MINUTES, ONE_SECOND))
                .hasMessageContaining("firmware 2 share");
        assertThatThrownBy(() -> new FleetPatterns(0, Duration.ofMinutes(61), 0, 0, 0, TEN_MINUTES, ONE_SECOND))
                .hasMessageContaining("delivery stop duration");
        assertThatThrownBy(() -> new FleetPatterns(0, THREE_MINUTES, 6.5, 0, 0, TEN_MINUTES, ONE_SECOND))
                .hasMessageContaining("Deviations per vehicle-hour");
        assertThatThrownBy(() -> new FleetPatterns(0, THREE_MINUTES, 0, 61, 0, TEN_MINUTES, ONE_SECOND))
                .hasMessageContaining("GPS glitches per vehicle-hour");
        assertThatThrownBy(() -> new FleetPatterns(0, THREE_MINUTES, 0, 0, 0, Duration.ZERO, ONE_SECOND))
                .hasMessageContaining("garage outage must last");
    }

    @Test
    void eventSlotsHoldAtMostOneEventAndKeepTheRate() {
        EventSlots hourly = new EventSlots(1, 0, 0, 0.5);
        EventSlots frequent = new EventSlots(1, 0, 0, 6);
        assertThat(hourly.slotMillis()).isEqualTo(Duration.ofHours(1).toMillis());
        assertThat(frequent.slotMillis()).isEqualTo(Duration.ofMinutes(10).toMillis());
        assertThat(hourly.slotOf(-1)).isEqualTo(-1);

        long events = 0;
        for (long slot = 0; slot < 10_000; slot++) {
            events += hourly.event(slot).isPresent() ? 1 : 0;
        }
        assertThat(events).isBetween(4_800L, 5_200L);
        assertThat(new EventSlots(1, 0, 0, 0).event(0)).isEmpty();
    }
}

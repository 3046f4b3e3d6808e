package io.fleetlake.bench.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.bench.phase.LatencyPhase.SendLog;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SendLogTest {
    @Test
    void eachSentFixBecomesVisibleOnceWhenTheMaximumPassesIt() {
        SendLog log = new SendLog(List.of("V1", "V2"));
        log.sent("V1", 100);
        log.sent("V1", 200);
        log.sent("V1", 300);
        log.sent("V9", 150); // not watched

        assertThat(log.newlyVisible("V1", 200)).containsExactly(100L, 200L);
        assertThat(log.newlyVisible("V1", 200)).isEmpty();
        assertThat(log.newlyVisible("V1", 150)).isEmpty();
        assertThat(log.newlyVisible("V1", 300)).containsExactly(300L);
        assertThat(log.newlyVisible("V9", 150)).isEmpty();
    }

    @Test
    void countsVehiclesWhoseLastFixIsNotVisibleYet() throws InterruptedException {
        SendLog log = new SendLog(List.of("V1", "V2", "V3"));
        log.sent("V1", 100);
        log.sent("V2", 100);
        log.sent("V2", 200);

        log.newlyVisible("V1", 100);
        log.newlyVisible("V2", 100);

        assertThat(log.vehiclesNotFullyVisible()).isEqualTo(1);
        log.newlyVisible("V2", 250);
        log.awaitAllVisible(Duration.ZERO);
        assertThat(log.vehiclesNotFullyVisible()).isZero();
    }
}

package io.fleetlake.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.bench.load.MqttPublishers.Ledger;
import io.fleetlake.bench.load.MqttPublishers.Mix;
import io.fleetlake.bench.load.MqttPublishers.Reconciliation;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MqttPublishersTest {
    private static final long NOW = 1_796_000_000_000L;

    @Test
    void mixSplitsTheRateBetweenDevicesAndGateways() {
        Mix mix = new Mix(5_000, Duration.ofMinutes(5), 1_000, Duration.ofSeconds(2), 4);

        assertThat(mix.deviceRate()).isEqualTo(500);
        assertThat(mix.gatewayRate()).isEqualTo(4_500);
        assertThat(mix.messages()).isEqualTo(1_500_000);
    }

    @Test
    void mixLeavesTheGatewaysAShare() {
        assertThatThrownBy(() -> new Mix(500, Duration.ofSeconds(10), 1_000, Duration.ofSeconds(2), 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1000 devices every 2000 ms already offer 500.0 msg/s");
        assertThatThrownBy(() -> new Mix(500, Duration.ofSeconds(10), 10, Duration.ofSeconds(2), 0))
                .hasMessageContaining("at least one gateway");
        assertThatThrownBy(() -> new Mix(500, Duration.ZERO, 10, Duration.ofSeconds(2), 1))
                .hasMessageContaining("duration");
    }

    @Test
    void reconciliationCountsLostDuplicatedAndUnknownRecords() {
        Ledger ledger = new Ledger();
        ledger.acknowledged(0, NOW);
        ledger.acknowledged(0, NOW + 1);
        ledger.acknowledged(7, NOW);
        ledger.acknowledged(1_048_575, NOW);

        Reconciliation reconciliation = ledger.reconcile(new long[] {
            Ledger.key(7, NOW), Ledger.key(0, NOW), Ledger.key(7, NOW), Ledger.key(7, NOW), Ledger.key(3, NOW), -1
        });

        assertThat(reconciliation).isEqualTo(new Reconciliation(4, 2, 2, 2, 2));
    }

    @Test
    void everythingFoundOnceIsNeitherLostNorDuplicated() {
        Ledger ledger = new Ledger();
        long[] found = new long[5_000];
        for (int index = 0; index < found.length; index++) {
            ledger.acknowledged(index % 2_000, NOW + index);
            found[found.length - 1 - index] = Ledger.key(index % 2_000, NOW + index);
        }

        assertThat(ledger.reconcile(found)).isEqualTo(new Reconciliation(5_000, 5_000, 0, 0, 0));
        assertThat(ledger.acknowledgedCount()).isEqualTo(5_000);
    }

    @Test
    void keysKeepVehicleAndEventTimeApart() {
        assertThat(Ledger.key(1, 0)).isNotEqualTo(Ledger.key(0, 1)).isEqualTo(1L << Ledger.TIME_BITS);
        assertThatThrownBy(() -> Ledger.key(1 << 20, NOW)).hasMessageContaining("vehicle index");
        assertThatThrownBy(() -> Ledger.key(0, 1L << 44)).hasMessageContaining("event time");
    }
}

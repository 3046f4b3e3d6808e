package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VerifyScopeTest {
    private static final Instant FROM = Instant.parse("2026-11-29T08:00:00Z");
    private static final Instant TO = Instant.parse("2026-11-29T09:00:00Z");

    @Test
    void fromIsInclusiveToExclusive() {
        VerifyScope scope = new VerifyScope(Optional.of(FROM), Optional.of(TO), Optional.empty());

        assertThat(scope.includesTime(FROM)).isTrue();
        assertThat(scope.includesTime(TO.minusNanos(1000))).isTrue();
        assertThat(scope.includesTime(TO)).isFalse();
        assertThat(scope.includesTime(FROM.minusNanos(1000))).isFalse();
        assertThat(scope.describe())
                .isEqualTo("event times 2026-11-29T08:00:00Z .. 2026-11-29T09:00:00Z, all vehicles");
    }

    @Test
    void aPrefixExcludesRecordsWithoutAVehicle() {
        VerifyScope scope = new VerifyScope(Optional.empty(), Optional.empty(), Optional.of("VH-00"));

        assertThat(scope.includesVehicle(Optional.of("VH-0042"))).isTrue();
        assertThat(scope.includesVehicle(Optional.of("VH-1042"))).isFalse();
        assertThat(scope.includesVehicle(Optional.empty())).isFalse();
        assertThat(VerifyScope.everything().includesVehicle(Optional.empty())).isTrue();
        assertThat(scope.describe()).isEqualTo("all event times, vehicles VH-00*");
    }

    @Test
    void anEmptyRangeIsRefused() {
        assertThatThrownBy(() -> new VerifyScope(Optional.of(TO), Optional.of(FROM), Optional.empty()))
                .hasMessage("--from 2026-11-29T09:00:00Z must be before --to 2026-11-29T08:00:00Z");
    }

    @Test
    void likePatternsAreEscaped() {
        assertThat(StackVerifier.escapeLike("VH_1%\\")).isEqualTo("VH\\_1\\%\\\\");
    }
}

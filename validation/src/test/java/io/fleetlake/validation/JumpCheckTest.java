package io.fleetlake.validation;

import static io.fleetlake.model.RejectionReason.IMPLAUSIBLE_JUMP;
import static io.fleetlake.validation.PositionBuilder.madrid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.fleetlake.model.Position;
import io.fleetlake.model.geo.GreatCircle;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JumpCheckTest {
    private static final PositionValidator VALIDATOR = new PositionValidator(ValidationRules.defaults());
    private static final double MADRID_LATITUDE = 40.4168;
    private static final double MADRID_LONGITUDE = -3.7038;

    static Stream<Arguments> jumps() {
        return Stream.of(
                arguments("GPS glitch: Madrid to Barcelona in 10 s", barcelona(Duration.ofSeconds(10)), true),
                arguments(
                        "Madrid to Barcelona in 30 min (1010 km/h, gap at the limit)",
                        barcelona(Duration.ofMinutes(30)),
                        true),
                arguments(
                        "Madrid to Barcelona after 30 min 1 ms: gap too long to judge",
                        barcelona(Duration.ofMillis(1_800_001)),
                        false),
                arguments("Madrid to Barcelona after two days: transported", barcelona(Duration.ofDays(2)), false),
                arguments("normal driving: 100 km/h for a minute", north(100.0 / 60, Duration.ofMinutes(1)), false),
                arguments(
                        "299 km/h for a minute (just under the limit)",
                        north(299.0 / 60, Duration.ofMinutes(1)),
                        false),
                arguments(
                        "301 km/h for a minute (just over the limit)", north(301.0 / 60, Duration.ofMinutes(1)), true),
                arguments(
                        "out of order: 10 s before the previous fix, in Barcelona",
                        barcelona(Duration.ofSeconds(-10)),
                        true),
                arguments("out of order: normal driving a minute earlier", north(1.5, Duration.ofMinutes(-1)), false),
                arguments("identical fix (same instant, same place)", madrid(), false),
                arguments("same place a second later (parked)", madrid().later(Duration.ofSeconds(1)), false),
                arguments("same instant, 50 m away (counts as 1 s: 180 km/h)", north(0.05, Duration.ZERO), false),
                arguments("same instant, 100 m away (counts as 1 s: 360 km/h)", north(0.1, Duration.ZERO), true),
                arguments("200 ms later, 100 m away (counts as 1 s)", north(0.1, Duration.ofMillis(200)), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jumps")
    void jump(String name, PositionBuilder candidate, boolean rejected) {
        Position previous = madrid().build();
        Position next = candidate.build();

        Optional<Rejection> verdict = VALIDATOR.checkJump(previous, next);

        assertThat(verdict.map(Rejection::reason))
                .isEqualTo(rejected ? Optional.of(IMPLAUSIBLE_JUMP) : Optional.empty());
        assertThat(VALIDATOR.checkJump(next, previous).map(Rejection::reason))
                .as("the verdict does not depend on which fix came first")
                .isEqualTo(verdict.map(Rejection::reason));
    }

    @Test
    void detailNamesDistanceTimeImpliedSpeedAndLimit() {
        Optional<Rejection> verdict = VALIDATOR.checkJump(
                madrid().build(), barcelona(Duration.ofSeconds(10)).build());

        assertThat(verdict)
                .contains(new Rejection(
                        IMPLAUSIBLE_JUMP,
                        "505.096 km from the previous accepted fix (40.4168, -3.7038 at 2024-05-01T10:00:00Z) in 10s"
                                + " implies 181834.7 km/h, above the maximum implied speed of 300 km/h"));
    }

    @Test
    void detailSaysWhenUnderOneSecondCountedAsOne() {
        assertThat(VALIDATOR.checkJump(
                        madrid().build(), north(0.1, Duration.ofMillis(200)).build()))
                .hasValueSatisfying(rejection -> assertThat(rejection.detail()).contains("in 0.2s (counted as 1s)"));
    }

    @Test
    void fixesOfDifferentVehiclesAreAProgrammingError() {
        assertThatThrownBy(() -> VALIDATOR.checkJump(
                        madrid().build(), madrid().vehicle("VH-0002").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("VH-0001")
                .hasMessageContaining("VH-0002");
    }

    private static PositionBuilder barcelona(Duration after) {
        return madrid().at(41.3874, 2.1686).later(after);
    }

    /** A fix the given distance due north of Madrid; along a meridian a degree is exactly KILOMETRES_PER_DEGREE. */
    private static PositionBuilder north(double kilometres, Duration after) {
        return madrid().at(MADRID_LATITUDE + kilometres / GreatCircle.KILOMETRES_PER_DEGREE, MADRID_LONGITUDE)
                .later(after);
    }
}

package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ComposeInterpolationTest {
    private final ComposeInterpolation interpolation = new ComposeInterpolation(Map.of("USER", "fleet", "EMPTY", ""));

    @Test
    void substitutesBracedAndPlainReferences() {
        assertThat(interpolation.interpolate("redis://:${USER}@redis:6379 $USER"))
                .isEqualTo("redis://:fleet@redis:6379 fleet");
    }

    @Test
    void doubleDollarIsALiteralDollar() {
        assertThat(interpolation.interpolate("-t '$$SYS/broker' \"$$USER\"")).isEqualTo("-t '$SYS/broker' \"$USER\"");
    }

    @Test
    void defaultsApplyAsInCompose() {
        assertThat(interpolation.interpolate("${MISSING:-127.0.0.1}:8088")).isEqualTo("127.0.0.1:8088");
        assertThat(interpolation.interpolate("${EMPTY:-default}")).isEqualTo("default");
        assertThat(interpolation.interpolate("${EMPTY-default}")).isEmpty();
        assertThat(interpolation.interpolate("${USER:?set USER in .env}")).isEqualTo("fleet");
    }

    @Test
    void requiredVariableWithoutValueFailsWithItsMessage() {
        assertThatThrownBy(() -> interpolation.interpolate("${EMPTY:?set EMPTY in .env}"))
                .hasMessage("Variable EMPTY is not set: set EMPTY in .env");
    }

    @Test
    void unsetVariableWithoutDefaultFailsInsteadOfBecomingEmpty() {
        assertThatThrownBy(() -> interpolation.interpolate("${TYPO}"))
                .hasMessageContaining("TYPO is not set and has no default");
    }

    @Test
    void findsTheReferencedVariablesButNotEscapedDollars() {
        assertThat(ComposeInterpolation.referencedVariables("${A:?x} $B $$C ${D:-${E}"))
                .containsExactly("A", "B", "D");
    }
}

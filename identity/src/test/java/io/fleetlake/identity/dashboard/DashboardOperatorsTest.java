package io.fleetlake.identity.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.PasswordHash;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DashboardOperatorsTest {
    @TempDir
    Path folder;

    @Test
    void storesOnlyHashesAndTheNewPasswordReplacesTheOld() throws Exception {
        DashboardOperators operators = new DashboardOperators(folder.resolve("operators.properties"));
        IssuedSecret first = operators.issue(DashboardOperators.OPERATOR);
        IssuedSecret second = operators.issue(DashboardOperators.OPERATOR);

        PasswordHash stored = operators.hash(DashboardOperators.OPERATOR).orElseThrow();
        assertThat(stored.matches(second.secret())).isTrue();
        assertThat(stored.matches(first.secret())).as("the rotated password").isFalse();
        assertThat(Files.readString(operators.path()))
                .doesNotContain(first.secret())
                .doesNotContain(second.secret());
        assertThat(operators.hash("someone-else")).isEmpty();
    }

    @Test
    void aChosenPasswordIsHashedExpensivelyAndMustNotBeShort() {
        DashboardOperators operators = new DashboardOperators(folder.resolve("operators.properties"));
        operators.set("alice", "correct horse battery");
        PasswordHash hash = operators.hash("alice").orElseThrow();
        assertThat(hash.iterations()).isEqualTo(PasswordHash.CHOSEN_PASSWORD_ITERATIONS);
        assertThat(hash.matches("correct horse battery")).isTrue();
        assertThatThrownBy(() -> operators.set("alice", "short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 12 characters");
        assertThat(operators.remove("alice")).isTrue();
        assertThat(operators.names()).isEmpty();
    }
}

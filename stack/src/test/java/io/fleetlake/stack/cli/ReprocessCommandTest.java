package io.fleetlake.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReprocessCommandTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void sinceIsAnInstantOrADurationBackFromNow() {
        assertThat(ReprocessCommand.parseSince(null, NOW)).isEmpty();
        assertThat(ReprocessCommand.parseSince("2026-11-29T08:00:00Z", NOW))
                .contains(Instant.parse("2026-11-29T08:00:00Z"));
        assertThat(ReprocessCommand.parseSince("2h", NOW)).contains(Instant.parse("2026-11-29T10:00:00Z"));
        assertThat(ReprocessCommand.parseSince("3d", NOW)).contains(Instant.parse("2026-11-26T12:00:00Z"));
    }

    @Test
    void unparsableSinceSaysWhatIsAccepted() {
        assertThatThrownBy(() -> ReprocessCommand.parseSince("yesterday", NOW))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--since 'yesterday'")
                .hasMessageContaining("ISO-8601 instant");
    }
}

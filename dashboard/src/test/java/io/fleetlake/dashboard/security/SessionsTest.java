package io.fleetlake.dashboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SessionsTest {
    private final MovingClock clock = new MovingClock();
    private final Sessions sessions = new Sessions(Duration.ofMinutes(30), Duration.ofHours(12), clock);

    @Test
    void aSessionEndsWhenUnusedForTheIdleTimeout() {
        Sessions.Session session = sessions.start("operator", "$7$hash");
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.use(session.id())).isPresent();
        clock.advance(Duration.ofMinutes(29));
        assertThat(sessions.use(session.id())).as("used 29 minutes ago").isPresent();
        clock.advance(Duration.ofMinutes(30));
        assertThat(sessions.use(session.id())).isEmpty();
        clock.advance(Duration.ofMinutes(-30));
        assertThat(sessions.use(session.id()))
                .as("an ended session stays ended")
                .isEmpty();
    }

    @Test
    void aSessionEndsAtItsLifetimeHoweverBusy() {
        Sessions.Session session = sessions.start("operator", "$7$hash");
        for (int minutes = 0; minutes < 12 * 60 - 10; minutes += 10) {
            clock.advance(Duration.ofMinutes(10));
            assertThat(sessions.use(session.id()))
                    .as("after %s minutes", minutes + 10)
                    .isPresent();
        }
        clock.advance(Duration.ofMinutes(10));
        assertThat(sessions.use(session.id())).isEmpty();
    }

    @Test
    void sessionsAreUnguessableAndEndAtSignOut() {
        Sessions.Session first = sessions.start("operator", "$7$hash");
        Sessions.Session second = sessions.start("operator", "$7$hash");
        assertThat(first.id()).hasSize(43).isNotEqualTo(second.id());
        assertThat(first.csrfToken()).hasSize(43).isNotEqualTo(first.id()).isNotEqualTo(second.csrfToken());
        assertThat(sessions.use("made-up")).isEmpty();
        sessions.end(first.id());
        assertThat(sessions.use(first.id())).isEmpty();
        assertThat(sessions.use(second.id())).isPresent();
        assertThat(first.toString()).doesNotContain(first.id()).doesNotContain(first.csrfToken());
    }

    private static final class MovingClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

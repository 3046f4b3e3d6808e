package io.fleetlake.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExceptionStatusesTest {
    private final ExceptionStatuses statuses = ExceptionStatuses.of(Map.of(
            IllegalArgumentException.class, 400,
            UnsupportedOperationException.class, 406,
            RuntimeException.class, 502));

    @Test
    void anExceptionMapsThroughItsNearestListedClass() {
        assertThat(statuses.statusOf(new IllegalArgumentException("bad"))).isEqualTo(400);
        // A subclass of a listed class needs no entry of its own.
        assertThat(statuses.statusOf(new NumberFormatException("pageSize"))).isEqualTo(400);
        assertThat(statuses.statusOf(new UnsupportedOperationException("views")))
                .isEqualTo(406);
        assertThat(statuses.statusOf(new UncheckedIOException(new java.io.IOException("disk"))))
                .isEqualTo(502);
    }

    @Test
    void anUnlistedExceptionIsAServerError() {
        assertThat(statuses.statusOf(new Exception("checked"))).isEqualTo(500);
        assertThat(statuses.statusOf(new AssertionError("bug"))).isEqualTo(500);
        assertThat(ExceptionStatuses.OWN.statusOf(new IllegalArgumentException("bad")))
                .isEqualTo(ExceptionStatuses.INTERNAL_SERVER_ERROR);
    }

    @Test
    void anExceptionThatCarriesItsStatusAnswersWithItWhateverTheTable() {
        assertThat(statuses.statusOf(new Refused(429))).isEqualTo(429);
        assertThat(ExceptionStatuses.OWN.statusOf(new Refused(404))).isEqualTo(404);
    }

    /** A server's own error code: a subclass of a listed class, whose own status wins. */
    private static final class Refused extends IllegalArgumentException implements ExceptionStatuses.WithStatus {
        private static final long serialVersionUID = 1L;

        private final int status;

        Refused(int status) {
            super("refused");
            this.status = status;
        }

        @Override
        public int status() {
            return status;
        }
    }
}

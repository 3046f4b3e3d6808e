package io.fleetlake.dashboard.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.http.ExceptionStatuses;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The status each error code answers with, through the shared {@link ExceptionStatuses}. */
class DashboardErrorTest {
    @Test
    void everyErrorCodeHasItsStatus() {
        Map<DashboardError, Integer> statuses = new EnumMap<>(DashboardError.class);
        for (DashboardError error : DashboardError.values()) {
            statuses.put(error, ExceptionStatuses.OWN.statusOf(new DashboardException(error, "message")));
        }

        assertThat(statuses)
                .containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry(DashboardError.INVALID_PARAMETER, 400),
                        Map.entry(DashboardError.UNAUTHORIZED, 401),
                        Map.entry(DashboardError.CSRF_TOKEN_MISSING, 403),
                        Map.entry(DashboardError.NOT_FOUND, 404),
                        Map.entry(DashboardError.METHOD_NOT_ALLOWED, 405),
                        Map.entry(DashboardError.PAYLOAD_TOO_LARGE, 413),
                        Map.entry(DashboardError.VEHICLE_NOT_FOUND, 404),
                        Map.entry(DashboardError.SNAPSHOT_NOT_FOUND, 404),
                        Map.entry(DashboardError.REDIS_UNAVAILABLE, 503),
                        Map.entry(DashboardError.TRINO_UNAVAILABLE, 503),
                        Map.entry(DashboardError.HEALTH_UNAVAILABLE, 503),
                        Map.entry(DashboardError.TOO_BUSY, 503),
                        Map.entry(DashboardError.UNREADABLE_VEHICLE_STATE, 502),
                        Map.entry(DashboardError.INTERNAL, 500)));
    }

    @Test
    void anyOtherExceptionIsAnInternalError() {
        assertThat(ExceptionStatuses.OWN.statusOf(new IllegalStateException("bug")))
                .isEqualTo(500)
                .isEqualTo(DashboardError.INTERNAL.status());
    }
}

package io.fleetlake.dashboard.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExceptionStatusesTest {
    @Test
    void everyErrorCodeHasItsStatus() {
        Map<DashboardError, Integer> statuses = new EnumMap<>(DashboardError.class);
        for (DashboardError error : DashboardError.values()) {
            statuses.put(error, ExceptionStatuses.statusOf(new DashboardException(error, "message")));
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
        assertThat(ExceptionStatuses.statusOf(new IllegalStateException("bug"))).isEqualTo(500);
        assertThat(ExceptionStatuses.errorOf(new NullPointerException())).isEqualTo(DashboardError.INTERNAL);
    }
}

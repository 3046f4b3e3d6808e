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
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        DashboardError.INVALID_PARAMETER, 400,
                        DashboardError.NOT_FOUND, 404,
                        DashboardError.METHOD_NOT_ALLOWED, 405,
                        DashboardError.VEHICLE_NOT_FOUND, 404,
                        DashboardError.SNAPSHOT_NOT_FOUND, 404,
                        DashboardError.REDIS_UNAVAILABLE, 503,
                        DashboardError.TRINO_UNAVAILABLE, 503,
                        DashboardError.HEALTH_UNAVAILABLE, 503,
                        DashboardError.UNREADABLE_VEHICLE_STATE, 502,
                        DashboardError.INTERNAL, 500));
    }

    @Test
    void anyOtherExceptionIsAnInternalError() {
        assertThat(ExceptionStatuses.statusOf(new IllegalStateException("bug"))).isEqualTo(500);
        assertThat(ExceptionStatuses.errorOf(new NullPointerException())).isEqualTo(DashboardError.INTERNAL);
    }
}

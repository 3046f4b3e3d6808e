package io.fleetlake.dashboard.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ReplayQueryTest {
    private static final Instant AT = Instant.parse("2026-11-29T18:30:15.123456789Z");

    @Test
    void newestRowPerVehicleWithinTheBoundsOfTheCurrentTable() {
        ReplayQuery query = ReplayQuery.of(AT, OptionalLong.empty(), Duration.ofDays(1));

        assertThat(query.sql())
                .isEqualTo("SELECT r.*, pl.place_name, pl.province FROM ("
                        + "SELECT * FROM (SELECT p.*, row_number() OVER (PARTITION BY p.vehicle_id ORDER BY"
                        + " p.event_time DESC) AS replay_rank FROM fleet.positions AS p"
                        + " WHERE p.event_time > from_iso8601_timestamp(?)"
                        + " AND p.event_time <= from_iso8601_timestamp(?)) WHERE replay_rank = 1) r"
                        + " LEFT JOIN fleet.position_places pl"
                        + " ON pl.vehicle_id = r.vehicle_id AND pl.event_time = r.event_time ORDER BY vehicle_id");
        assertThat(query.parameters()).containsExactly("2026-11-28T18:30:15.123Z", "2026-11-29T18:30:15.123Z");
        assertThat(query.at()).isEqualTo(Instant.parse("2026-11-29T18:30:15.123Z"));
        assertThat(query.scanFrom()).isEqualTo(Instant.parse("2026-11-28T18:30:15.123Z"));
        assertThat(query.snapshotId()).isEmpty();
    }

    @Test
    void aSnapshotReadsTheTableAsItStoodThen() {
        ReplayQuery query = ReplayQuery.of(AT, OptionalLong.of(9_920_562_265_880_443L), Duration.ofHours(6));

        assertThat(query.sql()).contains(" FROM fleet.positions FOR VERSION AS OF 9920562265880443 AS p WHERE ");
        assertThat(query.parameters()).containsExactly("2026-11-29T12:30:15.123Z", "2026-11-29T18:30:15.123Z");
        assertThat(query.snapshotId()).hasValue(9_920_562_265_880_443L);
    }

    @Test
    void theInstantsAreParametersNeverSqlText() {
        ReplayQuery query =
                ReplayQuery.of(Instant.parse("2026-01-02T03:04:05Z"), OptionalLong.empty(), Duration.ofDays(1));

        assertThat(query.sql()).doesNotContain("2026").doesNotContain("'");
        assertThat(query.sql().chars().filter(character -> character == '?')).hasSize(2);
        assertThat(query.parameters()).containsExactly("2026-01-01T03:04:05Z", "2026-01-02T03:04:05Z");
    }

    @Test
    void invalidArgumentsAreRefused() {
        assertThatThrownBy(() -> ReplayQuery.of(AT, OptionalLong.of(0), Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("snapshot ids are positive");
        assertThatThrownBy(() -> ReplayQuery.of(AT, OptionalLong.of(-5), Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplayQuery.of(AT, OptionalLong.empty(), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lookback");
    }
}

package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AsOfTest {
    @Test
    void currentStateHasNoClause() {
        assertThat(AsOf.current().clause()).isEmpty();
        assertThat(AsOf.current().describe()).isEqualTo("now");
    }

    @Test
    void snapshotIsABigintLiteralBecauseTrinoRefusesIntegerVersions() {
        // Trino 476: "Unsupported type for table version: integer" for FOR VERSION AS OF 123.
        assertThat(AsOf.snapshot(123).clause()).isEqualTo("FOR VERSION AS OF BIGINT '123'");
        assertThat(AsOf.snapshot(6492320921491788140L).clause())
                .isEqualTo("FOR VERSION AS OF BIGINT '6492320921491788140'");
        assertThat(AsOf.snapshot(123).describe()).isEqualTo("snapshot 123");
    }

    @Test
    void tagIsAStringLiteralWithQuotesDoubled() {
        assertThat(AsOf.tag("audit-2026-11-28").clause()).isEqualTo("FOR VERSION AS OF 'audit-2026-11-28'");
        assertThat(AsOf.tag("o'clock").clause()).isEqualTo("FOR VERSION AS OF 'o''clock'");
        assertThat(AsOf.tag("audit-2026-11-28").describe()).isEqualTo("tag audit-2026-11-28");
    }

    @Test
    void tagNameMustBePrintable() {
        assertThatThrownBy(() -> AsOf.tag(" "))
                .isInstanceOf(AuditException.class)
                .extracting(exception -> ((AuditException) exception).error())
                .isEqualTo(AuditError.INVALID_ARGUMENT);
        assertThatThrownBy(() -> AsOf.tag("a\nb")).isInstanceOf(AuditException.class);
    }

    @Test
    void instantIsATimestampWithTimeZoneLiteralInUtcMilliseconds() {
        AsOf asOf = AsOf.instant(Instant.parse("2026-11-28T14:05:00.123456Z"));

        assertThat(asOf.clause()).isEqualTo("FOR TIMESTAMP AS OF TIMESTAMP '2026-11-28 14:05:00.123 UTC'");
        assertThat(asOf.describe()).isEqualTo("2026-11-28T14:05:00.123Z");
    }
}

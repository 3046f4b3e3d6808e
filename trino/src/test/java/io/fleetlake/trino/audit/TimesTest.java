package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TimesTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
    private static final ZoneId MADRID = ZoneId.of("Europe/Madrid");

    @Test
    void readsInstantsWithAnOffset() {
        assertThat(parse("2026-11-28T14:02:00Z", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-28T14:02:00Z"));
        assertThat(parse("2026-11-28T15:02:00+01:00", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-28T14:02:00Z"));
        assertThat(parse("2026-11-28T14:02:00.250Z", MADRID)).isEqualTo(Instant.parse("2026-11-28T14:02:00.250Z"));
        assertThat(parse("2026-11-28T15:02:00+01:00[Europe/Madrid]", ZoneOffset.UTC))
                .isEqualTo(Instant.parse("2026-11-28T14:02:00Z"));
    }

    @Test
    void readsLocalTimesInTheGivenZone() {
        assertThat(parse("2026-11-28 14:02", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-28T14:02:00Z"));
        assertThat(parse("2026-11-28T14:02:30", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-28T14:02:30Z"));
        assertThat(parse("2026-11-28 15:02:00.5", MADRID)).isEqualTo(Instant.parse("2026-11-28T14:02:00.500Z"));
        assertThat(parse("2026-11-28", MADRID)).isEqualTo(Instant.parse("2026-11-27T23:00:00Z"));
    }

    @Test
    void readsNowAndTimesRelativeToIt() {
        assertThat(parse("now", ZoneOffset.UTC)).isEqualTo(CLOCK.instant());
        assertThat(parse("NOW-2h", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-29T10:00:00Z"));
        assertThat(parse("now - 90s", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-29T11:58:30Z"));
        assertThat(parse("now+1d", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-11-30T12:00:00Z"));
    }

    @Test
    void refusesOtherTextNamingTheOptionAndTheForms() {
        assertThatThrownBy(() -> Times.parseInstant("--at", "last tuesday", ZoneOffset.UTC, CLOCK))
                .isInstanceOf(AuditException.class)
                .hasMessageStartingWith("--at 'last tuesday' is not a time: use 2026-11-28T14:02:00Z")
                .extracting(exception -> ((AuditException) exception).exitCode())
                .isEqualTo(2);
        assertThatThrownBy(() -> Times.parseInstant("--at", "2026-13-01", ZoneOffset.UTC, CLOCK))
                .isInstanceOf(AuditException.class);
    }

    @Test
    void writesUtcMillisecondsForTrino() {
        assertThat(Times.iso(Instant.parse("2026-11-28T14:02:00Z"))).isEqualTo("2026-11-28T14:02:00.000Z");
        assertThat(Times.iso(Instant.parse("2026-11-28T14:02:00.123456Z"))).isEqualTo("2026-11-28T14:02:00.123Z");
    }

    @Test
    void readsDaysDurationsAndZones() {
        assertThat(Times.parseDate("--date", "2026-11-28")).isEqualTo(LocalDate.of(2026, 11, 28));
        assertThatThrownBy(() -> Times.parseDate("--date", "28/11/2026"))
                .hasMessageContaining("--date '28/11/2026' is not a day");
        assertThat(Times.parseDuration("--keep", "400d")).isEqualTo(Duration.ofDays(400));
        assertThat(Times.parseDuration("--keep", "PT5M")).isEqualTo(Duration.ofMinutes(5));
        assertThatThrownBy(() -> Times.parseDuration("--keep", "0s")).hasMessageContaining("longer than zero");
        assertThatThrownBy(() -> Times.parseDuration("--keep", "forever")).hasMessageContaining("not a duration");
        assertThat(Times.parseZone("--zone", "Europe/Madrid")).isEqualTo(MADRID);
        assertThatThrownBy(() -> Times.parseZone("--zone", "Mars/Olympus")).hasMessageContaining("not a time zone");
    }

    private static Instant parse(String text, ZoneId zone) {
        return Times.parseInstant("--at", text, zone, CLOCK);
    }
}

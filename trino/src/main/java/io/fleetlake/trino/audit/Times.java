package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigSource;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Times as the audits read them from the command line and write them to Trino and to messages. */
final class Times {
    static final String INSTANT_FORMATS = "2026-11-28T14:02:00Z, 2026-11-28T15:02:00+01:00, 2026-11-28 14:02[:00]"
            + " (in --zone, default UTC), 2026-11-28 (start of the day), now or now-2h";

    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter LOCAL_DATE_TIME = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart()
            .appendLiteral('T')
            .optionalEnd()
            .optionalStart()
            .appendLiteral(' ')
            .optionalEnd()
            .appendValue(ChronoField.HOUR_OF_DAY, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .optionalStart()
            .appendLiteral(':')
            .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .toFormatter(Locale.ROOT);
    private static final Pattern RELATIVE_TO_NOW = Pattern.compile("now\\s*([-+])\\s*(\\S+)");

    private Times() {}

    /**
     * An instant as ISO-8601 in UTC with milliseconds, {@code 2026-11-28T14:02:00.000Z}: the form Trino's
     * {@code from_iso8601_timestamp} reads and messages show.
     */
    static String iso(Instant instant) {
        return ISO_MILLIS.format(instant);
    }

    /**
     * Reads a command-line time (see {@link #INSTANT_FORMATS}). Times without an offset are in {@code zone}.
     *
     * @param option the option name, for the error message
     * @throws AuditException {@link AuditError#INVALID_ARGUMENT} when the text is none of these forms
     */
    static Instant parseInstant(String option, String text, ZoneId zone, Clock clock) {
        requireNonNull(option, "option is null");
        requireNonNull(text, "text is null");
        requireNonNull(zone, "zone is null");
        requireNonNull(clock, "clock is null");
        String value = text.trim();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("now")) {
            return clock.instant();
        }
        Matcher relative = RELATIVE_TO_NOW.matcher(lower);
        if (relative.matches()) {
            Duration offset = parseDuration(option, relative.group(2));
            return relative.group(1).equals("-")
                    ? clock.instant().minus(offset)
                    : clock.instant().plus(offset);
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException notWithOffset) {
            // Try the forms without an offset below.
        }
        try {
            return ZonedDateTime.parse(value).toInstant();
        } catch (DateTimeParseException notWithZone) {
            // Try the forms without an offset below.
        }
        try {
            return LocalDateTime.parse(value, LOCAL_DATE_TIME).atZone(zone).toInstant();
        } catch (DateTimeParseException notLocalDateTime) {
            // Try a plain date below.
        }
        try {
            return LocalDate.parse(value).atStartOfDay(zone).toInstant();
        } catch (DateTimeParseException notDate) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT, option + " '" + text + "' is not a time: use " + INSTANT_FORMATS);
        }
    }

    /** Reads a day such as {@code 2026-11-28}. */
    static LocalDate parseDate(String option, String text) {
        try {
            return LocalDate.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT,
                    option + " '" + text + "' is not a day: use YYYY-MM-DD, for example" + " 2026-11-28");
        }
    }

    /** Reads a positive duration such as {@code 500ms}, {@code 5m}, {@code 2h}, {@code 400d} or {@code PT5M}. */
    static Duration parseDuration(String option, String text) {
        Duration duration;
        try {
            duration = ConfigSource.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT,
                    option + " '" + text + "' is not a duration: use for example 90s, 5m, 2h, 400d or PT5M");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT, option + " '" + text + "' must be longer than zero, for example 5m");
        }
        return duration;
    }

    /** Reads a time-zone id such as {@code UTC}, {@code Europe/Madrid} or {@code +01:00}. */
    static ZoneId parseZone(String option, String text) {
        try {
            return ZoneId.of(text.trim());
        } catch (DateTimeException e) {
            throw new AuditException(
                    AuditError.INVALID_ARGUMENT,
                    option + " '" + text + "' is not a time zone: use UTC, a region such as Europe/Madrid, or an"
                            + " offset such as +01:00");
        }
    }
}

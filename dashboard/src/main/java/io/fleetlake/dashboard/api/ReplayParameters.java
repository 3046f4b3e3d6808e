package io.fleetlake.dashboard.api;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** Parses and validates the query parameters of {@code GET /api/replay}. */
final class ReplayParameters {
    static final String AT = "at";
    static final String SNAPSHOT = "snapshot";

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,19}");

    private ReplayParameters() {}

    /** {@code at}: an ISO-8601 instant with {@code Z} or an offset, such as {@code 2026-11-29T18:00:00Z}. */
    static Instant at(Optional<String> value) {
        String text = value.orElseThrow(() -> invalid(
                "The query parameter " + AT + " is required: the instant to replay, such as ?at=2026-11-29T18:00:00Z"));
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw invalid("The query parameter " + AT + " = '" + text + "' is not an ISO-8601 instant with a time zone:"
                    + " use a form such as 2026-11-29T18:00:00Z or 2026-11-29T19:00:00+01:00");
        }
    }

    /** {@code snapshot}: optional, a snapshot id as {@code /api/snapshots} lists it. */
    static OptionalLong snapshot(Optional<String> value) {
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        String text = value.get();
        if (DIGITS.matcher(text).matches()) {
            try {
                long snapshotId = Long.parseLong(text);
                if (snapshotId > 0) {
                    return OptionalLong.of(snapshotId);
                }
            } catch (NumberFormatException e) {
                // Nineteen digits above Long.MAX_VALUE: not a snapshot id either, reported below.
            }
        }
        throw invalid("The query parameter " + SNAPSHOT + " = '" + text + "' is not a snapshot id: use a positive"
                + " integer as /api/snapshots lists them, or leave it out to read the current table");
    }

    private static DashboardException invalid(String message) {
        return new DashboardException(DashboardError.INVALID_PARAMETER, message);
    }
}

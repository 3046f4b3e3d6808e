package io.fleetlake.validation;

import java.math.BigDecimal;
import java.time.Duration;

/** How values appear in rejection details and configuration errors: short, and as an operator would write them. */
final class DetailText {
    private static final long MILLIS_PER_SECOND = 1_000;
    private static final long MILLIS_PER_MINUTE = 60 * MILLIS_PER_SECOND;
    private static final long MILLIS_PER_HOUR = 60 * MILLIS_PER_MINUTE;
    private static final long MILLIS_PER_DAY = 24 * MILLIS_PER_HOUR;
    /** The largest number of seconds whose milliseconds (with a fraction) still fit in a {@code long}. */
    private static final long MAX_MILLIS_SECONDS = Long.MAX_VALUE / MILLIS_PER_SECOND - 1;

    private DetailText() {}

    /** {@code 200}, {@code 200.1}, {@code NaN}: no trailing {@code .0}, no exponent. */
    static String number(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** {@code 7d}, {@code 30m}, {@code 30s}, {@code 45.5s}: the configuration syntax where the value allows it. */
    static String duration(Duration duration) {
        long seconds = duration.getSeconds();
        if (seconds > MAX_MILLIS_SECONDS || seconds < -MAX_MILLIS_SECONDS) {
            // Beyond what milliseconds can hold (about 292 million years): whole seconds, never an overflow, because a
            // detail is written for any value a payload may carry.
            return seconds + "s";
        }
        long millis = duration.toMillis();
        if (millis != 0 && millis % MILLIS_PER_DAY == 0) {
            return millis / MILLIS_PER_DAY + "d";
        }
        if (millis != 0 && millis % MILLIS_PER_HOUR == 0) {
            return millis / MILLIS_PER_HOUR + "h";
        }
        if (millis != 0 && millis % MILLIS_PER_MINUTE == 0) {
            return millis / MILLIS_PER_MINUTE + "m";
        }
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + "s";
    }
}

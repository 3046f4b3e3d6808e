package io.fleetlake.common.http;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts failed sign-in attempts (a wrong password, an unknown client's secret) per client address and refuses an
 * address that failed {@code maxFailures} times within {@code window}: the one rate limiter of the project's HTTP
 * servers, used by the dashboard's sign-in and the Iceberg REST catalog's token endpoint. Each failed attempt costs the
 * server a PBKDF2 hash; without a limit an address could try passwords as fast as the server hashes.
 *
 * <p>The window is fixed per address: it opens at the address's first failure and, once it has passed, the next
 * failure opens a new one. A blocked address stays blocked until its window ends, whatever it sends, so guessing
 * continues at most {@code maxFailures} per window. A success does not reset the count: otherwise an attacker holding
 * one valid account could interleave its sign-ins with guesses at another.
 *
 * <p>Memory is bounded: at most {@code maxAddresses} addresses are tracked; beyond that the windows that ended are
 * dropped, then the oldest ones (an address flood can only make the limiter forget, never grow without bound).
 * Thread-safe.
 */
public final class FailedAttemptLimiter {
    /** The default number of addresses tracked at once. */
    public static final int DEFAULT_MAX_ADDRESSES = 10_000;

    private final int maxFailures;
    private final Duration window;
    private final int maxAddresses;
    private final Clock clock;
    /** By address, in the order their windows opened (insertion order: the eldest first). */
    private final Map<String, Window> windows = new LinkedHashMap<>();

    /**
     * @param maxFailures failures an address may have within {@code window}; its next attempt is refused
     * @param window how long failures count
     */
    public FailedAttemptLimiter(int maxFailures, Duration window, Clock clock) {
        this(maxFailures, window, DEFAULT_MAX_ADDRESSES, clock);
    }

    public FailedAttemptLimiter(int maxFailures, Duration window, int maxAddresses, Clock clock) {
        requireNonNull(window, "window is null");
        this.clock = requireNonNull(clock, "clock is null");
        if (maxFailures < 1) {
            throw new IllegalArgumentException("maxFailures must be at least 1, was " + maxFailures);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive, was " + window);
        }
        if (maxAddresses < 1) {
            throw new IllegalArgumentException("maxAddresses must be at least 1, was " + maxAddresses);
        }
        this.maxFailures = maxFailures;
        this.window = window;
        this.maxAddresses = maxAddresses;
    }

    /** Whether {@code address} has used up its failures: refuse its attempt without checking anything. */
    public synchronized boolean blocked(String address) {
        requireNonNull(address, "address is null");
        Window current = windows.get(address);
        if (current == null) {
            return false;
        }
        if (current.ended(clock.instant(), window)) {
            windows.remove(address);
            return false;
        }
        return current.failures >= maxFailures;
    }

    /** Records a failed attempt of {@code address}. */
    public synchronized void failed(String address) {
        requireNonNull(address, "address is null");
        Instant now = clock.instant();
        Window current = windows.get(address);
        if (current == null || current.ended(now, window)) {
            windows.remove(address);
            makeRoom(now);
            current = new Window(now);
            windows.put(address, current);
        }
        current.failures++;
    }

    /** How long {@code address} stays blocked, for a {@code Retry-After} header; zero when it is not. */
    public synchronized Duration retryAfter(String address) {
        requireNonNull(address, "address is null");
        if (!blocked(address)) {
            return Duration.ZERO;
        }
        Duration left =
                Duration.between(clock.instant(), windows.get(address).opened.plus(window));
        return left.isNegative() ? Duration.ZERO : left;
    }

    private void makeRoom(Instant now) {
        if (windows.size() < maxAddresses) {
            return;
        }
        windows.values().removeIf(open -> open.ended(now, window));
        Iterator<Window> eldest = windows.values().iterator();
        while (windows.size() >= maxAddresses && eldest.hasNext()) {
            eldest.next();
            eldest.remove();
        }
    }

    private static final class Window {
        private final Instant opened;
        private int failures;

        private Window(Instant opened) {
            this.opened = opened;
        }

        private boolean ended(Instant now, Duration length) {
            return !now.isBefore(opened.plus(length));
        }
    }
}

package io.fleetlake.dashboard.security;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The signed-in sessions, in memory (a restart signs everyone out). A session id and its CSRF token are 256 random bits
 * each; a session ends when unused for the idle timeout, at its lifetime however busy, or at sign-out. Only signed-in
 * operators create sessions, so their number stays small; ended ones are dropped when a new one starts.
 */
final class Sessions {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Duration idleTimeout;
    private final Duration lifetime;
    private final Clock clock;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    Sessions(Duration idleTimeout, Duration lifetime, Clock clock) {
        this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout is null");
        this.lifetime = requireNonNull(lifetime, "lifetime is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A new session for {@code user}. */
    Session start(String user, String passwordHash) {
        Instant now = clock.instant();
        sessions.values().removeIf(session -> ended(session, now));
        Session session = new Session(randomToken(), user, passwordHash, randomToken(), now, now);
        sessions.put(session.id(), session);
        return session;
    }

    /** The live session with this id, marked as used now; empty when unknown or ended. */
    Optional<Session> use(String id) {
        requireNonNull(id, "id is null");
        Instant now = clock.instant();
        Session session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        if (ended(session, now)) {
            sessions.remove(id, session);
            return Optional.empty();
        }
        Session used = session.usedAt(now);
        sessions.replace(id, session, used);
        return Optional.of(used);
    }

    void end(String id) {
        sessions.remove(requireNonNull(id, "id is null"));
    }

    /** A random token, 256 bits, URL-safe Base64. */
    static String randomToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private boolean ended(Session session, Instant now) {
        return !now.isBefore(session.lastUsed().plus(idleTimeout))
                || !now.isBefore(session.started().plus(lifetime));
    }

    /**
     * @param id the cookie's value
     * @param user who signed in
     * @param passwordHash the hash of the password the user signed in with: once it changes (a rotation), the session
     *     ends
     * @param csrfToken what every state-changing request of this session must carry
     */
    record Session(String id, String user, String passwordHash, String csrfToken, Instant started, Instant lastUsed) {
        Session {
            requireNonNull(id, "id is null");
            requireNonNull(user, "user is null");
            requireNonNull(passwordHash, "passwordHash is null");
            requireNonNull(csrfToken, "csrfToken is null");
            requireNonNull(started, "started is null");
            requireNonNull(lastUsed, "lastUsed is null");
        }

        Session usedAt(Instant now) {
            return new Session(id, user, passwordHash, csrfToken, started, now);
        }

        @Override
        public String toString() {
            return "Session{user=" + user + ", started=" + started + "}";
        }
    }
}

package io.fleetlake.trino;

import io.fleetlake.model.trino.TrinoUser;
import java.util.HashMap;
import java.util.Map;

/** The security keys every Trino configuration needs (a shared secret, a password per user), for the tests. */
final class SecurityValues {
    static final String SHARED_SECRET = "test-shared-secret-0123456789abcdef";

    private SecurityValues() {}

    /** The password of {@code user} in {@link #with}. */
    static String password(TrinoUser user) {
        return "password-of-" + user.userName();
    }

    /** {@code values} plus the shared secret and a password for every user. */
    static Map<String, String> with(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.put(TrinoSecurity.SHARED_SECRET, SHARED_SECRET);
        for (TrinoUser user : TrinoUser.values()) {
            all.put(TrinoSecurity.PASSWORD_PREFIX + user.userName(), password(user));
        }
        return all;
    }
}

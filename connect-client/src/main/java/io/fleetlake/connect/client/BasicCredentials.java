package io.fleetlake.connect.client;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A user name and password for HTTP basic authentication ({@code Authorization: Basic ...}, RFC 7617).
 *
 * @param user the principal's name; no {@code :}
 * @param password its secret; never shown by {@link #toString()}
 */
public record BasicCredentials(String user, String password) {
    public BasicCredentials {
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        if (user.isEmpty() || user.contains(":")) {
            throw new IllegalArgumentException("A basic authentication user name is not empty and has no ':': " + user);
        }
    }

    /** The value of the {@code Authorization} header. */
    public String authorizationHeader() {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "BasicCredentials[user=" + user + ", password=[hidden]]";
    }
}

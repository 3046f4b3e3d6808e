package io.fleetlake.dashboard;

import java.net.URI;

/** Forms of connection strings that are safe to log: passwords and JDBC URL parameters replaced. */
public final class Redaction {
    private static final String REDACTED = "***";

    private Redaction() {}

    /** The URI with the password of its user information replaced: {@code redis://fleet:***@host:6379}. */
    public static String uri(URI uri) {
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null) {
            return uri.toString();
        }
        int colon = userInfo.indexOf(':');
        // Without a colon, clients such as Jedis may read the whole user information as the password.
        String redactedUserInfo = colon < 0 ? REDACTED : userInfo.substring(0, colon) + ":" + REDACTED;
        return uri.toString().replace(userInfo + "@", redactedUserInfo + "@");
    }

    /** The JDBC URL without its parameters, which may carry a password: {@code jdbc:trino://host:8080/iceberg?***}. */
    public static String jdbcUrl(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query + 1) + REDACTED;
    }

    /** {@code host:port} of a URI, for messages about a server. */
    public static String endpoint(URI uri) {
        return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
    }
}

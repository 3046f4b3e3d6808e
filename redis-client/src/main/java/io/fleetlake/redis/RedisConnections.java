package io.fleetlake.redis;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The one way the fleet opens Redis connections. A component is configured with one URI that carries its role's user
 * and password ({@code redis://<user>:<password>@host:port}, {@code rediss://} for TLS, a database number as path),
 * read from its owner-only configuration file or the environment, never from a command line; {@link #uri} builds one.
 * The URI is a secret: messages name {@link #endpoint} instead.
 */
public final class RedisConnections {
    /** How long a connection attempt or a request may take when the caller has no reason to choose. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    private RedisConnections() {}

    /** A pooled, thread-safe client for a long-lived component; connects lazily. */
    public static RedisClient pooled(URI uri, Duration timeout) {
        requireNonNull(uri, "uri is null");
        return RedisClient.builder()
                .hostAndPort(JedisURIHelper.getHostAndPort(uri))
                .clientConfig(clientConfig(uri, timeout))
                .build();
    }

    /** One connection, for one short use on one thread (a probe, a command of the CLI). */
    public static Jedis single(URI uri, Duration timeout) {
        requireNonNull(uri, "uri is null");
        return new Jedis(JedisURIHelper.getHostAndPort(uri), clientConfig(uri, timeout));
    }

    /** Credentials, database and TLS from the URI, with the timeouts. */
    static JedisClientConfig clientConfig(URI uri, Duration timeout) {
        requireNonNull(uri, "uri is null");
        requireNonNull(timeout, "timeout is null");
        if (!JedisURIHelper.isValid(uri)) {
            throw new IllegalArgumentException("Not a Redis URI (redis://user:password@host:port): " + endpoint(uri));
        }
        int millis = Math.toIntExact(timeout.toMillis());
        return DefaultJedisClientConfig.builder(uri)
                .connectionTimeoutMillis(millis)
                .socketTimeoutMillis(millis)
                .build();
    }

    /** The URI of a role's user: {@code redis://<user>:<password>@host:port}, user and password URL-encoded. */
    public static URI uri(String host, int port, RedisRole role, String password) {
        requireNonNull(host, "host is null");
        requireNonNull(role, "role is null");
        requireNonNull(password, "password is null");
        return URI.create("redis://" + encode(role.user()) + ":" + encode(password) + "@" + host + ":" + port);
    }

    /** The URI without its credentials, for messages and logs. */
    public static String endpoint(URI uri) {
        requireNonNull(uri, "uri is null");
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}

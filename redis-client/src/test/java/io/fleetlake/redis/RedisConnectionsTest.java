package io.fleetlake.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisClientConfig;

class RedisConnectionsTest {
    @Test
    void uriCarriesTheRolesUserAndTheEncodedPassword() {
        URI uri = RedisConnections.uri("127.0.0.1", 6379, RedisRole.DASHBOARD, "p@ss:w/rd");

        assertThat(uri).hasToString("redis://dashboard:p%40ss%3Aw%2Frd@127.0.0.1:6379");
        JedisClientConfig config = RedisConnections.clientConfig(uri, Duration.ofMillis(1500));
        assertThat(config.getUser()).isEqualTo("dashboard");
        assertThat(config.getPassword()).isEqualTo("p@ss:w/rd");
        assertThat(config.getSocketTimeoutMillis()).isEqualTo(1500);
        assertThat(config.getConnectionTimeoutMillis()).isEqualTo(1500);
    }

    @Test
    void databaseAndTlsOfTheUriArePassedToRedis() {
        JedisClientConfig config = RedisConnections.clientConfig(
                URI.create("rediss://pipeline:pass-word@redis:6380/2"), RedisConnections.DEFAULT_TIMEOUT);

        assertThat(config.getDatabase()).isEqualTo(2);
        assertThat(config.isSsl()).isTrue();
    }

    @Test
    void endpointHasNoCredentials() {
        assertThat(RedisConnections.endpoint(URI.create("redis://monitor:secret@redis:6380/2")))
                .isEqualTo("redis://redis:6380");
    }

    @Test
    void notARedisUriIsRefusedWithoutItsCredentials() {
        assertThatThrownBy(() -> RedisConnections.clientConfig(
                        URI.create("http://admin:secret@redis:6379"), RedisConnections.DEFAULT_TIMEOUT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("http://redis:6379")
                .hasMessageNotContaining("secret");
    }
}

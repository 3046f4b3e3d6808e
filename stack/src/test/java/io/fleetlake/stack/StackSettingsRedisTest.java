package io.fleetlake.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.redis.RedisRole;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackSettingsRedisTest {
    @TempDir
    Path data;

    private StackSettings settings(Map<String, String> keys) {
        return StackSettings.from(ConfigSource.of(keys), data);
    }

    @Test
    void everyRoleHasItsOwnPasswordKeptOwnerOnlyForTheDataFolder() throws IOException {
        StackSettings settings = settings(Map.of());
        Set<String> passwords = new HashSet<>();
        for (RedisRole role : RedisRole.values()) {
            passwords.add(settings.redisPassword(role));
        }

        assertThat(passwords).hasSize(RedisRole.values().length);
        Path file = data.resolve("secrets").resolve("redis.properties");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        // A second launcher on the same data folder uses the same passwords.
        assertThat(settings(Map.of()).redisPassword(RedisRole.PIPELINE))
                .isEqualTo(settings.redisPassword(RedisRole.PIPELINE));
    }

    @Test
    void uriOfARoleCarriesItsUserAndPasswordAndTheEndpointNeither() {
        StackSettings settings = settings(Map.of("redis.port", "16380"));
        URI uri = URI.create(settings.redisUri(RedisRole.DASHBOARD));

        assertThat(uri.getUserInfo()).isEqualTo("dashboard:" + settings.redisPassword(RedisRole.DASHBOARD));
        assertThat(uri.getPort()).isEqualTo(16380);
        assertThat(settings.redisEndpoint()).doesNotContain("dashboard").doesNotContain("@");
    }

    @Test
    void aclHoldsEveryRoleButNoPassword() {
        StackSettings settings = settings(Map.of());
        String acl = settings.redisAcl();

        assertThat(acl.lines())
                .hasSize(1 + RedisRole.values().length)
                .first()
                .asString()
                .startsWith("user default off");
        for (RedisRole role : RedisRole.values()) {
            assertThat(acl).contains("user " + role.user() + " on #").doesNotContain(settings.redisPassword(role));
        }
    }

    @Test
    void maxMemoryDefaultsTo256MegabytesAndRefusesNoLimit() {
        assertThat(settings(Map.of()).redisMaxMemory()).isEqualTo("256mb");
        assertThat(settings(Map.of("redis.maxmemory", "1GB")).redisMaxMemory()).isEqualTo("1gb");
        assertThatThrownBy(() -> settings(Map.of("redis.maxmemory", "0")).redisMaxMemory())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("redis.maxmemory must be a size");
        assertThatThrownBy(() -> settings(Map.of("redis.maxmemory", "lots")).redisMaxMemory())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("got lots");
    }
}

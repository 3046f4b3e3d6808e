package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.identity.PasswordHash;
import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectRestSecurityExtensionTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ADMIN_PASSWORD = "admin-password-0123456789";
    private static final String MONITOR_PASSWORD = "monitor-password-0123456789";

    private final ConnectRestSecurityExtension.AuthenticationFilter filter =
            new ConnectRestSecurityExtension.AuthenticationFilter(
                    PasswordHash.of(ADMIN_PASSWORD, RANDOM), PasswordHash.of(MONITOR_PASSWORD, RANDOM));

    @Test
    void eachPrincipalLogsInWithItsOwnPassword() {
        assertThat(filter.authenticate(header("admin", ADMIN_PASSWORD))).contains("admin");
        assertThat(filter.authenticate(header("monitor", MONITOR_PASSWORD))).contains("monitor");

        assertThat(filter.authenticate(header("admin", MONITOR_PASSWORD))).isEmpty();
        assertThat(filter.authenticate(header("monitor", ADMIN_PASSWORD))).isEmpty();
        assertThat(filter.authenticate(header("root", ADMIN_PASSWORD))).isEmpty();
        assertThat(filter.authenticate(header("admin", ADMIN_PASSWORD + "x"))).isEmpty();
    }

    @Test
    void malformedHeadersAreNoLogin() {
        assertThat(filter.authenticate(null)).isEmpty();
        assertThat(filter.authenticate("")).isEmpty();
        assertThat(filter.authenticate("Bearer abc")).isEmpty();
        assertThat(filter.authenticate("Basic %%%not-base64")).isEmpty();
        assertThat(filter.authenticate("Basic YWRtaW4=")).as("no colon").isEmpty();
        assertThat(filter.authenticate(header("admin", ADMIN_PASSWORD).replace("Basic", "basic")))
                .as("the scheme is case-insensitive")
                .contains("admin");
    }

    @Test
    void theExtensionNeedsBothHashes() {
        ConnectRestSecurityExtension extension = new ConnectRestSecurityExtension();

        assertThatThrownBy(() -> extension.configure(Map.of(
                        ConnectRestSecurityExtension.ADMIN_HASH,
                        PasswordHash.of(ADMIN_PASSWORD, RANDOM).encoded())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ConnectRestSecurityExtension.MONITOR_HASH);
    }

    @Test
    void theExtensionNeedsPositiveLimits() {
        Map<String, String> hashes = Map.of(
                ConnectRestSecurityExtension.ADMIN_HASH,
                PasswordHash.of(ADMIN_PASSWORD, RANDOM).encoded(),
                ConnectRestSecurityExtension.MONITOR_HASH,
                PasswordHash.of(MONITOR_PASSWORD, RANDOM).encoded());
        ConnectRestSecurityExtension extension = new ConnectRestSecurityExtension();

        assertThatThrownBy(() -> extension.configure(hashes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ConnectRestSecurityExtension.MAX_CONCURRENT_REQUESTS);
        Map<String, String> zeroBytes = new java.util.HashMap<>(hashes);
        zeroBytes.put(ConnectRestSecurityExtension.MAX_CONCURRENT_REQUESTS, "4");
        zeroBytes.put(ConnectRestSecurityExtension.MAX_REQUEST_BYTES, "0");
        assertThatThrownBy(() -> extension.configure(zeroBytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(ConnectRestSecurityExtension.MAX_REQUEST_BYTES + " = 0 must be positive");
    }

    private static String header(String user, String password) {
        return new BasicCredentials(user, password).authorizationHeader();
    }
}

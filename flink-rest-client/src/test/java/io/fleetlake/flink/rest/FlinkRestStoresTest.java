package io.fleetlake.flink.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FlinkRestStoresTest {
    private final FlinkRestStores stores =
            new FlinkRestStores(Path.of("/tls/key.p12"), Path.of("/tls/trust.p12"), "store-secret");

    @Test
    void theRestEndpointRequiresClientCertificatesWithTheStores() {
        assertThat(stores.endpointOptions())
                .containsEntry("security.ssl.rest.enabled", "true")
                .containsEntry("security.ssl.rest.authentication-enabled", "true")
                .containsEntry("security.ssl.rest.keystore", "/tls/key.p12")
                .containsEntry("security.ssl.rest.truststore", "/tls/trust.p12")
                .containsEntry("security.ssl.rest.keystore-password", "store-secret")
                .containsEntry("security.ssl.rest.key-password", "store-secret")
                .containsEntry("security.ssl.rest.truststore-password", "store-secret")
                .containsEntry("security.ssl.algorithms", FlinkRestStores.CIPHER_SUITES);
    }

    @Test
    void theInternalOptionsStandOnTheirOwn() {
        assertThat(stores.internalOptions())
                .containsEntry("security.ssl.internal.enabled", "true")
                .containsEntry("security.ssl.internal.keystore", "/tls/key.p12")
                .containsEntry("security.ssl.internal.truststore", "/tls/trust.p12")
                .containsEntry("security.ssl.internal.key-password", "store-secret")
                .containsEntry("security.ssl.protocol", "TLSv1.2")
                .containsEntry("security.ssl.algorithms", FlinkRestStores.CIPHER_SUITES)
                .doesNotContainKey("security.ssl.rest.enabled");
    }

    @Test
    void allThreeOptionsOrNone() {
        assertThat(FlinkRestStores.fromOptions("x.", key -> Optional.empty())).isEmpty();
        Map<String, String> some = Map.of("x.flink-rest-key-store", "/tls/key.p12");
        assertThatThrownBy(() -> FlinkRestStores.fromOptions("x.", key -> Optional.ofNullable(some.get(key))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x.flink-rest-trust-store")
                .hasMessageNotContaining("/tls/key.p12");
        assertThat(stores.toString()).doesNotContain("store-secret");
    }
}

package io.fleetlake.identity.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.identity.PasswordHash;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TopicAccessTest {
    private static final PasswordHash HASH = PasswordHash.of("x", new java.security.SecureRandom());
    private static final Principal DEVICE = principal("VH-0001", PrincipalKind.DEVICE, VehicleGrant.NONE);
    private static final Principal GATEWAY = principal(
            "depot-1",
            PrincipalKind.GATEWAY,
            new VehicleGrant(new TreeSet<>(Set.of("TRK-7")), new TreeSet<>(Set.of("VH-0"))));
    private static final Principal INGEST = principal("fleet-ingest", PrincipalKind.INGEST, VehicleGrant.NONE);

    @Test
    void deviceOnlyPublishesItsOwnPosition() {
        assertThat(TopicAccess.mayPublish(DEVICE, "fleet/VH-0001/position")).isTrue();
        assertThat(TopicAccess.mayPublish(DEVICE, "fleet/VH-0002/position")).isFalse();
        assertThat(TopicAccess.mayPublish(DEVICE, "fleet/VH-0001/status")).isFalse();
        assertThat(TopicAccess.mayPublish(DEVICE, "fleet/VH-0001/position/x")).isFalse();
        assertThat(TopicAccess.mayPublish(DEVICE, "other")).isFalse();
    }

    @Test
    void deviceSubscribesToItsCommandsOnly() {
        assertThat(TopicAccess.maySubscribe(DEVICE, "fleet/VH-0001/commands/#")).isTrue();
        assertThat(TopicAccess.maySubscribe(DEVICE, "fleet/VH-0001/commands/reboot"))
                .isTrue();
        assertThat(TopicAccess.maySubscribe(DEVICE, "fleet/VH-0002/commands/#")).isFalse();
        assertThat(TopicAccess.maySubscribe(DEVICE, "fleet/+/commands/#")).isFalse();
        assertThat(TopicAccess.maySubscribe(DEVICE, "#")).isFalse();
        assertThat(TopicAccess.maySubscribe(DEVICE, "fleet/+/position")).isFalse();
        assertThat(TopicAccess.maySubscribe(DEVICE, "fleet/VH-0001/position")).isFalse();
    }

    @Test
    void gatewayPublishesForItsGrantOnly() {
        assertThat(TopicAccess.mayPublish(GATEWAY, "fleet/TRK-7/position")).isTrue();
        assertThat(TopicAccess.mayPublish(GATEWAY, "fleet/VH-0042/position")).isTrue();
        assertThat(TopicAccess.mayPublish(GATEWAY, "fleet/VH-1042/position")).isFalse();
        assertThat(TopicAccess.mayPublish(GATEWAY, "fleet/TRK-70/position")).isFalse();
        assertThat(TopicAccess.mayPublish(GATEWAY, "fleet/depot-1/position")).isFalse();
        assertThat(TopicAccess.mayPublish(GATEWAY, "fleet/+/position")).isFalse();
        assertThat(TopicAccess.maySubscribe(GATEWAY, "fleet/VH-0042/commands/#"))
                .isTrue();
        assertThat(TopicAccess.maySubscribe(GATEWAY, "fleet/+/commands/#")).isFalse();
        assertThat(TopicAccess.maySubscribe(GATEWAY, "fleet/+/position")).isFalse();
    }

    @Test
    void ingestOnlySubscribesToPositions() {
        assertThat(TopicAccess.maySubscribe(INGEST, "fleet/+/position")).isTrue();
        assertThat(TopicAccess.maySubscribe(INGEST, "$share/fleet-ingest/fleet/+/position"))
                .isTrue();
        assertThat(TopicAccess.maySubscribe(INGEST, "fleet/VH-0001/position")).isTrue();
        assertThat(TopicAccess.maySubscribe(INGEST, "#")).isFalse();
        assertThat(TopicAccess.maySubscribe(INGEST, "fleet/#")).isFalse();
        assertThat(TopicAccess.maySubscribe(INGEST, "$share/g/#")).isFalse();
        assertThat(TopicAccess.maySubscribe(INGEST, "fleet/+/commands/#")).isFalse();
        assertThat(TopicAccess.mayPublish(INGEST, "fleet/VH-0001/position")).isFalse();
    }

    @Test
    void registryOwnsClientIdsByLongestName() {
        PrincipalRegistry registry = PrincipalRegistry.of(List.of(
                DEVICE,
                GATEWAY,
                INGEST,
                principal("fleet", PrincipalKind.GATEWAY, VehicleGrant.ofPrefixes(List.of("F")))));

        assertThat(registry.owner("fleet-ingest-0")).contains(INGEST);
        assertThat(registry.owner("fleet-ingest")).contains(INGEST);
        assertThat(registry.owner("fleet-simulator").map(Principal::name)).contains("fleet");
        assertThat(registry.owner("VH-0001")).contains(DEVICE);
        assertThat(registry.owner("VH-0001-spare")).contains(DEVICE);
        assertThat(registry.owner("VH-00011")).isEmpty();
        assertThat(registry.owner("depot-10")).isEmpty();
        assertThat(registry.owner("")).isEmpty();
    }

    static Principal principal(String name, PrincipalKind kind, VehicleGrant grant) {
        Instant now = Instant.parse("2026-12-01T10:00:00Z");
        return new Principal(name, kind, HASH, grant, now, now);
    }
}

package io.fleetlake.identity.mqtt;

import static io.fleetlake.identity.mqtt.TopicAccessTest.principal;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MosquittoFilesTest {
    @TempDir
    Path folder;

    private final PrincipalRegistry registry = PrincipalRegistry.of(List.of(
            principal("VH-0001", PrincipalKind.DEVICE, VehicleGrant.NONE),
            principal("VH-0002", PrincipalKind.DEVICE, VehicleGrant.NONE),
            principal("XX-1", PrincipalKind.DEVICE, VehicleGrant.NONE),
            principal(
                    "depot-1",
                    PrincipalKind.GATEWAY,
                    new VehicleGrant(new TreeSet<>(Set.of("TRK-7")), new TreeSet<>(Set.of("VH-", "NONE-")))),
            principal("fleet-ingest", PrincipalKind.INGEST, VehicleGrant.NONE)));

    @Test
    void passwordFileHoldsEveryPrincipalsHash() {
        MosquittoFiles.Rendered rendered = MosquittoFiles.render(registry);

        assertThat(rendered.passwordFile().lines())
                .hasSize(5)
                .allMatch(line -> line.matches("[A-Za-z0-9._-]+:\\$7\\$\\d+\\$[^$]+\\$[^$]+"));
        assertThat(rendered.passwordFile())
                .contains("VH-0001:"
                        + registry.principal("VH-0001").orElseThrow().secret().encoded() + "\n");
    }

    @Test
    void aclGivesDevicesPatternsAndExpandsPrefixesOverKnownVehicles() {
        MosquittoFiles.Rendered rendered = MosquittoFiles.render(registry, List.of("VH-0099"));

        String acl = rendered.aclFile();
        assertThat(acl).contains("pattern write fleet/%u/position\n", "pattern read fleet/%u/commands/#\n");
        String gateway = acl.substring(acl.indexOf("user depot-1\n"), acl.indexOf("# ingest"));
        assertThat(gateway.lines())
                .containsExactly(
                        "user depot-1",
                        "topic deny fleet/depot-1/position",
                        "topic deny fleet/depot-1/commands/#",
                        "topic write fleet/TRK-7/position",
                        "topic read fleet/TRK-7/commands/#",
                        "topic write fleet/VH-0001/position",
                        "topic read fleet/VH-0001/commands/#",
                        "topic write fleet/VH-0002/position",
                        "topic read fleet/VH-0002/commands/#",
                        "topic write fleet/VH-0099/position",
                        "topic read fleet/VH-0099/commands/#",
                        "");
        assertThat(acl.substring(acl.indexOf("user fleet-ingest")).lines())
                .containsExactly(
                        "user fleet-ingest",
                        "topic deny fleet/fleet-ingest/position",
                        "topic deny fleet/fleet-ingest/commands/#",
                        "topic read fleet/+/position");
        assertThat(rendered.warnings()).singleElement().asString().contains("NONE-");
    }

    @Test
    void writesOwnerOnlyFiles() throws Exception {
        MosquittoFiles.render(registry).writeTo(folder.resolve("mosquitto"));

        for (String name : List.of(MosquittoFiles.PASSWORD_FILE, MosquittoFiles.ACL_FILE)) {
            Path file = folder.resolve("mosquitto").resolve(name);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
        }
    }
}

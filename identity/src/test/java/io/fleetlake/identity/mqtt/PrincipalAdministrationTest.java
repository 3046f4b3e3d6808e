package io.fleetlake.identity.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrincipalAdministrationTest {
    @TempDir
    Path folder;

    private PrincipalAdministration administration() {
        return new PrincipalAdministration(new RegistryFile(folder.resolve("identity/principals.json")));
    }

    @Test
    void addedDeviceAuthenticatesWithTheIssuedSecretOnly() throws Exception {
        PrincipalAdministration administration = administration();

        IssuedSecret issued = administration.addDevice("VH-0001");

        PrincipalRegistry registry = administration.registry();
        assertThat(registry.authenticate("VH-0001", issued.secret()))
                .map(Principal::kind)
                .contains(PrincipalKind.DEVICE);
        assertThat(registry.authenticate("VH-0001", "guess")).isEmpty();
        assertThat(registry.authenticate("VH-0002", issued.secret())).isEmpty();
        Path file = administration.file().path();
        assertThat(Files.readString(file)).doesNotContain(issued.secret()).contains("\"kind\" : \"device\"");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(issued.toString()).doesNotContain(issued.secret());
    }

    @Test
    void addingAnExistingNameIsRefused() {
        PrincipalAdministration administration = administration();
        administration.addDevice("VH-0001");

        assertThatThrownBy(() -> administration.addDevice("VH-0001")).hasMessageContaining("rotate");
        assertThatThrownBy(() -> administration.addDevices(List.of("VH-0002", "VH-0002"), done -> {}))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> administration.addDevice("fleet/#")).hasMessageContaining("Invalid vehicle id");
        assertThat(administration.registry().size()).as("nothing half-added").isEqualTo(1);
    }

    @Test
    void importsThousandsInOneWriteWithProgress() {
        PrincipalAdministration administration = administration();
        List<String> vehicles = IntStream.range(0, 2_000)
                .mapToObj(index -> String.format("VH-%05d", index))
                .toList();
        List<Integer> progress = new ArrayList<>();

        List<IssuedSecret> issued = administration.addDevices(vehicles, progress::add);

        assertThat(issued).hasSize(2_000);
        assertThat(progress).contains(100, 1_000, 2_000);
        PrincipalRegistry registry = administration.registry();
        assertThat(registry.size()).isEqualTo(2_000);
        assertThat(registry.authenticate("VH-01234", issued.get(1234).secret())).isPresent();
    }

    @Test
    void grantCreatesAGatewayThenAddsOrReplaces() {
        PrincipalAdministration administration = administration();

        Optional<IssuedSecret> created =
                administration.grant("depot-1", VehicleGrant.ofVehicles(List.of("A-1", "A-2")), GrantMode.ADD);
        Optional<IssuedSecret> updated =
                administration.grant("depot-1", VehicleGrant.ofPrefixes(List.of("B-")), GrantMode.ADD);

        assertThat(created).isPresent();
        assertThat(updated).as("an update keeps the secret").isEmpty();
        Principal gateway = administration.registry().principal("depot-1").orElseThrow();
        assertThat(gateway.grant().vehicles()).containsExactly("A-1", "A-2");
        assertThat(gateway.grant().prefixes()).containsExactly("B-");
        assertThat(administration
                        .registry()
                        .authenticate("depot-1", created.get().secret()))
                .isPresent();

        administration.grant("depot-1", VehicleGrant.ofVehicles(List.of("A-3")), GrantMode.REPLACE);
        assertThat(administration.registry().principal("depot-1").orElseThrow().grant())
                .isEqualTo(VehicleGrant.ofVehicles(List.of("A-3")));

        administration.addDevice("VH-1");
        assertThatThrownBy(() -> administration.grant("VH-1", VehicleGrant.ofVehicles(List.of("A-1")), GrantMode.ADD))
                .hasMessageContaining("not a gateway");
        assertThatThrownBy(() -> administration.grant("depot-2", VehicleGrant.NONE, GrantMode.ADD))
                .hasMessageContaining("no vehicles");
    }

    @Test
    void rotateReplacesTheSecretAndRevokeRemoves() {
        PrincipalAdministration administration = administration();
        IssuedSecret first = administration.addDevice("VH-0001");

        IssuedSecret second = administration.rotate("VH-0001");

        assertThat(second.secret()).isNotEqualTo(first.secret());
        assertThat(administration.registry().authenticate("VH-0001", first.secret()))
                .isEmpty();
        assertThat(administration.registry().authenticate("VH-0001", second.secret()))
                .isPresent();

        administration.revoke("VH-0001");
        assertThat(administration.registry().principal("VH-0001")).isEmpty();
        assertThatThrownBy(() -> administration.revoke("VH-0001")).hasMessageContaining("fleet devices list");
        assertThatThrownBy(() -> administration.rotate("nobody")).hasMessageContaining("No principal named nobody");
    }

    @Test
    void concurrentChangesAreNotLost() throws Exception {
        PrincipalAdministration administration = administration();
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int index = 0; index < 40; index++) {
                String name = "VH-" + index;
                futures.add(executor.submit(() -> administration.addDevice(name)));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            executor.shutdownNow();
        }

        assertThat(administration.registry().size()).isEqualTo(40);
    }

    @Test
    void registryFileRoundTripsAndRefusesGarbage() throws Exception {
        PrincipalAdministration administration = administration();
        administration.addIngest("fleet-ingest");
        administration.grant("depot-1", VehicleGrant.ofPrefixes(List.of("VH-")), GrantMode.ADD);
        RegistryFile file = administration.file();
        Object stamp = file.stamp().orElseThrow();

        PrincipalRegistry reread = RegistryFile.parse(Files.readAllBytes(file.path()));

        assertThat(reread).isEqualTo(administration.registry());
        assertThat(reread.principal("fleet-ingest").orElseThrow().kind()).isEqualTo(PrincipalKind.INGEST);
        administration.rotate("fleet-ingest");
        assertThat(file.stamp()).isPresent().isNotEqualTo(Optional.of(stamp));
        assertThat(new RegistryFile(folder.resolve("missing.json")).load()).isEqualTo(PrincipalRegistry.EMPTY);
        assertThat(new RegistryFile(folder.resolve("missing.json")).stamp()).isEmpty();
        assertThatThrownBy(() -> RegistryFile.parse("{\"format\":2}".getBytes()))
                .hasMessageContaining("Unsupported MQTT principals format 2");
        assertThatThrownBy(() -> RegistryFile.parse(
                        "{\"format\":1,\"principals\":[{\"name\":\"x\",\"kind\":\"device\",\"secret\":\"plain\"}]}"
                                .getBytes()))
                .hasMessageContaining("Invalid principal x");
    }
}

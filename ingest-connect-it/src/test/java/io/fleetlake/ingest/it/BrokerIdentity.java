package io.fleetlake.ingest.it;

import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import io.fleetlake.identity.mqtt.RegistryFile;
import io.fleetlake.identity.mqtt.VehicleGrant;
import java.nio.file.Path;
import java.util.List;

/**
 * The principals of the broker an IT starts ({@link ServerProcessUnderTest#mqtt}): the broker admits nobody else. The
 * connector logs in as {@value #INGEST}; publishers as gateways for every {@code VH-} vehicle.
 */
final class BrokerIdentity {
    static final String INGEST = "fleet-ingest";

    private final PrincipalAdministration administration;

    /** @param directory the IT's folder: the broker keeps its data, and so its registry, in {@code <directory>/mqtt} */
    BrokerIdentity(Path directory) {
        this.administration = new PrincipalAdministration(
                new RegistryFile(directory.resolve("mqtt").resolve("identity").resolve("principals.json")));
    }

    /** Adds the ingest connector's principal; call before the broker starts, so that it admits the connector at once. */
    String addIngest() {
        return administration.addIngest(INGEST).secret();
    }

    /** A gateway for the {@code VH-} vehicles, created or given a new secret; the broker admits it within a second. */
    String gateway(String name) {
        return administration
                .grant(name, VehicleGrant.ofPrefixes(List.of("VH-")), GrantMode.ADD)
                .orElseGet(() -> administration.rotate(name))
                .secret();
    }
}

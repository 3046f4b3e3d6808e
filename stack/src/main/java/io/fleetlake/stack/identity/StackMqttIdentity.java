package io.fleetlake.stack.identity;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.identity.mqtt.Principal;
import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import io.fleetlake.identity.mqtt.PrincipalKind;
import io.fleetlake.identity.mqtt.PrincipalRegistry;
import io.fleetlake.identity.mqtt.RegistryFile;
import io.fleetlake.identity.mqtt.VehicleGrant;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MQTT principals the embedded stack needs for itself, created on the first start of a data folder without any
 * manual step: the ingest connector ({@value #INGEST}), the simulator's gateway ({@value #SIMULATOR}, every {@code
 * VH-} vehicle) with a few vehicles of its fleet on device identities of their own ({@link #SIMULATOR_DEVICES}), and
 * the bench's gateway ({@value #BENCH}). Their secrets are kept owner-only in {@code <data-dir>/secrets/} and handed
 * to the components in their configuration files (mode 0600), never on a command line and never logged.
 *
 * <p>Every start checks each one against the registry and issues a new secret for a principal that is missing or
 * whose stored secret no longer matches (revoked or rotated by hand): the stack always starts with working
 * credentials. {@code fleet devices rotate} of one of these also updates the stored secret.
 */
public final class StackMqttIdentity {
    private static final Logger LOG = LoggerFactory.getLogger(StackMqttIdentity.class);

    /** The ingest connector's principal; its client ids are {@code fleet-ingest-<task>}. */
    public static final String INGEST = "fleet-ingest";

    /** The simulator's gateway; also its client id. */
    public static final String SIMULATOR = "fleet-simulator";

    /** The bench's gateway; its clients are {@code fleet-bench-...}. */
    public static final String BENCH = "fleet-bench";

    /** The simulated fleet's vehicle ids start with this ({@code VH-0001} ...). */
    public static final String FLEET_PREFIX = "VH-";

    /** Vehicles of the simulated fleet that publish on device identities of their own, beside the gateway. */
    public static final List<String> SIMULATOR_DEVICES = List.of("VH-0001", "VH-0002", "VH-0003");

    static final String SECRETS_FILE = "mqtt.properties";
    static final String DEVICE_SECRETS_FILE = "simulator-devices.properties";

    private final PrincipalAdministration administration;
    private final Path secretsDirectory;

    private StackMqttIdentity(PrincipalAdministration administration, Path secretsDirectory) {
        this.administration = administration;
        this.secretsDirectory = secretsDirectory;
    }

    /** The identity of the stack of {@code settings}, without changing anything. */
    public static StackMqttIdentity of(StackSettings settings) {
        requireNonNull(settings, "settings is null");
        return new StackMqttIdentity(
                new PrincipalAdministration(new RegistryFile(registryFile(settings))),
                settings.dataDirectory().resolve("secrets"));
    }

    /** The registry the embedded broker enforces: {@code <data-dir>/mqtt/identity/principals.json}. */
    public static Path registryFile(StackSettings settings) {
        return settings.componentDirectory(FleetStack.MQTT).resolve("identity").resolve("principals.json");
    }

    /** The CA certificate of the broker's TLS listener, when it is the local CA's. */
    public static Path caCertificate(StackSettings settings) {
        return settings.componentDirectory(FleetStack.MQTT).resolve("tls").resolve("ca.pem");
    }

    public PrincipalAdministration administration() {
        return administration;
    }

    /**
     * Creates or repairs the stack's own principals (see the class comment) and returns their secrets.
     *
     * @return the secrets by principal name, the simulator's devices included
     */
    public Map<String, String> ensure() {
        Map<String, String> secrets = load(secretsDirectory.resolve(SECRETS_FILE));
        Map<String, String> deviceSecrets = load(secretsDirectory.resolve(DEVICE_SECRETS_FILE));
        PrincipalRegistry registry = administration.registry();
        boolean changed = false;
        changed |= ensure(registry, secrets, INGEST, PrincipalKind.INGEST, VehicleGrant.NONE);
        VehicleGrant fleet = VehicleGrant.ofPrefixes(List.of(FLEET_PREFIX));
        changed |= ensure(registry, secrets, SIMULATOR, PrincipalKind.GATEWAY, fleet);
        changed |= ensure(registry, secrets, BENCH, PrincipalKind.GATEWAY, fleet);
        boolean devicesChanged = false;
        for (String device : SIMULATOR_DEVICES) {
            devicesChanged |= ensure(registry, deviceSecrets, device, PrincipalKind.DEVICE, VehicleGrant.NONE);
        }
        if (changed) {
            store(secretsDirectory.resolve(SECRETS_FILE), secrets);
        }
        if (devicesChanged) {
            store(secretsDirectory.resolve(DEVICE_SECRETS_FILE), deviceSecrets);
        }
        Map<String, String> all = new TreeMap<>(secrets);
        all.putAll(deviceSecrets);
        return all;
    }

    /** The secret the stack keeps for one of its principals, if any. */
    public Optional<String> secret(String name) {
        return Optional.ofNullable(load(secretsDirectory.resolve(SECRETS_FILE)).get(name))
                .or(() -> Optional.ofNullable(
                        load(secretsDirectory.resolve(DEVICE_SECRETS_FILE)).get(name)));
    }

    /**
     * The owner-only file of {@code name=secret} lines that holds the secrets of the stack's own principals ({@value
     * #INGEST} among them): the Connect worker reads the ingest secret from it through Connect's file config provider.
     */
    public Path secretsFile() {
        return secretsDirectory.resolve(SECRETS_FILE);
    }

    /**
     * The file of {@code vehicle=secret} lines the simulator reads ({@code simulator.device-credentials}) to publish
     * those vehicles on their own device identities.
     */
    public Path simulatorDeviceCredentials() {
        return secretsDirectory.resolve(DEVICE_SECRETS_FILE);
    }

    /**
     * Records a secret issued for one of the stack's principals by hand ({@code fleet devices rotate}), so that the
     * components get it at their next start.
     *
     * @return whether {@code issued} is one of the stack's principals
     */
    public boolean remember(IssuedSecret issued) {
        for (String file : List.of(SECRETS_FILE, DEVICE_SECRETS_FILE)) {
            Map<String, String> secrets = load(secretsDirectory.resolve(file));
            if (secrets.containsKey(issued.name())) {
                secrets.put(issued.name(), issued.secret());
                store(secretsDirectory.resolve(file), secrets);
                return true;
            }
        }
        return false;
    }

    private boolean ensure(
            PrincipalRegistry registry,
            Map<String, String> secrets,
            String name,
            PrincipalKind kind,
            VehicleGrant grant) {
        Optional<Principal> existing = registry.principal(name);
        String stored = secrets.get(name);
        if (existing.isPresent() && stored != null && existing.get().secret().matches(stored)) {
            return false;
        }
        IssuedSecret issued;
        if (existing.isPresent()) {
            if (existing.get().kind() != kind) {
                throw new IllegalStateException("The MQTT principal " + name + " is a "
                        + existing.get().kind().label()
                        + ", the stack needs it as a " + kind.label() + ": revoke it with `fleet devices revoke "
                        + name + "` and start again");
            }
            LOG.info("Issuing a new secret for the stack's MQTT principal {}: the stored one no longer matches", name);
            issued = administration.rotate(name);
        } else {
            LOG.info("Creating the stack's MQTT principal {} ({})", name, kind.label());
            issued = switch (kind) {
                case INGEST -> administration.addIngest(name);
                case DEVICE -> administration.addDevice(name);
                case GATEWAY -> administration.grant(name, grant, GrantMode.ADD).orElseThrow();
            };
        }
        secrets.put(name, issued.secret());
        return true;
    }

    private static Map<String, String> load(Path file) {
        return secretFile(file).load();
    }

    private static void store(Path file, Map<String, String> secrets) {
        secretFile(file).store(secrets);
    }

    private static SecretFile secretFile(Path file) {
        return new SecretFile(file, "MQTT secrets of the embedded stack's own principals");
    }
}

package io.fleetlake.identity.mqtt;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.PasswordHash;
import io.fleetlake.identity.Secrets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The changes {@code fleet devices} and the stack make to a {@link RegistryFile}: each one a single locked
 * read-modify-write, so a broker that reloads the file sees all of it or none. Every method that sets a secret returns
 * it in clear, once; the registry keeps only its hash.
 */
public final class PrincipalAdministration {
    private final RegistryFile file;
    private final SecureRandom random;
    private final Clock clock;

    public PrincipalAdministration(RegistryFile file, SecureRandom random, Clock clock) {
        this.file = requireNonNull(file, "file is null");
        this.random = requireNonNull(random, "random is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public PrincipalAdministration(RegistryFile file) {
        this(file, new SecureRandom(), Clock.systemUTC());
    }

    public RegistryFile file() {
        return file;
    }

    public PrincipalRegistry registry() {
        return file.load();
    }

    /**
     * Adds the device of {@code vehicleId}.
     *
     * @throws IllegalArgumentException when a principal of that name exists (rotate its secret instead)
     */
    public IssuedSecret addDevice(String vehicleId) {
        return addDevices(List.of(vehicleId), done -> {}).get(0);
    }

    /**
     * Adds a device for each vehicle id, all or none, in one write.
     *
     * @param progress told the number of devices hashed so far, every 100 and at the end
     * @throws IllegalArgumentException when an id is invalid, repeated, or already a principal's name
     */
    public List<IssuedSecret> addDevices(List<String> vehicleIds, IntConsumer progress) {
        requireNonNull(vehicleIds, "vehicleIds is null");
        requireNonNull(progress, "progress is null");
        Set<String> unique = new LinkedHashSet<>();
        for (String vehicleId : vehicleIds) {
            PrincipalNames.requireValid(vehicleId, "vehicle id");
            if (!unique.add(vehicleId)) {
                throw new IllegalArgumentException("Vehicle " + vehicleId + " is listed twice");
            }
        }
        List<IssuedSecret> issued = new ArrayList<>();
        file.update(registry -> {
            issued.clear();
            for (String vehicleId : unique) {
                registry.principal(vehicleId).ifPresent(existing -> {
                    throw new IllegalArgumentException(existing.kind().label() + " " + vehicleId
                            + " exists already: rotate its secret with `fleet devices rotate " + vehicleId + "`");
                });
            }
            List<Principal> added = new ArrayList<>();
            for (String vehicleId : unique) {
                String secret = Secrets.generate(random);
                added.add(new Principal(
                        vehicleId,
                        PrincipalKind.DEVICE,
                        PasswordHash.of(secret, random),
                        VehicleGrant.NONE,
                        clock.instant(),
                        clock.instant()));
                issued.add(new IssuedSecret(vehicleId, secret));
                if (issued.size() % 100 == 0) {
                    progress.accept(issued.size());
                }
            }
            progress.accept(issued.size());
            return registry.withAll(added);
        });
        return List.copyOf(issued);
    }

    /**
     * Grants {@code gateway} the vehicles of {@code grant}: creates the gateway (and returns its secret) when it does
     * not exist, otherwise adds to its grant or, with {@code replace}, sets it to exactly {@code grant}; its secret then
     * stays and nothing is returned.
     */
    public Optional<IssuedSecret> grant(String gateway, VehicleGrant grant, GrantMode mode) {
        PrincipalNames.requireValid(gateway, "gateway name");
        requireNonNull(grant, "grant is null");
        requireNonNull(mode, "mode is null");
        List<IssuedSecret> issued = new ArrayList<>();
        file.update(registry -> {
            issued.clear();
            Optional<Principal> existing = registry.principal(gateway);
            if (existing.isPresent()) {
                Principal principal = existing.get();
                if (principal.kind() != PrincipalKind.GATEWAY) {
                    throw new IllegalArgumentException(
                            gateway + " is a " + principal.kind().label() + ", not a gateway: choose another name");
                }
                VehicleGrant changed =
                        mode == GrantMode.REPLACE ? grant : principal.grant().plus(grant);
                return registry.with(principal.withGrant(changed));
            }
            String secret = Secrets.generate(random);
            issued.add(new IssuedSecret(gateway, secret));
            return registry.with(new Principal(
                    gateway,
                    PrincipalKind.GATEWAY,
                    PasswordHash.of(secret, random),
                    grant,
                    clock.instant(),
                    clock.instant()));
        });
        return issued.stream().findFirst();
    }

    /**
     * Adds the ingest connector's principal {@code name}.
     *
     * @throws IllegalArgumentException when a principal of that name exists
     */
    public IssuedSecret addIngest(String name) {
        PrincipalNames.requireValid(name, "principal name");
        List<IssuedSecret> issued = new ArrayList<>();
        file.update(registry -> {
            issued.clear();
            if (registry.principal(name).isPresent()) {
                throw new IllegalArgumentException(name + " exists already: rotate its secret instead");
            }
            String secret = Secrets.generate(random);
            issued.add(new IssuedSecret(name, secret));
            return registry.with(new Principal(
                    name,
                    PrincipalKind.INGEST,
                    PasswordHash.of(secret, random),
                    VehicleGrant.NONE,
                    clock.instant(),
                    clock.instant()));
        });
        return issued.get(0);
    }

    /** Removes {@code name}; a broker that reloads the registry refuses it and disconnects its clients. */
    public Principal revoke(String name) {
        List<Principal> removed = new ArrayList<>();
        file.update(registry -> {
            removed.clear();
            removed.add(registry.principal(name).orElseThrow(() -> unknown(name)));
            return registry.without(name);
        });
        return removed.get(0);
    }

    /** Gives {@code name} a new secret; the old one stops working once a broker has reloaded the registry. */
    public IssuedSecret rotate(String name) {
        List<IssuedSecret> issued = new ArrayList<>();
        file.update(registry -> {
            issued.clear();
            Principal principal = registry.principal(name).orElseThrow(() -> unknown(name));
            String secret = Secrets.generate(random);
            issued.add(new IssuedSecret(name, secret));
            return registry.with(principal.withSecret(PasswordHash.of(secret, random), clock.instant()));
        });
        return issued.get(0);
    }

    private static IllegalArgumentException unknown(String name) {
        return new IllegalArgumentException("No principal named " + name + ": `fleet devices list` shows them");
    }

    /** How {@link #grant} changes an existing gateway. */
    public enum GrantMode {
        /** Adds the vehicles and prefixes to those it has. */
        ADD,
        /** Sets them to exactly those given. */
        REPLACE
    }
}

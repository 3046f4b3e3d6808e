package io.fleetlake.identity.mqtt;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every MQTT principal of one deployment, by name: an immutable value, read from and written to a {@link
 * RegistryFile}.
 *
 * <p>Client identifiers belong to principals: a client id is owned by the principal of the longest name that is the
 * client id itself or a prefix of it followed by {@code -} ({@code fleet-ingest-0} belongs to {@code fleet-ingest},
 * {@code VH-0001} to the device {@code VH-0001}). The embedded broker admits a connection only with a client id its
 * principal owns, so that no principal can take over, or clear, another's session (the ingest connector's above all).
 */
public record PrincipalRegistry(SortedMap<String, Principal> byName) {
    public static final PrincipalRegistry EMPTY = new PrincipalRegistry(new TreeMap<>());

    public PrincipalRegistry {
        requireNonNull(byName, "byName is null");
        for (Map.Entry<String, Principal> entry : byName.entrySet()) {
            if (!entry.getKey().equals(entry.getValue().name())) {
                throw new IllegalArgumentException(
                        "Principal " + entry.getValue().name() + " is filed under " + entry.getKey());
            }
        }
        byName = Collections.unmodifiableSortedMap(new TreeMap<>(byName));
    }

    public static PrincipalRegistry of(Collection<Principal> principals) {
        SortedMap<String, Principal> byName = new TreeMap<>();
        for (Principal principal : principals) {
            if (byName.put(principal.name(), principal) != null) {
                throw new IllegalArgumentException("Two principals are named " + principal.name());
            }
        }
        return new PrincipalRegistry(byName);
    }

    public Optional<Principal> principal(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public List<Principal> principals() {
        return List.copyOf(byName.values());
    }

    public int size() {
        return byName.size();
    }

    /** The principal named {@code name} if {@code secret} is its secret; empty for anything else. */
    public Optional<Principal> authenticate(String name, String secret) {
        requireNonNull(name, "name is null");
        requireNonNull(secret, "secret is null");
        return principal(name).filter(principal -> principal.secret().matches(secret));
    }

    /** The principal that owns {@code clientId} (see the class comment), if any. */
    public Optional<Principal> owner(String clientId) {
        requireNonNull(clientId, "clientId is null");
        String candidate = clientId;
        while (true) {
            Principal principal = byName.get(candidate);
            if (principal != null) {
                return Optional.of(principal);
            }
            int dash = candidate.lastIndexOf('-');
            if (dash <= 0) {
                return Optional.empty();
            }
            candidate = candidate.substring(0, dash);
        }
    }

    /** This registry with {@code principal} added, or replacing the one of the same name. */
    public PrincipalRegistry with(Principal principal) {
        SortedMap<String, Principal> changed = new TreeMap<>(byName);
        changed.put(principal.name(), principal);
        return new PrincipalRegistry(changed);
    }

    /** This registry with every principal of {@code principals} added or replaced. */
    public PrincipalRegistry withAll(Collection<Principal> principals) {
        SortedMap<String, Principal> changed = new TreeMap<>(byName);
        for (Principal principal : principals) {
            changed.put(principal.name(), principal);
        }
        return new PrincipalRegistry(changed);
    }

    /** This registry without the principal {@code name}; unchanged when there is none. */
    public PrincipalRegistry without(String name) {
        SortedMap<String, Principal> changed = new TreeMap<>(byName);
        changed.remove(name);
        return new PrincipalRegistry(changed);
    }
}

package io.fleetlake.identity.mqtt;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The vehicles a gateway relays: an explicit list of vehicle ids, id prefixes, or both. A prefix covers every vehicle
 * id that starts with it, present and future ({@code VH-0} covers {@code VH-0001} … {@code VH-0999}).
 *
 * @param vehicles vehicle ids, each valid as a {@link PrincipalNames name}
 * @param prefixes vehicle id prefixes, each valid as a {@link PrincipalNames name}
 */
public record VehicleGrant(SortedSet<String> vehicles, SortedSet<String> prefixes) {
    public static final VehicleGrant NONE = new VehicleGrant(new TreeSet<>(), new TreeSet<>());

    public VehicleGrant {
        vehicles = copy(requireNonNull(vehicles, "vehicles is null"), "vehicle id");
        prefixes = copy(requireNonNull(prefixes, "prefixes is null"), "vehicle id prefix");
    }

    public static VehicleGrant ofVehicles(Collection<String> vehicles) {
        return new VehicleGrant(new TreeSet<>(vehicles), new TreeSet<>());
    }

    public static VehicleGrant ofPrefixes(Collection<String> prefixes) {
        return new VehicleGrant(new TreeSet<>(), new TreeSet<>(prefixes));
    }

    public boolean isEmpty() {
        return vehicles.isEmpty() && prefixes.isEmpty();
    }

    public boolean covers(String vehicleId) {
        if (vehicles.contains(vehicleId)) {
            return true;
        }
        for (String prefix : prefixes) {
            if (vehicleId.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** This grant plus {@code other}'s vehicles and prefixes. */
    public VehicleGrant plus(VehicleGrant other) {
        SortedSet<String> allVehicles = new TreeSet<>(vehicles);
        allVehicles.addAll(other.vehicles);
        SortedSet<String> allPrefixes = new TreeSet<>(prefixes);
        allPrefixes.addAll(other.prefixes);
        return new VehicleGrant(allVehicles, allPrefixes);
    }

    /** "3 vehicles, prefixes VH-0, DEPOT-" as {@code fleet devices list} shows it. */
    public String describe() {
        if (isEmpty()) {
            return "-";
        }
        StringBuilder text = new StringBuilder();
        if (!vehicles.isEmpty()) {
            text.append(vehicles.size() <= 3 ? String.join(",", vehicles) : vehicles.size() + " vehicles");
        }
        if (!prefixes.isEmpty()) {
            text.append(text.isEmpty() ? "" : "; ").append("prefix ").append(String.join(",", prefixes));
        }
        return text.toString();
    }

    private static SortedSet<String> copy(SortedSet<String> values, String what) {
        for (String value : values) {
            PrincipalNames.requireValid(value, what);
        }
        return Collections.unmodifiableSortedSet(new TreeSet<>(values));
    }
}

package io.fleetlake.stack;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The database behind the Iceberg REST catalog, as a {@link StackServers} provider serves it.
 *
 * @param configuration keys handed to the catalog, such as {@code catalog.jdbc-url}; the user's own {@code catalog.*}
 *     keys still win
 * @param dependencies components that must be healthy before the catalog starts
 */
public record CatalogDatabase(Map<String, String> configuration, Set<String> dependencies) {
    public CatalogDatabase {
        configuration = Map.copyOf(requireNonNull(configuration, "configuration is null"));
        dependencies = Set.copyOf(requireNonNull(dependencies, "dependencies is null"));
    }

    /** The catalog's default: a SQLite file in its data directory, which survives restarts of the stack. */
    public static CatalogDatabase sqliteFile() {
        return new CatalogDatabase(Map.of(), Set.of());
    }

    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>(configuration);
        shown.replaceAll((key, value) -> key.endsWith("password") ? "***" : value);
        return "CatalogDatabase{configuration=" + shown + ", dependencies=" + dependencies + "}";
    }
}

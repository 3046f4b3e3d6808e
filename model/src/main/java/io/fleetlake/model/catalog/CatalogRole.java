package io.fleetlake.model.catalog;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a client of the Iceberg REST catalog may do, each role including the ones before it: a {@link #READER} loads
 * namespaces, tables and views (Trino, Spark, notebooks, {@code fleet verify}); a {@link #WRITER} also creates tables
 * and commits appends, overwrites and row deltas (the pipeline, backfills); a {@link #MAINTAINER} also rewrites files,
 * expires snapshots and removes references (table maintenance, {@code fleet geocode}); an {@link #ADMIN} also drops,
 * purges, renames and registers tables, views and namespaces.
 */
public enum CatalogRole {
    READER,
    WRITER,
    MAINTAINER,
    ADMIN;

    /** Whether this role may do what {@code required} may. */
    public boolean includes(CatalogRole required) {
        requireNonNull(required, "required is null");
        return compareTo(required) >= 0;
    }

    /** The role's name in files and tokens: {@code reader}, {@code writer}, {@code maintainer}, {@code admin}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The role of that label, in any case.
     *
     * @throws IllegalArgumentException naming the roles there are
     */
    public static CatalogRole named(String label) {
        requireNonNull(label, "label is null");
        for (CatalogRole role : values()) {
            if (role.label().equalsIgnoreCase(label.trim())) {
                return role;
            }
        }
        throw new IllegalArgumentException("Unknown catalog role '" + label + "': use one of "
                + Arrays.stream(values()).map(CatalogRole::label).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return label();
    }
}

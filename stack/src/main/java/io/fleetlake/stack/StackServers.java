package io.fleetlake.stack;

import io.fleetlake.stack.component.Component;
import java.util.List;

/**
 * Where the stack's servers come from: Kafka, S3, MQTT, Redis, Trino and the catalog's database. The project's own
 * services (catalog, connect, pipeline, planning, dashboard) are always processes launched by {@link FleetStack},
 * pointed at the endpoints in {@link StackSettings}; so every provider serves each server at the endpoint its settings
 * name, and the same orchestration, health checks, restarts and tests work with every provider.
 *
 * <p>{@link EmbeddedServers} (processes started from Maven artifacts) is the default; the end-to-end tests can use
 * containers instead. An instance is built for one {@link StackSettings} and used for one stack.
 */
public interface StackServers {
    /**
     * The server components, named {@link FleetStack#KAFKA}, {@link FleetStack#S3}, {@link FleetStack#MQTT}, {@link
     * FleetStack#REDIS} and {@link FleetStack#TRINO}, plus any component the catalog's database needs. They may depend
     * on {@link FleetStack#CATALOG} (Trino reads tables through it).
     */
    List<Component> components();

    /** The catalog's database; {@link CatalogDatabase#sqliteFile()} unless the provider serves one. */
    CatalogDatabase catalogDatabase();
}

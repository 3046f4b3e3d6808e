package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.types.RecordSerializers;
import io.fleetlake.model.planning.PlannedRoute;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * What one poll of the planning API says about one vehicle: its current route, or that it no longer has one.
 *
 * @param vehicleId the vehicle
 * @param route its current route; null when the planning API no longer lists one for it
 * @param fetchedAt when the poll's answer arrived (wall clock); a route is stale once this is too long ago
 */
@TypeInfo(RouteUpdate.TypeInfoFactory.class)
public record RouteUpdate(String vehicleId, PlannedRoute route, Instant fetchedAt) {
    public RouteUpdate {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(fetchedAt, "fetchedAt is null");
        if (route != null && !route.vehicleId().equals(vehicleId)) {
            throw new IllegalArgumentException(
                    "Route " + route.routeId() + " belongs to " + route.vehicleId() + ", not to " + vehicleId);
        }
    }

    public static RouteUpdate assigned(PlannedRoute route, Instant fetchedAt) {
        return new RouteUpdate(route.vehicleId(), route, fetchedAt);
    }

    public static RouteUpdate withdrawn(String vehicleId, Instant fetchedAt) {
        return new RouteUpdate(vehicleId, null, fetchedAt);
    }

    public boolean hasRoute() {
        return route != null;
    }

    /** Written by the pipeline's own serializer ({@link RecordSerializers}), never reflectively. */
    public static final class TypeInfoFactory
            extends org.apache.flink.api.common.typeinfo.TypeInfoFactory<RouteUpdate> {
        @Override
        public TypeInformation<RouteUpdate> createTypeInfo(Type type, Map<String, TypeInformation<?>> parameters) {
            return RecordSerializers.ROUTE_UPDATE;
        }
    }
}

package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.types.RecordSerializers;
import io.fleetlake.model.planning.PlannedRoute;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * One successful answer of the planning API's {@code GET /v1/routes}: the current route of every vehicle that has one.
 * A failed fetch produces no poll.
 *
 * @param fetchedAt when the answer arrived (wall clock)
 * @param routes every vehicle's current route
 */
@TypeInfo(RoutePoll.TypeInfoFactory.class)
public record RoutePoll(Instant fetchedAt, List<PlannedRoute> routes) {
    public RoutePoll {
        requireNonNull(fetchedAt, "fetchedAt is null");
        routes = List.copyOf(requireNonNull(routes, "routes is null"));
    }

    /** Written by the pipeline's own serializer ({@link RecordSerializers}), never reflectively. */
    public static final class TypeInfoFactory extends org.apache.flink.api.common.typeinfo.TypeInfoFactory<RoutePoll> {
        @Override
        public TypeInformation<RoutePoll> createTypeInfo(Type type, Map<String, TypeInformation<?>> parameters) {
            return RecordSerializers.ROUTE_POLL;
        }
    }
}

package io.fleetlake.identity.mqtt;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MqttTopics;
import java.util.Optional;

/**
 * What a principal may publish and subscribe to; the one set of rules the embedded broker enforces and {@link
 * MosquittoFiles} renders for Mosquitto. Everything not allowed here is refused.
 *
 * <ul>
 *   <li>a device publishes to {@code fleet/<its name>/position} and may subscribe below {@code fleet/<its
 *       name>/commands/} (no command is sent today; the topic is kept for it);
 *   <li>a gateway publishes to {@code fleet/<v>/position} for every vehicle {@code v} of its grant and may subscribe
 *       below {@code fleet/<v>/commands/} of such a vehicle, named without a wildcard;
 *   <li>the ingest connector subscribes to {@code fleet/+/position} or one vehicle's position topic, also as a shared
 *       subscription ({@code $share/<group>/...}), and publishes nothing.
 * </ul>
 */
public final class TopicAccess {
    private static final String SHARED_PREFIX = "$share/";
    private static final String COMMANDS = "/commands";

    private TopicAccess() {}

    public static boolean mayPublish(Principal principal, String topic) {
        requireNonNull(principal, "principal is null");
        requireNonNull(topic, "topic is null");
        Optional<String> vehicle = MqttTopics.vehicleId(topic);
        if (vehicle.isEmpty() || !PrincipalNames.isValid(vehicle.get())) {
            return false;
        }
        return switch (principal.kind()) {
            case DEVICE -> vehicle.get().equals(principal.name());
            case GATEWAY -> principal.grant().covers(vehicle.get());
            case INGEST -> false;
        };
    }

    public static boolean maySubscribe(Principal principal, String topicFilter) {
        requireNonNull(principal, "principal is null");
        requireNonNull(topicFilter, "topicFilter is null");
        return switch (principal.kind()) {
            case DEVICE ->
                commandVehicle(topicFilter)
                        .filter(vehicle -> vehicle.equals(principal.name()))
                        .isPresent();
            case GATEWAY ->
                commandVehicle(topicFilter)
                        .filter(vehicle -> principal.grant().covers(vehicle))
                        .isPresent();
            case INGEST -> isPositionFilter(unshared(topicFilter));
        };
    }

    /** The vehicle of a filter at or below {@code fleet/<vehicle>/commands}, named without a wildcard. */
    private static Optional<String> commandVehicle(String topicFilter) {
        String[] levels = topicFilter.split("/", -1);
        if (levels.length < 3 || !levels[0].equals("fleet") || !levels[2].equals(COMMANDS.substring(1))) {
            return Optional.empty();
        }
        return PrincipalNames.isValid(levels[1]) ? Optional.of(levels[1]) : Optional.empty();
    }

    private static boolean isPositionFilter(String topicFilter) {
        if (topicFilter.equals(MqttTopics.POSITION_FILTER)) {
            return true;
        }
        return MqttTopics.vehicleId(topicFilter).filter(PrincipalNames::isValid).isPresent();
    }

    /** The filter of a shared subscription without {@code $share/<group>/}; other filters unchanged. */
    private static String unshared(String topicFilter) {
        if (!topicFilter.startsWith(SHARED_PREFIX)) {
            return topicFilter;
        }
        int groupEnd = topicFilter.indexOf('/', SHARED_PREFIX.length());
        return groupEnd < 0 ? "" : topicFilter.substring(groupEnd + 1);
    }
}

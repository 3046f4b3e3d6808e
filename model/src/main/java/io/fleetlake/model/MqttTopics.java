package io.fleetlake.model;

import java.util.Optional;

/** MQTT topic layout of device messages: {@code fleet/{vehicle_id}/position}. */
public final class MqttTopics {
    /** Subscription filter that matches every vehicle's position topic. */
    public static final String POSITION_FILTER = "fleet/+/position";

    private static final String PREFIX = "fleet/";
    private static final String SUFFIX = "/position";

    private MqttTopics() {}

    public static String positionTopic(String vehicleId) {
        if (vehicleId.isEmpty() || vehicleId.contains("/") || vehicleId.contains("+") || vehicleId.contains("#")) {
            throw new IllegalArgumentException("Vehicle id '" + vehicleId + "' cannot be used in an MQTT topic");
        }
        return PREFIX + vehicleId + SUFFIX;
    }

    /** The vehicle id of a position topic, or empty when the topic does not follow the layout. */
    public static Optional<String> vehicleId(String topic) {
        if (topic.length() <= PREFIX.length() + SUFFIX.length()
                || !topic.startsWith(PREFIX)
                || !topic.endsWith(SUFFIX)) {
            return Optional.empty();
        }
        String vehicleId = topic.substring(PREFIX.length(), topic.length() - SUFFIX.length());
        if (vehicleId.isEmpty() || vehicleId.contains("/")) {
            return Optional.empty();
        }
        return Optional.of(vehicleId);
    }
}

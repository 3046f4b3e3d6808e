package io.fleetlake.identity.mqtt;

import java.util.Locale;

/** What an MQTT principal is, and so what it may do ({@link TopicAccess}). */
public enum PrincipalKind {
    /** One vehicle's device: publishes its own positions only; its name is the vehicle id. */
    DEVICE,
    /** A telematics server or depot gateway relaying the positions of the vehicles of its {@link VehicleGrant}. */
    GATEWAY,
    /** The ingest connector: subscribes to the position topics, publishes nothing. */
    INGEST;

    /** As written in the registry file and printed by {@code fleet devices list}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static PrincipalKind parse(String label) {
        for (PrincipalKind kind : values()) {
            if (kind.label().equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("Unknown principal kind '" + label + "': device, gateway or ingest");
    }
}

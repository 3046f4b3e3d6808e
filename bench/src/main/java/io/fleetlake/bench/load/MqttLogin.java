package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

/**
 * The MQTT user name and password a bench client logs in with: the stack's bench gateway, or a vehicle's device.
 *
 * @param username the principal's name; a device's is its vehicle id, which is also its client id
 * @param password its secret; redacted in {@link #toString()}
 */
public record MqttLogin(String username, String password) {
    public MqttLogin {
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
    }

    @Override
    public String toString() {
        return "MqttLogin{username=" + username + ", password=***}";
    }
}

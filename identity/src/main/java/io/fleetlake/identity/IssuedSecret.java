package io.fleetlake.identity;

import static java.util.Objects.requireNonNull;

/**
 * A principal's new secret, in clear: handed once to whoever provisions the client, never stored by the registry.
 *
 * @param name the principal (the MQTT user name)
 * @param secret the secret (the MQTT password)
 */
public record IssuedSecret(String name, String secret) {
    public IssuedSecret {
        requireNonNull(name, "name is null");
        requireNonNull(secret, "secret is null");
    }

    @Override
    public String toString() {
        return "IssuedSecret{name=" + name + ", secret=***}";
    }
}

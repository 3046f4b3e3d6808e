package io.fleetlake.common.config;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;

/**
 * Where a component serves its Prometheus metrics: keys {@code <component>.metrics-host} (default the component's
 * {@code <component>.host}, else {@code 127.0.0.1}) and {@code <component>.metrics-port}; without a port the component
 * serves no metrics. A port of its own keeps the metrics endpoint apart from the component's API and its
 * authentication.
 *
 * @param host the address to listen on
 * @param port the port, when metrics are served; 0 picks a free one
 */
public record MetricsEndpointConfig(String host, OptionalInt port) {
    public static final String DEFAULT_HOST = "127.0.0.1";

    public MetricsEndpointConfig {
        requireNonNull(host, "host is null");
        requireNonNull(port, "port is null");
        if (host.isBlank()) {
            throw new ConfigException("The metrics host must not be blank");
        }
    }

    /** The metrics endpoint of {@code component}, such as {@code catalog} for {@code catalog.metrics-port}. */
    public static MetricsEndpointConfig from(ConfigSource source, String component) {
        requireNonNull(source, "source is null");
        requireNonNull(component, "component is null");
        String portKey = component + ".metrics-port";
        String host = source.string(component + ".metrics-host", source.string(component + ".host", DEFAULT_HOST));
        return new MetricsEndpointConfig(
                host,
                source.string(portKey).isPresent() ? OptionalInt.of(source.port(portKey, 0)) : OptionalInt.empty());
    }

    public boolean enabled() {
        return port.isPresent();
    }
}

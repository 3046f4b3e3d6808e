package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.MetricsEndpointConfig;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's Prometheus endpoint ({@code /metrics}) on the port of its {@link MetricsEndpointConfig}, apart from the
 * server's API and its authentication; without a configured port it serves nothing. Created before the server is
 * handed to the process's shutdown, started after the server, closed with it.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

    private final MetricsEndpointConfig config;
    private final String component;
    private final String name;
    private final PrometheusRegistry registry;
    private final AtomicReference<HTTPServer> server = new AtomicReference<>();

    /**
     * @param component the prefix of the configuration keys, such as {@code catalog} for {@code catalog.metrics-port}
     * @param name the server's name at the start of a sentence, such as {@code Catalog}
     */
    public MetricsEndpoint(MetricsEndpointConfig config, String component, String name, PrometheusRegistry registry) {
        this.config = requireNonNull(config, "config is null");
        this.component = requireNonNull(component, "component is null");
        this.name = requireNonNull(name, "name is null");
        this.registry = requireNonNull(registry, "registry is null");
    }

    /**
     * Serves the metrics when a port is configured.
     *
     * @throws UncheckedIOException when the port cannot be bound; the message names the key
     * @throws IllegalStateException when started already
     */
    public void start() {
        if (!config.enabled()) {
            return;
        }
        try {
            HTTPServer started = HTTPServer.builder()
                    .hostname(config.host())
                    .port(config.port().getAsInt())
                    .registry(registry)
                    .buildAndStart();
            if (!server.compareAndSet(null, started)) {
                started.close();
                throw new IllegalStateException(name + " metrics are served already");
            }
            LOG.info("{} metrics on http://{}:{}/metrics", name, config.host(), started.getPort());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot serve the " + name.toLowerCase(Locale.ROOT) + "'s metrics on " + config.host() + ":"
                            + config.port().getAsInt() + " (" + component + ".metrics-port)",
                    e);
        }
    }

    /** The bound port while serving. */
    public OptionalInt port() {
        HTTPServer running = server.get();
        return running == null ? OptionalInt.empty() : OptionalInt.of(running.getPort());
    }

    /** Stops serving; does nothing when not serving. */
    @Override
    public void close() {
        HTTPServer running = server.getAndSet(null);
        if (running != null) {
            running.close();
        }
    }
}

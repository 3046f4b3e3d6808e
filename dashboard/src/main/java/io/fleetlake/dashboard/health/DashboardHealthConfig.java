package io.fleetlake.dashboard.health;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.net.URI;
import java.util.Optional;

/**
 * Where the dashboard's health panel reads the stack's health report: {@code dashboard.health-uri}, fleet-exporter's
 * {@code /health} (no default: without it the panel says so).
 */
public record DashboardHealthConfig(Optional<URI> healthUri) {
    public static final String HEALTH_URI = "dashboard.health-uri";

    public DashboardHealthConfig {
        requireNonNull(healthUri, "healthUri is null");
        healthUri.ifPresent(uri -> {
            String scheme = String.valueOf(uri.getScheme());
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new ConfigException(
                        HEALTH_URI + " = '" + uri + "' must be an http:// URL, such as http://127.0.0.1:9400/health");
            }
        });
    }

    public static DashboardHealthConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new DashboardHealthConfig(source.string(HEALTH_URI).map(present -> source.uri(HEALTH_URI, null)));
    }

    public HealthReader reader() {
        return healthUri.<HealthReader>map(ExporterHealthReader::new).orElse(HealthReader.NOT_CONFIGURED);
    }
}

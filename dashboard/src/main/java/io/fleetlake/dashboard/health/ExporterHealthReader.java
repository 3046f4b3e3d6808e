package io.fleetlake.dashboard.health;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads the health report from fleet-exporter's {@code /health}. */
public final class ExporterHealthReader implements HealthReader {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final URI uri;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    public ExporterHealthReader(URI uri) {
        this.uri = requireNonNull(uri, "uri is null");
    }

    @Override
    public String healthJson() {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new DashboardException(
                        DashboardError.HEALTH_UNAVAILABLE,
                        "fleet-exporter answered " + response.statusCode() + " at " + uri);
            }
            return response.body();
        } catch (IOException e) {
            throw new DashboardException(
                    DashboardError.HEALTH_UNAVAILABLE, "fleet-exporter is unreachable at " + uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DashboardException(DashboardError.HEALTH_UNAVAILABLE, "Interrupted while asking " + uri, e);
        }
    }
}

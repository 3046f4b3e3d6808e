package io.fleetlake.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.pipeline.PipelineCountersUnavailableException;
import org.junit.jupiter.api.Test;

class PageResourcesTest {
    private final ApiFixture api = new ApiFixture(() -> {
        throw new PipelineCountersUnavailableException("not used");
    });

    @Test
    void thePageHasTheElementsABrowserTestReads() {
        HttpResponse page = api.get("/");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).isEqualTo("text/html; charset=utf-8");
        assertThat(page.body())
                .contains("id=\"mode-banner\"")
                .contains("id=\"vehicle-count\"")
                .contains("id=\"data-time\"")
                .contains("id=\"markers\"")
                .contains("id=\"vehicle-filter\"")
                .contains("id=\"vehicle-list\"")
                .contains("id=\"replay-at\" type=\"datetime-local\"")
                .contains("id=\"replay-snapshot\"")
                .contains("id=\"back-to-live\"")
                .contains("id=\"api-warning\"")
                .contains("id=\"rejection-rate\"")
                .contains("src=\"/dashboard.js\"")
                .doesNotContain("http://")
                .doesNotContain("https://");
    }

    @Test
    void scriptAndStylesAreServedAndLoadNothingFromElsewhere() {
        HttpResponse script = api.get("/dashboard.js");
        HttpResponse styles = api.get("/dashboard.css");

        assertThat(script.contentType()).isEqualTo("text/javascript; charset=utf-8");
        assertThat(script.body())
                .contains("dataset.vehicleId")
                .contains("'/api/vehicles'")
                .contains("'/api/replay?'");
        assertThat(styles.contentType()).isEqualTo("text/css; charset=utf-8");
        assertThat(script.body() + styles.body()).doesNotContain("https://").doesNotContain("@import");
    }

    @Test
    void theRegionOutlineOfTheValidationModule() {
        HttpResponse region = api.get("/region.geojson");

        assertThat(region.status()).isEqualTo(200);
        assertThat(region.contentType()).isEqualTo("application/geo+json; charset=utf-8");
        assertThat(api.json(region).path("type").asText()).isEqualTo("FeatureCollection");
        assertThat(api.json(region).path("features")).isNotEmpty();
    }

    @Test
    void healthAndClientSettings() {
        assertThat(api.get("/healthz").status()).isEqualTo(200);
        assertThat(api.json(api.get("/api/config")))
                .isEqualTo(api.json(
                        "{\"poll_interval_ms\":2000,\"stale_after_ms\":120000,\"replay_lookback_ms\":86400000}"));
    }
}

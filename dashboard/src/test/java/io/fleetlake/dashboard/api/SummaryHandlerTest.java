package io.fleetlake.dashboard.api;

import static io.fleetlake.dashboard.api.ApiFixture.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetlake.dashboard.fakes.RecordedFlinkRest;
import io.fleetlake.dashboard.http.HttpResponse;
import io.fleetlake.dashboard.pipeline.FlinkRestCountersReader;
import io.fleetlake.dashboard.pipeline.PipelineCounters;
import io.fleetlake.dashboard.pipeline.PipelineCountersUnavailableException;
import org.junit.jupiter.api.Test;

class SummaryHandlerTest {
    @Test
    void countsStaleVehiclesAndRejectionRate() {
        ApiFixture api = new ApiFixture(new FlinkRestCountersReader(RecordedFlinkRest.recorded()));
        api.redis
                .vehicle("VH-0001", NOW.minusSeconds(1), 40.0, -3.0, "ON_ROUTE")
                .vehicle("VH-0002", NOW.minusSeconds(2), 40.1, -3.1, "ON_ROUTE")
                .vehicle("VH-0003", NOW.minusSeconds(121), 40.2, -3.2, "STOPPED")
                .vehicle("VH-0004", NOW.minusSeconds(5), 40.3, -3.3, null)
                .vehicle("VH-0005", NOW.minusSeconds(500), 40.4, -3.4, "DEVIATING");

        HttpResponse response = api.get("/api/summary");

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = api.json(response);
        assertThat(body.path("total_vehicles").asInt()).isEqualTo(5);
        assertThat(body.path("counts_by_status"))
                .isEqualTo(api.json("{\"ON_ROUTE\":2,\"DEVIATING\":1,\"STOPPED\":1,\"NO_ROUTE\":0,\"UNKNOWN\":1}"));
        assertThat(body.path("stale_vehicle_ids")).isEqualTo(api.json("[\"VH-0003\",\"VH-0005\"]"));
        assertThat(body.path("newest_event_time").asText()).isEqualTo("2026-11-29T17:59:59Z");
        assertThat(body.path("newest_updated_at").asText()).isEqualTo("2026-11-29T17:59:59.150Z");
        assertThat(body.path("rejection_rate").asDouble()).isEqualTo(356.0 / 5100);
        assertThat(body.path("rejection_rate_unavailable").isNull()).isTrue();
        assertThat(body.path("pipeline"))
                .isEqualTo(api.json("{\"job_id\":\"d2875b833b9f3e9a2b87883fb5abd120\",\"records_read\":5100,"
                        + "\"records_rejected\":356,\"records_accepted\":4742,\"resends_deduplicated\":125}"));
    }

    @Test
    void unreachableFlinkNeverFailsTheSummary() {
        ApiFixture api = new ApiFixture(() -> {
            throw new PipelineCountersUnavailableException(
                    "Flink REST API at 127.0.0.1:8081 is unreachable: ConnectException");
        });
        api.redis.vehicle("VH-0001", NOW, 40.0, -3.0, "NO_ROUTE");

        HttpResponse response = api.get("/api/summary");

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = api.json(response);
        assertThat(body.path("total_vehicles").asInt()).isEqualTo(1);
        assertThat(body.has("rejection_rate")).isTrue();
        assertThat(body.path("rejection_rate").isNull()).isTrue();
        assertThat(body.path("rejection_rate_unavailable").asText())
                .isEqualTo("Flink REST API at 127.0.0.1:8081 is unreachable: ConnectException");
        assertThat(body.path("pipeline").isNull()).isTrue();
    }

    @Test
    void nothingReadYetHasNoRate() {
        ApiFixture api = new ApiFixture(() -> new PipelineCounters("job", 0, 0, 0, 0));

        JsonNode body = api.json(api.get("/api/summary"));

        assertThat(body.path("rejection_rate").isNull()).isTrue();
        assertThat(body.path("rejection_rate_unavailable").asText())
                .isEqualTo("the pipeline has not read any record yet");
        assertThat(body.path("newest_event_time").isNull()).isTrue();
        assertThat(body.path("counts_by_status"))
                .isEqualTo(api.json("{\"ON_ROUTE\":0,\"DEVIATING\":0,\"STOPPED\":0,\"NO_ROUTE\":0}"));
    }
}

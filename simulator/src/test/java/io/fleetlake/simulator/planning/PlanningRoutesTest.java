package io.fleetlake.simulator.planning;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.JsonResponse;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.RouteJson;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The routing table and handlers, without HTTP. */
class PlanningRoutesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RouteDirectory directory = RouteDirectory.forFleet(
            PlanningApiConfig.defaults(), new MovableClock(Instant.parse("2026-03-01T09:30:00Z")));
    private final PlanningRoutes routes = PlanningRoutes.over(directory);

    @Test
    void listsEveryVehiclesRoute() {
        JsonResponse response = get("/v1/routes");

        assertThat(response.status()).isEqualTo(200);
        assertThat(RouteJson.readAll(response.body().orElseThrow())).isEqualTo(directory.currentRoutes());
    }

    @Test
    void servesOneVehiclesRouteAnd404ForAVehicleWithout() throws Exception {
        JsonResponse found = get("/v1/vehicles/VH-0012/route");
        assertThat(found.status()).isEqualTo(200);
        assertThat(RouteJson.read(found.body().orElseThrow()))
                .isEqualTo(directory.currentRoute("VH-0012").orElseThrow());

        JsonResponse missing = get("/v1/vehicles/VH-9999/route");
        assertThat(missing.status()).isEqualTo(404);
        JsonNode error = JSON.readTree(missing.body().orElseThrow());
        assertThat(error.get("error").asText()).isEqualTo("NOT_FOUND");
        assertThat(error.get("status").asInt()).isEqualTo(404);
        assertThat(error.get("message").asText())
                .contains("VH-9999 has no route")
                .contains("PUT /v1/vehicles/VH-9999/route");
    }

    @Test
    void putAssignsARouteThatGetThenServes() {
        PlannedRoute route = RouteDirectoryTest.route("VH-0001", "OPS-77");

        JsonResponse assigned = put("/v1/vehicles/VH-0001/route", RouteJson.write(route));

        assertThat(assigned).isEqualTo(new JsonResponse(204, Optional.empty()));
        assertThat(RouteJson.read(get("/v1/vehicles/VH-0001/route").body().orElseThrow()))
                .isEqualTo(route);
        assertThat(RouteJson.readAll(get("/v1/routes").body().orElseThrow()).get(0))
                .isEqualTo(route);
    }

    @Test
    void putRefusesBadRoutesWithTheReason() throws Exception {
        PlannedRoute route = RouteDirectoryTest.route("VH-0001", "OPS-78");

        assertBadRequest(
                put("/v1/vehicles/VH-0002/route", RouteJson.write(route)), "differs from the vehicle in the path");
        assertBadRequest(put("/v1/vehicles/VH-0001/route", "{\"route_id\": \"R\"}"), "Invalid route: ");
        assertBadRequest(put("/v1/vehicles/VH-0001/route", "not json"), "Invalid route: Invalid JSON");
        assertBadRequest(put("/v1/vehicles/VH-0001/route", ""), "Missing request body");
        String outOfRange = RouteJson.write(route).replace("[-0.38,39.47]", "[-0.38,139.47]");
        assertBadRequest(put("/v1/vehicles/VH-0001/route", outOfRange), "latitude 139.47");
        assertThat(directory.currentRoute("VH-0001").orElseThrow().routeId()).startsWith("VH-0001-2026");
    }

    @Test
    void answersTheHealthCheckAndRefusesUnknownPathsAndMethods() throws Exception {
        JsonResponse health = get("/healthz");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body()).contains("{\"status\":\"UP\"}");

        JsonResponse unknown = get("/v1/nowhere");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body().orElseThrow()).get("message").asText())
                .contains("GET /v1/routes");
        JsonResponse wrongMethod = routes.handle(new HttpRequest("DELETE", "/v1/routes", Map.of()));
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(JSON.readTree(wrongMethod.body().orElseThrow()).get("error").asText())
                .isEqualTo("METHOD_NOT_ALLOWED");
    }

    @Test
    void pathParametersAreDecodedAndTrailingSlashesIgnored() {
        directory.assign(RouteDirectoryTest.route("TEST 1+2", "OPS-79"));

        assertThat(get("/v1/vehicles/TEST%201+2/route").status()).isEqualTo(200);
        assertThat(get("/v1/routes/").status()).isEqualTo(200);
        assertThat(get("/v1/vehicles/%zz/route").status()).isEqualTo(400);
    }

    private JsonResponse get(String path) {
        return routes.handle(new HttpRequest("GET", path, Map.of()));
    }

    private JsonResponse put(String path, String body) {
        return routes.handle(new HttpRequest("PUT", path, Map.of()).withBody(body));
    }

    private static void assertBadRequest(JsonResponse response, String message) throws Exception {
        assertThat(response.status()).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body().orElseThrow());
        assertThat(error.get("error").asText()).isEqualTo("BAD_REQUEST");
        assertThat(error.get("message").asText()).contains(message);
    }
}

package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.model.Position;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.model.Tables;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.PlanningApi;
import io.fleetlake.model.planning.RouteJson;
import io.fleetlake.model.planning.RoutePoint;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.RedisInspector;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.identity.StackServiceSecrets;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Enrichment on the real stack: routes assigned through the planning API reach the pipeline's state, positions gain
 * the next stop, distances and a status (a delivery stop and a detour are detected), and an outage of the planning API
 * marks the enrichment stale without failing anything, until the API is back.
 *
 * <p>Event times lie far in the past on purpose: enrichment does not depend on the watermark, and keeping these
 * vehicles behind every other test's event time leaves the windows of the garage test undisturbed.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class EnrichmentIT {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final double LATITUDE = 41.65;
    /** Where fixes stand while a test waits for the pipeline to know the route: on the path, before the first stop. */
    private static final double PROBE_LONGITUDE = -0.8990;

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void positionsFollowTheRouteThroughAStopAndADetour(RunningStack running) throws Exception {
        String vehicle = "ENR-01";
        PlannedRoute route = route("R-" + vehicle, vehicle);
        assign(running, route);
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        Instant start = Instant.now().minus(60, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);

        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "enrichment-test")) {
            Instant time = awaitRouteKnown(running, publisher, vehicle, start, route.routeId());
            List<Position> drive = new ArrayList<>();
            // East along the route at about 75 km/h (0.0005 degrees of longitude every 2 s) from where the probes
            // stood (a jump from there would rightly be rejected) until the first stop.
            double longitude = PROBE_LONGITUDE + 0.0005;
            while (longitude < -0.8700) {
                time = time.plusSeconds(2);
                drive.add(fix(vehicle, time, LATITUDE, longitude, 75.0));
                longitude += 0.0005;
            }
            // A delivery: standing at the first stop for 80 s.
            for (int second = 0; second <= 80; second += 5) {
                time = time.plusSeconds(5);
                drive.add(fix(vehicle, time, LATITUDE, -0.8700, 0.0));
            }
            // On to the second stop, with a detour of about 600 m north of the path on the way: it drifts away and
            // back at about 180 km/h across the path, which the jump check still accepts.
            double east = -0.8700;
            for (int step = 1; step <= 5; step++) {
                time = time.plusSeconds(2);
                east += 0.0005;
                drive.add(fix(vehicle, time, LATITUDE, east, 70.0));
            }
            for (int step = 1; step <= 16; step++) {
                time = time.plusSeconds(2);
                east += 0.0005;
                int away = step <= 6 ? step : step <= 10 ? 6 : 16 - step;
                drive.add(fix(vehicle, time, LATITUDE + away * 0.0009, east, 50.0));
            }
            time = time.plusSeconds(2);
            drive.add(fix(vehicle, time, LATITUDE, east + 0.0005, 70.0));
            for (Position position : drive) {
                publisher.publish(position, PayloadFormat.AVRO);
            }
            publisher.awaitAcknowledgements();

            int expectedRows = drive.size();
            await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> Long.parseLong(trino.query(
                                            "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS)
                                                    + " WHERE vehicle_id = ? AND event_time > from_iso8601_timestamp(?)",
                                            vehicle,
                                            drive.get(0)
                                                    .eventTime()
                                                    .minusMillis(1)
                                                    .toString())
                                    .get(0)
                                    .get(0))
                            == expectedRows);
        }

        List<List<String>> rows = trino.query(
                "SELECT status, next_stop_id, distance_to_next_stop_method, round(distance_from_route_m),"
                        + " route_id FROM " + Tables.qualified(Tables.POSITIONS)
                        + " WHERE vehicle_id = ? AND route_id IS NOT NULL ORDER BY event_time",
                vehicle);
        assertThat(rows).allSatisfy(row -> assertThat(row.get(4)).isEqualTo(route.routeId()));
        assertThat(column(rows, 1))
                .as("the next stop advances when the vehicle arrives at the first")
                .containsSubsequence("S1", "S2");
        assertThat(column(rows, 0))
                .as("moving, then a delivery stop, then moving again, then a detour")
                .containsSubsequence(
                        VehicleStatus.ON_ROUTE.name(),
                        VehicleStatus.STOPPED.name(),
                        VehicleStatus.ON_ROUTE.name(),
                        VehicleStatus.DEVIATING.name());
        List<List<String>> deviating = rows.stream()
                .filter(row -> row.get(0).equals(VehicleStatus.DEVIATING.name()))
                .toList();
        assertThat(deviating).allSatisfy(row -> {
            assertThat(row.get(2)).isEqualTo("STRAIGHT_LINE");
            assertThat(Double.parseDouble(row.get(3))).isBetween(150.0, 620.0);
        });
        assertThat(deviating.stream()
                        .mapToDouble(row -> Double.parseDouble(row.get(3)))
                        .max()
                        .orElseThrow())
                .as("the farthest deviating fix")
                .isBetween(580.0, 620.0);
        assertThat(rows.stream().filter(row -> Double.parseDouble(row.get(3)) < 100.0))
                .as("on the path, the distance to the next stop is measured along the route")
                .allSatisfy(row -> assertThat(row.get(2)).isEqualTo("ALONG_ROUTE"));
        Map<String, String> current =
                new RedisInspector(URI.create(running.settings().redisUri(RedisRole.MONITOR))).vehicle(vehicle);
        assertThat(current)
                .containsEntry(VehicleField.ROUTE_ID.field(), route.routeId())
                .containsEntry(VehicleField.NEXT_STOP_ID.field(), "S2");
    }

    @Test
    void planningOutageMarksEnrichmentStaleAndRecovers(RunningStack running) throws Exception {
        String vehicle = "ENR-02";
        PlannedRoute route = route("R-" + vehicle, vehicle);
        assign(running, route);
        RedisInspector redis = new RedisInspector(URI.create(running.settings().redisUri(RedisRole.MONITOR)));
        Instant start = Instant.now().minus(50, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);

        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "outage-test")) {
            Instant time = awaitRouteKnown(running, publisher, vehicle, start, route.routeId());

            running.stack().stop(FleetStack.PLANNING);
            AtomicReference<Instant> clock = new AtomicReference<>(time);
            await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).until(() -> {
                publishNext(publisher, vehicle, clock);
                return "true".equals(redis.vehicle(vehicle).get(VehicleField.ENRICHMENT_STALE.field()));
            });
            assertThat(redis.vehicle(vehicle))
                    .as("the last known route is kept while the planning API is down")
                    .containsEntry(VehicleField.ROUTE_ID.field(), route.routeId());
            assertThat(running.stack().component(FleetStack.PIPELINE).isHealthy())
                    .as("the pipeline keeps running")
                    .isTrue();

            running.stack().start(FleetStack.PLANNING);
            // Routes assigned with PUT live in the planning API's memory: assign it again after its restart.
            assign(running, route);
            await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).until(() -> {
                publishNext(publisher, vehicle, clock);
                return "false".equals(redis.vehicle(vehicle).get(VehicleField.ENRICHMENT_STALE.field()));
            });
        }
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(trino.query(
                        "SELECT DISTINCT enrichment_stale, route_id FROM " + Tables.qualified(Tables.POSITIONS)
                                + " WHERE vehicle_id = ? AND route_id IS NOT NULL",
                        vehicle))
                .containsExactlyInAnyOrder(List.of("false", route.routeId()), List.of("true", route.routeId())));
    }

    /** Publishes fixes at the start of the route until Redis shows the pipeline enriching with the route. */
    static Instant awaitRouteKnown(
            RunningStack running, TestPublisher publisher, String vehicle, Instant start, String routeId) {
        RedisInspector redis = new RedisInspector(URI.create(running.settings().redisUri(RedisRole.MONITOR)));
        AtomicReference<Instant> clock = new AtomicReference<>(start);
        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(1)).until(() -> {
            publishNext(publisher, vehicle, clock);
            return routeId.equals(redis.vehicle(vehicle).get(VehicleField.ROUTE_ID.field()));
        });
        return clock.get();
    }

    private static void publishNext(TestPublisher publisher, String vehicle, AtomicReference<Instant> clock)
            throws InterruptedException {
        Instant time = clock.updateAndGet(previous -> previous.plusSeconds(2));
        publisher.publish(fix(vehicle, time, LATITUDE, PROBE_LONGITUDE, 5.0), PayloadFormat.AVRO);
        publisher.awaitAcknowledgements();
    }

    private static PlannedRoute route(String routeId, String vehicle) {
        List<RoutePoint> path = new ArrayList<>();
        for (int step = 0; step <= 10; step++) {
            path.add(new RoutePoint(LATITUDE, -0.9000 + step * 0.01));
        }
        return new PlannedRoute(
                routeId,
                vehicle,
                Instant.now(),
                List.of(
                        new PlannedStop("S1", "Almacén Delicias", LATITUDE, -0.8700),
                        new PlannedStop("S2", "Mercado Central", LATITUDE, -0.8200)),
                path);
    }

    private static void assign(RunningStack running, PlannedRoute route) throws IOException, InterruptedException {
        URI uri = URI.create(running.settings().planningUri() + PlanningApi.vehicleRoutePath(route.vehicleId()));
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(uri)
                        .PUT(HttpRequest.BodyPublishers.ofString(RouteJson.write(route)))
                        .header("Content-Type", "application/json")
                        .header(
                                "Authorization",
                                "Bearer "
                                        + StackServiceSecrets.of(running.settings())
                                                .planningToken())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
    }

    private static Position fix(String vehicle, Instant time, double latitude, double longitude, double speed) {
        return new Position(vehicle, time, latitude, longitude, speed, 90.0, 210.0, 4.0, 10, null);
    }

    private static List<String> column(List<List<String>> rows, int index) {
        return rows.stream().map(row -> String.valueOf(row.get(index))).toList();
    }
}

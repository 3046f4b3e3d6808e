package io.fleetlake.simulator.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.RoutePoint;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.model.FleetModel;
import io.fleetlake.simulator.model.Route;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RouteDirectoryTest {
    private static final Instant NOW = Instant.parse("2026-03-01T09:30:00Z");

    private final MovableClock clock = new MovableClock(NOW);
    private final RouteDirectory directory = RouteDirectory.forFleet(PlanningApiConfig.defaults(), clock);

    @Test
    void servesTheRoutesTheSimulatorDrives() {
        // The simulator's fleet: firmware 2 devices, detours, glitches and garage outages included.
        FleetSimulatorConfig simulator = FleetSimulatorConfig.defaults();
        FleetModel driven = new FleetModel(
                simulator.seed(),
                simulator.vehicles(),
                simulator.jsonShare(),
                simulator.patterns(),
                FleetModel.startOfDay(NOW));
        Set<String> routeIds = new HashSet<>();
        for (int step = 0; step < 12; step++) {
            List<PlannedRoute> served = directory.currentRoutes();
            assertThat(served).hasSize(340);
            for (Vehicle vehicle : driven.vehicles()) {
                assertThat(served.get(vehicle.index()))
                        .isEqualTo(RouteDirectory.plannedRoute(driven.route(vehicle, clock.instant())));
                routeIds.add(served.get(vehicle.index()).routeId());
            }
            clock.advance(Duration.ofMinutes(20));
        }
        // Routes change as trips end: 340 vehicles over four hours drive far more than 340 trips.
        assertThat(routeIds).hasSizeGreaterThan(600);
    }

    @Test
    void aRouteHasStableIdsItsStopsAfterTheDepartureAndItsPlannedPath() {
        FleetModel model =
                new FleetModel(42, 340, 0.1, FleetSimulatorConfig.defaults().patterns(), FleetModel.startOfDay(NOW));
        Vehicle vehicle = model.vehicle("VH-0007").orElseThrow();
        Route route = model.route(vehicle, NOW);

        PlannedRoute planned = directory.currentRoute("VH-0007").orElseThrow();

        assertThat(planned.routeId()).isEqualTo(route.routeId()).startsWith("VH-0007-2026030");
        assertThat(planned.vehicleId()).isEqualTo("VH-0007");
        assertThat(planned.updatedAt()).isEqualTo(route.departure());
        assertThat(planned.stops()).hasSize(route.stops().size() - 1);
        for (int index = 1; index < route.stops().size(); index++) {
            PlannedStop stop = planned.stops().get(index - 1);
            assertThat(stop.stopId()).isEqualTo(route.routeId() + "-S" + index);
            assertThat(stop.name()).isEqualTo(route.stops().get(index).name());
            assertThat(stop.latitude())
                    .isCloseTo(route.stops().get(index).location().latitude(), within(1e-6));
        }
        assertThat(planned.path()).hasSize(route.path().size());
        RoutePoint first = planned.path().get(0);
        assertThat(first.latitude())
                .isEqualTo(Math.round(route.origin().location().latitude() * 1e6) / 1e6);
        RoutePoint last = planned.path().get(planned.path().size() - 1);
        PlannedStop destination = planned.stops().get(planned.stops().size() - 1);
        assertThat(last).isEqualTo(new RoutePoint(destination.latitude(), destination.longitude()));
        // Asked again later during the same trip, the route is the same.
        clock.advance(Duration.ofSeconds(30));
        assertThat(directory.currentRoute("VH-0007")).contains(planned);
    }

    @Test
    void anAssignedRouteReplacesTheSimulatedOneAndOtherVehiclesMayHaveRoutesToo() {
        PlannedRoute replacement = route("VH-0003", "OPS-1");
        PlannedRoute testVehicle = route("TEST-B", "OPS-2");
        PlannedRoute otherTestVehicle = route("TEST-A", "OPS-3");

        directory.assign(replacement);
        directory.assign(testVehicle);
        directory.assign(otherTestVehicle);

        assertThat(directory.currentRoute("VH-0003")).contains(replacement);
        assertThat(directory.currentRoute("TEST-B")).contains(testVehicle);
        List<PlannedRoute> routes = directory.currentRoutes();
        assertThat(routes).hasSize(342);
        assertThat(routes.get(2)).isEqualTo(replacement);
        assertThat(routes.subList(340, 342)).containsExactly(otherTestVehicle, testVehicle);
        assertThat(directory.currentRoute("VH-0341")).isEmpty();
        assertThat(directory.fleetSize()).isEqualTo(340);
    }

    static PlannedRoute route(String vehicleId, String routeId) {
        return new PlannedRoute(
                routeId,
                vehicleId,
                Instant.parse("2026-03-01T06:00:00Z"),
                List.of(new PlannedStop(routeId + "-S1", "Mercado Central, Valencia", 39.4736, -0.379)),
                List.of(new RoutePoint(39.47, -0.38), new RoutePoint(39.4736, -0.379)));
    }
}

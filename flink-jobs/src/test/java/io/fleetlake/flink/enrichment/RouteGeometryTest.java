package io.fleetlake.flink.enrichment;

import static io.fleetlake.flink.enrichment.TestRoutes.CORNER;
import static io.fleetlake.flink.enrichment.TestRoutes.END;
import static io.fleetlake.flink.enrichment.TestRoutes.START;
import static io.fleetlake.flink.enrichment.TestRoutes.metres;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.fleetlake.flink.enrichment.RouteGeometry.Projection;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.RoutePoint;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteGeometryTest {
    private static final double FIRST_LEG_M =
            metres(START.latitude(), START.longitude(), CORNER.latitude(), CORNER.longitude());
    private static final double SECOND_LEG_M =
            metres(CORNER.latitude(), CORNER.longitude(), END.latitude(), END.longitude());
    private static final RouteGeometry ROUTE = RouteGeometry.of(TestRoutes.route());

    @Test
    void pathLengthIsTheSumOfGreatCircleSegments() {
        assertThat(FIRST_LEG_M).isCloseTo(1112, offset(1.0));
        assertThat(SECOND_LEG_M).isCloseTo(847, offset(1.0));
        assertThat(ROUTE.vertexAlongPathM()).containsExactly(0, FIRST_LEG_M, FIRST_LEG_M + SECOND_LEG_M);
        assertThat(length(ROUTE)).isEqualTo(FIRST_LEG_M + SECOND_LEG_M);
    }

    @Test
    void pointOnThePathIsOnItAtItsDistanceFromTheStart() {
        Projection projection = ROUTE.project(40.4025, -3.70);

        assertThat(projection.distanceFromPathM()).isCloseTo(0, offset(0.01));
        assertThat(projection.alongPathM()).isCloseTo(TestRoutes.firstLegMetres(40.4025), offset(0.01));
        assertThat(projection.segment()).isZero();
    }

    @Test
    void pointBesideThePathIsMeasuredAtRightAngles() {
        double latitude = 40.4025;
        Projection projection = ROUTE.project(latitude, -3.70 + TestRoutes.eastDegrees(100, latitude));

        assertThat(projection.distanceFromPathM()).isCloseTo(100, offset(0.05));
        assertThat(projection.alongPathM()).isCloseTo(TestRoutes.firstLegMetres(latitude), offset(0.05));
    }

    @Test
    void pointBeyondTheEndIsMatchedToTheEnd() {
        Projection projection = ROUTE.project(40.41, -3.68);

        assertThat(projection.distanceFromPathM())
                .isCloseTo(metres(40.41, -3.68, END.latitude(), END.longitude()), offset(0.5));
        assertThat(projection.alongPathM()).isEqualTo(length(ROUTE));
        assertThat(projection.segment()).isEqualTo(1);
    }

    @Test
    void stopsArePlacedAlongThePath() {
        assertThat(ROUTE.stopSegment()).containsExactly(0, 1, 1);
        assertThat(ROUTE.stopAlongPathM()[0]).isCloseTo(FIRST_LEG_M / 2, offset(0.5));
        assertThat(ROUTE.stopAlongPathM()[1]).isCloseTo(FIRST_LEG_M + SECOND_LEG_M / 2, offset(0.5));
        assertThat(ROUTE.stopAlongPathM()[2]).isCloseTo(length(ROUTE), offset(0.01));
    }

    @Test
    void outAndBackRouteServesEachStopOnItsOwnLeg() {
        // Depot at START, out to CORNER and back the same street; the last stop is the depot.
        PlannedStop far = new PlannedStop("S-FAR", "Far end", CORNER.latitude(), CORNER.longitude());
        PlannedStop home = new PlannedStop("S-HOME", "Depot", START.latitude(), START.longitude());
        PlannedRoute outAndBack = new PlannedRoute(
                "R-OUT-BACK", "VH-0001", TestRoutes.UPDATED_AT, List.of(far, home), List.of(START, CORNER, START));

        RouteGeometry geometry = RouteGeometry.of(outAndBack);

        assertThat(geometry.stopAlongPathM()[0]).isCloseTo(FIRST_LEG_M, offset(0.01));
        assertThat(geometry.stopAlongPathM()[1]).isCloseTo(2 * FIRST_LEG_M, offset(0.01));
        assertThat(geometry.stopSegment()).containsExactly(0, 1);
        // A vehicle at a quarter of the street: on the way out before the far stop, on the way back after it.
        double quarter = START.latitude() + 0.0025;
        assertThat(geometry.project(quarter, START.longitude()).alongPathM()).isCloseTo(FIRST_LEG_M / 4, offset(0.05));
        assertThat(geometry.projectAfterStop(quarter, START.longitude(), 0).alongPathM())
                .isCloseTo(FIRST_LEG_M * 7 / 4, offset(0.05));
    }

    @Test
    void repeatedVertexIsHarmless() {
        PlannedRoute withRepeatedVertex =
                new PlannedRoute("R-2", "VH-0001", TestRoutes.UPDATED_AT, List.of(), List.of(START, START, CORNER));

        RouteGeometry geometry = RouteGeometry.of(withRepeatedVertex);
        Projection projection = geometry.project(40.405, -3.70);

        assertThat(length(geometry)).isEqualTo(FIRST_LEG_M);
        assertThat(projection.distanceFromPathM()).isCloseTo(0, offset(0.01));
        assertThat(projection.alongPathM()).isCloseTo(FIRST_LEG_M / 2, offset(0.5));
    }

    @Test
    void pathAcrossTheAntimeridianIsShort() {
        PlannedRoute acrossTheDateLine = new PlannedRoute(
                "R-3",
                "VH-0001",
                TestRoutes.UPDATED_AT,
                List.of(),
                List.of(new RoutePoint(0, 179.999), new RoutePoint(0, -179.999)));

        RouteGeometry geometry = RouteGeometry.of(acrossTheDateLine);
        Projection projection = geometry.project(0.001, 180);

        assertThat(length(geometry)).isCloseTo(222.6, offset(0.5));
        assertThat(projection.distanceFromPathM()).isCloseTo(111.2, offset(0.5));
        assertThat(projection.alongPathM()).isCloseTo(111.3, offset(0.5));
    }

    private static double length(RouteGeometry geometry) {
        return geometry.vertexAlongPathM()[geometry.vertexAlongPathM().length - 1];
    }
}

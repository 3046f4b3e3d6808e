package io.fleetlake.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.prep.PreparedGeometry;
import org.locationtech.jts.geom.prep.PreparedGeometryFactory;
import org.locationtech.jts.io.WKTReader;

/** The grid of the locator gives JTS's own answer for every point, inside, outside and on the edges. */
class RegionLocatorTest {
    private static final GeometryFactory FACTORY = new GeometryFactory();

    @Test
    void agreesWithJtsEverywhereIncludingEdgesAndHoles() throws Exception {
        // A wide triangle with a hole, and an island: edges cross many grid cells at odd angles.
        Geometry area = new WKTReader(FACTORY)
                .read("MULTIPOLYGON (((-10 35, 5 36, -3 44, -10 35), (-5 38, -2 38, -3 40, -5 38)),"
                        + " ((-16 28, -15 28, -15.5 28.5, -16 28)))");
        PreparedGeometry jts = PreparedGeometryFactory.prepare(area);
        RegionLocator locator = new RegionLocator(area);
        SplittableRandom random = new SplittableRandom(7);

        for (int i = 0; i < 200_000; i++) {
            double x = random.nextDouble(-17, 6);
            double y = random.nextDouble(27, 45);
            assertThat(locator.covers(x, y))
                    .as("(%s, %s)", x, y)
                    .isEqualTo(jts.intersects(FACTORY.createPoint(new Coordinate(x, y))));
        }
        for (Coordinate vertex : area.getCoordinates()) {
            assertThat(locator.covers(vertex.x, vertex.y))
                    .as("vertex %s is on the edge", vertex)
                    .isTrue();
        }
        assertThat(locator.covers(-3, 39)).as("in the hole").isFalse();
        assertThat(locator.covers(-170, 80)).as("outside the envelope").isFalse();
    }
}

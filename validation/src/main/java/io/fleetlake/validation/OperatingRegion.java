package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.model.geo.GreatCircle;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.util.AffineTransformation;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.operation.union.UnaryUnionOp;

/**
 * The area where the fleet operates: polygons widened by a buffer, because coarse coastlines and borders would
 * otherwise reject coastal roads, ports and border crossings. Instances are immutable and safe to share between
 * threads; they are serialisable so that Flink can ship them to task managers.
 */
public final class OperatingRegion implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final String BUNDLED_RESOURCE = "iberia-operating-region.geojson";
    private static final String BUNDLED_NAME = "Iberia operating region (bundled)";
    // Keeps the longitude scale finite for a polygon that touches a pole.
    private static final double MAXIMUM_REFERENCE_LATITUDE = 89;

    private final String name;
    private final double bufferKm;
    private final Geometry area;
    // The locator is not serialisable: it is rebuilt on first use, also after deserialisation.
    private transient volatile RegionLocator locator;

    private OperatingRegion(String name, double bufferKm, Geometry area) {
        this.name = requireNonNull(name, "name is null");
        this.bufferKm = bufferKm;
        this.area = requireNonNull(area, "area is null");
    }

    /**
     * Mainland Spain and Portugal, the Balearic and Canary Islands, Ceuta, Melilla, Madeira and the Azores (Natural
     * Earth 1:10m; see {@code validation/tools/region}).
     */
    public static OperatingRegion bundled(double bufferKm) {
        try (InputStream in = OperatingRegion.class.getResourceAsStream(BUNDLED_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + BUNDLED_RESOURCE + " is missing from the validation jar");
            }
            return create(BUNDLED_NAME, in, "bundled resource " + BUNDLED_RESOURCE, bufferKm);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read bundled resource " + BUNDLED_RESOURCE, e);
        }
    }

    /**
     * The polygons of a GeoJSON file (FeatureCollection, Feature, MultiPolygon or Polygon; longitude first).
     *
     * @throws ConfigException when the file is missing, unreadable or holds anything but polygons
     */
    public static OperatingRegion fromGeoJson(Path file, double bufferKm) {
        requireNonNull(file, "file is null");
        Path absolute = file.toAbsolutePath();
        if (!Files.isRegularFile(absolute)) {
            throw new ConfigException("Operating region file " + absolute + " does not exist or is not a file");
        }
        try (InputStream in = Files.newInputStream(absolute)) {
            return create("operating region " + absolute, in, "file " + absolute, bufferKm);
        } catch (IOException e) {
            throw new ConfigException("Cannot read operating region file " + absolute + ": " + e.getMessage(), e);
        }
    }

    private static OperatingRegion create(String name, InputStream in, String source, double bufferKm) {
        if (!(bufferKm >= 0) || Double.isInfinite(bufferKm)) {
            throw new IllegalArgumentException("bufferKm is " + bufferKm + "; it must be a finite distance >= 0");
        }
        GeometryFactory factory = new GeometryFactory();
        List<Geometry> parts = new ArrayList<>();
        for (Polygon polygon : GeoJsonPolygons.read(in, source, factory)) {
            // Natural Earth holds self-touching rings and islets collapsed to a line; a buffer of an invalid
            // polygon can silently lose area, so repair first. A collapsed polygon repairs to nothing.
            Geometry valid = GeometryFixer.fix(polygon);
            if (!valid.isEmpty()) {
                parts.add(buffer(valid, bufferKm));
            }
        }
        Geometry area = UnaryUnionOp.union(parts, factory);
        if (area.isEmpty()) {
            throw new ConfigException(source + " holds no polygon with an area");
        }
        return new OperatingRegion(name, bufferKm, area);
    }

    /**
     * Buffers one polygon by kilometres. In plain degrees the buffer would shrink east-west away from the equator (a
     * degree of longitude is cos(latitude) times a degree of latitude), so each polygon is buffered in its own
     * equirectangular plane, x = longitude * cos(reference), y = latitude, where one unit is one degree of latitude
     * ({@link GreatCircle#KILOMETRES_PER_DEGREE}). The reference is the polygon's latitude furthest from the equator:
     * there the buffer is exact, nearer the equator it is wider by cos(latitude) / cos(reference). It is therefore
     * never narrower than configured; for mainland Iberia (36 to 43.8 degrees north) it is at most 12 % wider
     * east-west, and north-south it is exact everywhere.
     */
    private static Geometry buffer(Geometry polygon, double bufferKm) {
        if (bufferKm == 0) {
            return polygon;
        }
        Envelope envelope = polygon.getEnvelopeInternal();
        double reference = Math.min(
                Math.max(Math.abs(envelope.getMinY()), Math.abs(envelope.getMaxY())), MAXIMUM_REFERENCE_LATITUDE);
        double longitudeScale = Math.cos(Math.toRadians(reference));
        Geometry plane = AffineTransformation.scaleInstance(longitudeScale, 1).transform(polygon);
        Geometry buffered = plane.buffer(bufferKm / GreatCircle.KILOMETRES_PER_DEGREE);
        return AffineTransformation.scaleInstance(1 / longitudeScale, 1).transform(buffered);
    }

    /** Whether the point lies in the region or on its edge; false for coordinates that are not finite. */
    public boolean contains(double latitude, double longitude) {
        if (!Double.isFinite(latitude) || !Double.isFinite(longitude)) {
            return false;
        }
        return locator().covers(longitude, latitude);
    }

    /** For example {@code Iberia operating region (bundled), 10 km buffer}. */
    public String description() {
        return name + ", " + DetailText.number(bufferKm) + " km buffer";
    }

    public double bufferKm() {
        return bufferKm;
    }

    private RegionLocator locator() {
        RegionLocator current = locator;
        if (current == null) {
            // Two threads may both build it; each result is equivalent, so the race is harmless.
            current = new RegionLocator(area);
            locator = current;
        }
        return current;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OperatingRegion region
                && name.equals(region.name)
                && Double.compare(bufferKm, region.bufferKm) == 0
                && area.equalsExact(region.area);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, bufferKm);
    }

    @Override
    public String toString() {
        return description();
    }
}

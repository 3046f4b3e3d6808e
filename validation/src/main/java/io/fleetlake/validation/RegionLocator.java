package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import org.locationtech.jts.algorithm.locate.IndexedPointInAreaLocator;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.prep.PreparedGeometry;
import org.locationtech.jts.geom.prep.PreparedGeometryFactory;

/**
 * Answers "is this point in the area or on its edge" for every record, cheaply. A grid over the area's envelope
 * remembers, per cell, whether the cell lies wholly inside the area, wholly outside it, or on its boundary; only points
 * in boundary cells are located in the polygons (JTS {@link IndexedPointInAreaLocator}, an interval index over the
 * edges). Cells are classified on first use, so building costs nothing and only the cells the fleet drives through are
 * ever classified. Over the bundled region most fixes are in interior cells: one array read.
 *
 * <p>Thread-safe: a cell is written with its final class by whichever thread classifies it first; another thread may
 * classify it again and writes the same value.
 */
final class RegionLocator {
    /** Cell edge in degrees where the envelope allows it: about 5 km north-south. */
    private static final double PREFERRED_CELL_DEGREES = 0.05;
    /** At most this many cells (one byte each), for a region as large as the whole world. */
    private static final int MAX_CELLS = 1 << 20;

    private static final byte UNKNOWN = 0;
    private static final byte INSIDE = 1;
    private static final byte OUTSIDE = 2;
    private static final byte BOUNDARY = 3;

    private final Envelope envelope;
    private final PreparedGeometry prepared;
    private final IndexedPointInAreaLocator points;
    private final double cellDegrees;
    private final int columns;
    private final int rows;
    private final byte[] cells;

    RegionLocator(Geometry area) {
        requireNonNull(area, "area is null");
        this.envelope = area.getEnvelopeInternal();
        this.prepared = PreparedGeometryFactory.prepare(area);
        this.points = new IndexedPointInAreaLocator(area);
        double size = Math.max(
                PREFERRED_CELL_DEGREES, Math.sqrt(envelope.getWidth() * envelope.getHeight() / MAX_CELLS) * 1.01);
        this.cellDegrees = size;
        this.columns = Math.max(1, (int) Math.ceil(envelope.getWidth() / size));
        this.rows = Math.max(1, (int) Math.ceil(envelope.getHeight() / size));
        this.cells = new byte[columns * rows];
    }

    /** Whether the point (x = longitude, y = latitude) is in the area or on its edge. */
    boolean covers(double x, double y) {
        if (!envelope.covers(x, y)) {
            return false;
        }
        int column = Math.min(columns - 1, (int) ((x - envelope.getMinX()) / cellDegrees));
        int row = Math.min(rows - 1, (int) ((y - envelope.getMinY()) / cellDegrees));
        int index = row * columns + column;
        byte cell = cells[index];
        if (cell == UNKNOWN) {
            cell = classify(column, row);
            cells[index] = cell;
        }
        if (cell == BOUNDARY) {
            return points.locate(new Coordinate(x, y)) != Location.EXTERIOR;
        }
        return cell == INSIDE;
    }

    private byte classify(int column, int row) {
        double minX = envelope.getMinX() + column * cellDegrees;
        double minY = envelope.getMinY() + row * cellDegrees;
        Geometry cell = prepared.getGeometry()
                .getFactory()
                .toGeometry(new Envelope(minX, minX + cellDegrees, minY, minY + cellDegrees));
        if (prepared.covers(cell)) {
            return INSIDE;
        }
        if (!prepared.intersects(cell)) {
            return OUTSIDE;
        }
        return BOUNDARY;
    }
}

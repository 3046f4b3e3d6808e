package io.fleetlake.validation;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;

/**
 * Reads the polygons of a GeoJSON (RFC 7946) document: a FeatureCollection, a Feature, a MultiPolygon or a Polygon.
 * Anything else, and any malformed ring, is refused with the source and the JSON location of the problem, because a
 * silently skipped polygon would reject every position inside it.
 */
final class GeoJsonPolygons {
    private final String source;
    private final GeometryFactory factory;

    private GeoJsonPolygons(String source, GeometryFactory factory) {
        this.source = source;
        this.factory = factory;
    }

    /**
     * @param source names the document in error messages, for example the file path
     * @return at least one polygon, longitude as x and latitude as y
     */
    static List<Polygon> read(InputStream in, String source, GeometryFactory factory) {
        JsonNode document;
        try {
            document = new ObjectMapper().readTree(in);
        } catch (JacksonException e) {
            throw new ConfigException(source + " is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ConfigException("Cannot read " + source + ": " + e.getMessage(), e);
        }
        if (document == null || document.isMissingNode()) {
            throw new ConfigException(
                    source + " is empty: expected a GeoJSON FeatureCollection, Feature, MultiPolygon" + " or Polygon");
        }
        List<Polygon> polygons = new ArrayList<>();
        new GeoJsonPolygons(source, factory).readObject(document, "$", polygons);
        if (polygons.isEmpty()) {
            throw new ConfigException(source + " holds no polygon: the operating region needs at least one");
        }
        return List.copyOf(polygons);
    }

    private void readObject(JsonNode node, String location, List<Polygon> polygons) {
        String type = node.path("type").asText("");
        switch (type) {
            case "FeatureCollection" -> {
                JsonNode features = array(node.path("features"), location + ".features");
                for (int index = 0; index < features.size(); index++) {
                    readFeature(features.get(index), location + ".features[" + index + "]", polygons);
                }
            }
            case "Feature" -> readFeature(node, location, polygons);
            case "Polygon", "MultiPolygon" -> readGeometry(node, location, polygons);
            default ->
                throw unusable(
                        location,
                        "has type '" + type + "'; expected FeatureCollection, Feature, MultiPolygon or Polygon");
        }
    }

    private void readFeature(JsonNode feature, String location, List<Polygon> polygons) {
        if (!"Feature".equals(feature.path("type").asText(""))) {
            throw unusable(location, "is not a Feature");
        }
        readGeometry(feature.path("geometry"), location + ".geometry", polygons);
    }

    private void readGeometry(JsonNode geometry, String location, List<Polygon> polygons) {
        String type = geometry.path("type").asText("");
        JsonNode coordinates = array(geometry.path("coordinates"), location + ".coordinates");
        if (type.equals("Polygon")) {
            polygons.add(polygon(coordinates, location + ".coordinates"));
        } else if (type.equals("MultiPolygon")) {
            for (int index = 0; index < coordinates.size(); index++) {
                polygons.add(polygon(
                        array(coordinates.get(index), location + ".coordinates[" + index + "]"),
                        location + ".coordinates[" + index + "]"));
            }
        } else {
            throw unusable(
                    location, "is a '" + type + "' geometry; the operating region needs Polygon or MultiPolygon");
        }
    }

    private Polygon polygon(JsonNode rings, String location) {
        if (rings.isEmpty()) {
            throw unusable(location, "is a polygon without rings");
        }
        LinearRing shell = ring(rings.get(0), location + "[0]");
        LinearRing[] holes = new LinearRing[rings.size() - 1];
        for (int index = 1; index < rings.size(); index++) {
            holes[index - 1] = ring(rings.get(index), location + "[" + index + "]");
        }
        return factory.createPolygon(shell, holes);
    }

    private LinearRing ring(JsonNode node, String location) {
        JsonNode positions = array(node, location);
        if (positions.size() < 4) {
            throw unusable(location, "is a ring of " + positions.size() + " positions; a ring needs at least 4");
        }
        Coordinate[] coordinates = new Coordinate[positions.size()];
        for (int index = 0; index < positions.size(); index++) {
            coordinates[index] = coordinate(positions.get(index), location + "[" + index + "]");
        }
        if (!coordinates[0].equals2D(coordinates[coordinates.length - 1])) {
            throw unusable(location, "is not closed: its first and last positions differ");
        }
        return factory.createLinearRing(coordinates);
    }

    private Coordinate coordinate(JsonNode position, String location) {
        if (!position.isArray()
                || position.size() < 2
                || !position.get(0).isNumber()
                || !position.get(1).isNumber()) {
            throw unusable(location, "is not a position [longitude, latitude]");
        }
        double longitude = position.get(0).doubleValue();
        double latitude = position.get(1).doubleValue();
        if (!(Math.abs(longitude) <= 180) || !(Math.abs(latitude) <= 90)) {
            throw unusable(
                    location,
                    "is [" + DetailText.number(longitude) + ", " + DetailText.number(latitude)
                            + "], outside longitude -180..180 / latitude -90..90; GeoJSON puts longitude first");
        }
        return new Coordinate(longitude, latitude);
    }

    private JsonNode array(JsonNode node, String location) {
        if (!node.isArray()) {
            throw unusable(location, node.isMissingNode() ? "is missing" : "is not an array");
        }
        return node;
    }

    private ConfigException unusable(String location, String problem) {
        return new ConfigException("GeoJSON " + source + ": " + location + " " + problem);
    }
}

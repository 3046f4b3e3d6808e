package io.fleetlake.model.planning;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON of planned routes. A route is
 *
 * <pre>{@code
 * {"route_id": "VH-0001-20261129-1", "vehicle_id": "VH-0001", "updated_at": "2026-11-29T06:00:00Z",
 *  "stops": [{"stop_id": "S1", "name": "Mercado Central", "latitude": 39.47, "longitude": -0.38}],
 *  "path": {"type": "LineString", "coordinates": [[-0.38, 39.47], [-0.37, 39.48]]}}
 * }</pre>
 *
 * <p>{@code path} is a GeoJSON LineString, so its coordinates are [longitude, latitude]. Parsing rejects anything
 * incomplete with an {@link IllegalArgumentException} that names the field.
 */
public final class RouteJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RouteJson() {}

    public static String write(PlannedRoute route) {
        return toString(node(route));
    }

    public static String writeAll(List<PlannedRoute> routes) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode array = root.putArray("routes");
        routes.forEach(route -> array.add(node(route)));
        return toString(root);
    }

    public static PlannedRoute read(String json) {
        return route(tree(json));
    }

    public static List<PlannedRoute> readAll(String json) {
        JsonNode routes = tree(json).get("routes");
        if (routes == null || !routes.isArray()) {
            throw new IllegalArgumentException("Expected {\"routes\": [...]}");
        }
        List<PlannedRoute> result = new ArrayList<>();
        routes.forEach(route -> result.add(route(route)));
        return result;
    }

    private static ObjectNode node(PlannedRoute route) {
        ObjectNode node = JSON.createObjectNode();
        node.put("route_id", route.routeId());
        node.put("vehicle_id", route.vehicleId());
        node.put("updated_at", route.updatedAt().toString());
        ArrayNode stops = node.putArray("stops");
        for (PlannedStop stop : route.stops()) {
            stops.addObject()
                    .put("stop_id", stop.stopId())
                    .put("name", stop.name())
                    .put("latitude", stop.latitude())
                    .put("longitude", stop.longitude());
        }
        ObjectNode path = node.putObject("path");
        path.put("type", "LineString");
        ArrayNode coordinates = path.putArray("coordinates");
        for (RoutePoint point : route.path()) {
            coordinates.addArray().add(point.longitude()).add(point.latitude());
        }
        return node;
    }

    private static PlannedRoute route(JsonNode node) {
        String routeId = text(node, "route_id");
        List<PlannedStop> stops = new ArrayList<>();
        for (JsonNode stop : array(node, "stops")) {
            stops.add(new PlannedStop(
                    text(stop, "stop_id"), text(stop, "name"), number(stop, "latitude"), number(stop, "longitude")));
        }
        JsonNode path = node.get("path");
        if (path == null || !"LineString".equals(path.path("type").asText())) {
            throw new IllegalArgumentException("Route " + routeId + ": path must be a GeoJSON LineString");
        }
        List<RoutePoint> points = new ArrayList<>();
        for (JsonNode coordinate : array(path, "coordinates")) {
            if (!coordinate.isArray()
                    || coordinate.size() < 2
                    || !coordinate.get(0).isNumber()
                    || !coordinate.get(1).isNumber()) {
                throw new IllegalArgumentException(
                        "Route " + routeId + ": path coordinates must be [longitude, latitude] pairs");
            }
            points.add(new RoutePoint(
                    coordinate.get(1).asDouble(), coordinate.get(0).asDouble()));
        }
        Instant updatedAt;
        try {
            updatedAt = Instant.parse(text(node, "updated_at"));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("Route " + routeId + ": updated_at must be an ISO-8601 instant", e);
        }
        return new PlannedRoute(routeId, text(node, "vehicle_id"), updatedAt, stops, points);
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("Invalid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException(field + " must be a non-empty string");
        }
        return value.asText();
    }

    private static double number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException(field + " must be a number");
        }
        return value.asDouble();
    }

    private static JsonNode array(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            throw new IllegalArgumentException(field + " must be an array");
        }
        return value;
    }

    private static String toString(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.fleetlake.model.planning;

import java.io.Serializable;

/** A vertex of a route's path, WGS84 degrees. */
public record RoutePoint(double latitude, double longitude) implements Serializable {}

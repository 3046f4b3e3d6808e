package io.fleetlake.catalog.rest;

/** The HTTP methods the Iceberg REST API uses. */
public enum HttpMethod {
    GET,
    HEAD,
    POST,
    DELETE
}

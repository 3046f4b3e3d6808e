package io.fleetlake.catalog.rest;

/** The path names a resource of the catalog, but not one that accepts the request's HTTP method. */
final class MethodNotAllowedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MethodNotAllowedException(String message) {
        super(message);
    }
}

package io.fleetlake.catalog.rest;

import io.fleetlake.http.ExceptionStatuses;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The catalog's part of the shared {@link ExceptionStatuses}: the REST spec's status of each exception Iceberg's
 * handlers throw, and the Iceberg {@link ErrorResponse} a failure is answered with.
 */
final class IcebergErrors {
    static final ExceptionStatuses STATUSES = ExceptionStatuses.of(Map.ofEntries(
            Map.entry(IllegalArgumentException.class, 400),
            Map.entry(ValidationException.class, 400),
            Map.entry(BadRequestException.class, 400),
            Map.entry(NotAuthorizedException.class, 401),
            Map.entry(ForbiddenException.class, 403),
            Map.entry(NoSuchNamespaceException.class, 404),
            Map.entry(NoSuchTableException.class, 404),
            Map.entry(NoSuchViewException.class, 404),
            Map.entry(NotFoundException.class, 404),
            Map.entry(MethodNotAllowedException.class, 405),
            // The spec's status for an operation the catalog does not support.
            Map.entry(UnsupportedOperationException.class, 406),
            Map.entry(AlreadyExistsException.class, 409),
            Map.entry(CommitFailedException.class, 409),
            Map.entry(NamespaceNotEmptyException.class, 409),
            // The spec's "commit state unknown" status for a server that is not a gateway (those use 502/504);
            // clients must not retry, they check the table instead.
            Map.entry(CommitStateUnknownException.class, 500),
            Map.entry(ServiceUnavailableException.class, 503)));

    private IcebergErrors() {}

    /** The error body: the exception's simple class name as type, which Iceberg clients map back to exceptions. */
    static ErrorResponse errorResponse(Throwable error) {
        String type = error.getClass().getSimpleName();
        return ErrorResponse.builder()
                .responseCode(STATUSES.statusOf(error))
                .withType(type)
                .withMessage(Optional.ofNullable(error.getMessage()).orElse(type))
                .build();
    }
}

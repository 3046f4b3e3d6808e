package io.fleetlake.catalog.rest;

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
 * The one table that turns an exception into an HTTP status and an Iceberg {@link ErrorResponse}. An exception maps
 * through its nearest listed class, so subclasses (such as {@code NoSuchIcebergTableException}) need no entry;
 * anything unlisted is a server error (500).
 */
final class ExceptionStatuses {
    static final int INTERNAL_SERVER_ERROR = 500;

    private static final Map<Class<? extends Throwable>, Integer> STATUSES = Map.ofEntries(
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
            Map.entry(ServiceUnavailableException.class, 503));

    private ExceptionStatuses() {}

    static int statusOf(Throwable error) {
        for (Class<?> type = error.getClass(); type != null; type = type.getSuperclass()) {
            Integer status = STATUSES.get(type);
            if (status != null) {
                return status;
            }
        }
        return INTERNAL_SERVER_ERROR;
    }

    /** The error body: the exception's simple class name as type, which Iceberg clients map back to exceptions. */
    static ErrorResponse errorResponse(Throwable error) {
        String type = error.getClass().getSimpleName();
        return ErrorResponse.builder()
                .responseCode(statusOf(error))
                .withType(type)
                .withMessage(Optional.ofNullable(error.getMessage()).orElse(type))
                .build();
    }
}

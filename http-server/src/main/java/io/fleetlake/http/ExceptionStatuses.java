package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * The one way the servers turn a failure into an HTTP status: an exception that carries its own status ({@link
 * WithStatus}: the dashboard's and the planning API's error codes) answers with it; any other maps through the nearest
 * class of the server's table, so that subclasses (such as Iceberg's {@code NoSuchIcebergTableException}) need no
 * entry; anything else is a server error (500). What the error body looks like stays each server's: the catalog's is
 * Iceberg's REST error JSON, the dashboard's and the planning API's their own.
 */
public final class ExceptionStatuses {
    public static final int INTERNAL_SERVER_ERROR = 500;

    /** Maps only the exceptions that carry their own status; anything else is a server error. */
    public static final ExceptionStatuses OWN = new ExceptionStatuses(Map.of());

    private final Map<Class<? extends Throwable>, Integer> statuses;

    private ExceptionStatuses(Map<Class<? extends Throwable>, Integer> statuses) {
        this.statuses = Map.copyOf(requireNonNull(statuses, "statuses is null"));
    }

    /** @param statuses the status of each listed exception class and of its subclasses */
    public static ExceptionStatuses of(Map<Class<? extends Throwable>, Integer> statuses) {
        return new ExceptionStatuses(statuses);
    }

    public int statusOf(Throwable failure) {
        if (failure instanceof WithStatus own) {
            return own.status();
        }
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            Integer status = statuses.get(type);
            if (status != null) {
                return status;
            }
        }
        return INTERNAL_SERVER_ERROR;
    }

    /** An exception that knows its HTTP status, such as one of a server's own error codes. */
    public interface WithStatus {
        int status();
    }
}

package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What went wrong with a Trino query, read from the {@link SQLException} that trino-jdbc throws: its message, its error
 * code (Trino's numeric error code) and its causes. The patterns are the messages Trino 476 and its Iceberg connector
 * produce; {@code TrinoFailureTest} pins them with messages recorded from a real server.
 *
 * @param kind the classification
 * @param detail the value the message names (a snapshot id, a tag, an instant or a table), or the root cause's message
 * @param trinoMessage the message without trino-jdbc's {@code Query failed (#id): } prefix
 */
record TrinoFailure(Kind kind, String detail, String trinoMessage) {
    /** Trino's {@code StandardErrorCode.SCHEMA_NOT_FOUND}. */
    static final int SCHEMA_NOT_FOUND = 45;
    /** Trino's {@code StandardErrorCode.TABLE_NOT_FOUND}. */
    static final int TABLE_NOT_FOUND = 46;
    /** Trino's {@code StandardErrorCode.SERVER_STARTING_UP}. */
    static final int SERVER_STARTING_UP = 65_548;
    /** The Iceberg connector's {@code IcebergErrorCode.ICEBERG_CATALOG_ERROR} (0x0504_0000 + 13). */
    static final int ICEBERG_CATALOG_ERROR = 84_148_237;

    private static final Pattern QUERY_FAILED_PREFIX = Pattern.compile("^Query failed \\([^)]*\\): ");
    private static final Pattern SNAPSHOT_MISSING = Pattern.compile("Iceberg snapshot ID does not exists: (-?\\d+)");
    private static final Pattern REFERENCE_MISSING = Pattern.compile("Cannot find snapshot with reference name: (.+)$");
    private static final Pattern NO_HISTORY = Pattern.compile("No version history table (\\S+) at or before (\\S+)");
    private static final Pattern TABLE_MISSING = Pattern.compile("Table '([^']+)' does not exist");
    private static final Pattern SCHEMA_MISSING = Pattern.compile("Schema '([^']+)' does not exist");

    TrinoFailure {
        requireNonNull(kind, "kind is null");
        requireNonNull(detail, "detail is null");
        requireNonNull(trinoMessage, "trinoMessage is null");
    }

    enum Kind {
        /** Trino itself cannot be reached. */
        UNREACHABLE,
        /** Trino answers but is still starting. */
        STARTING,
        /** Time travel to a snapshot id the table does not have (any more); detail: the id. */
        SNAPSHOT_MISSING,
        /** Time travel to a tag or branch the table does not have; detail: the name. */
        REFERENCE_MISSING,
        /** Time travel to an instant before the oldest snapshot; detail: the instant as Trino printed it. */
        NO_HISTORY_BEFORE,
        /** The table or its schema does not exist; detail: the name. */
        TABLE_MISSING,
        /** Trino cannot reach (or was refused by) the Iceberg REST catalog; detail: the root cause. */
        CATALOG_UNREACHABLE,
        /** Anything else; detail: Trino's message. */
        OTHER
    }

    static TrinoFailure classify(SQLException exception) {
        requireNonNull(exception, "exception is null");
        String message = Optional.ofNullable(exception.getMessage())
                .orElse(exception.getClass().getName());
        String trinoMessage = QUERY_FAILED_PREFIX.matcher(message).replaceFirst("");
        Optional<Throwable> network = networkCause(exception);
        if (network.isPresent()) {
            return new TrinoFailure(Kind.UNREACHABLE, describe(network.get()), trinoMessage);
        }
        if (exception.getErrorCode() == SERVER_STARTING_UP || trinoMessage.contains("still initializing")) {
            return new TrinoFailure(Kind.STARTING, trinoMessage, trinoMessage);
        }
        Matcher snapshot = SNAPSHOT_MISSING.matcher(trinoMessage);
        if (snapshot.find()) {
            return new TrinoFailure(Kind.SNAPSHOT_MISSING, snapshot.group(1), trinoMessage);
        }
        Matcher reference = REFERENCE_MISSING.matcher(trinoMessage);
        if (reference.find()) {
            return new TrinoFailure(Kind.REFERENCE_MISSING, reference.group(1), trinoMessage);
        }
        Matcher history = NO_HISTORY.matcher(trinoMessage);
        if (history.find()) {
            return new TrinoFailure(Kind.NO_HISTORY_BEFORE, history.group(2), trinoMessage);
        }
        if (exception.getErrorCode() == ICEBERG_CATALOG_ERROR) {
            return new TrinoFailure(Kind.CATALOG_UNREACHABLE, rootMessage(exception), trinoMessage);
        }
        Matcher table = TABLE_MISSING.matcher(trinoMessage);
        if (exception.getErrorCode() == TABLE_NOT_FOUND || table.find()) {
            return new TrinoFailure(Kind.TABLE_MISSING, table.find(0) ? table.group(1) : trinoMessage, trinoMessage);
        }
        Matcher schema = SCHEMA_MISSING.matcher(trinoMessage);
        if (exception.getErrorCode() == SCHEMA_NOT_FOUND || schema.find()) {
            return new TrinoFailure(
                    Kind.TABLE_MISSING, schema.find(0) ? "schema " + schema.group(1) : trinoMessage, trinoMessage);
        }
        return new TrinoFailure(Kind.OTHER, trinoMessage, trinoMessage);
    }

    private static Optional<Throwable> networkCause(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException
                    || cause instanceof UnknownHostException
                    || cause instanceof NoRouteToHostException
                    || cause instanceof SocketTimeoutException) {
                return Optional.of(cause);
            }
        }
        return Optional.empty();
    }

    /** The message of the deepest cause: for catalog failures, what Trino's REST client saw. */
    private static String rootMessage(Throwable exception) {
        Throwable root = exception;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return Optional.ofNullable(root.getMessage()).orElse(root.getClass().getName());
    }

    private static String describe(Throwable cause) {
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}

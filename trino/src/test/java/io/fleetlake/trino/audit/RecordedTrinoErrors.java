package io.fleetlake.trino.audit;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * {@link SQLException}s as trino-jdbc 476 throws them, rebuilt from messages and error codes recorded against a real
 * Trino 476 with the fleet's Iceberg REST catalog (November 2026). trino-jdbc's server-side causes are its internal
 * {@code FailureException}; a {@link RuntimeException} with the same message stands in for them.
 */
final class RecordedTrinoErrors {
    static final int INVALID_ARGUMENTS = 76;
    static final int INVALID_PARAMETER_USAGE = 80;
    static final int NOT_SUPPORTED = 13;

    private RecordedTrinoErrors() {}

    /** {@code FOR VERSION AS OF BIGINT '123'}: the snapshot is not (or no longer) in the table's metadata. */
    static SQLException expiredSnapshot() {
        return failed("20261129_203122_00043_3n83j", "Iceberg snapshot ID does not exists: 123", INVALID_ARGUMENTS);
    }

    /** {@code FOR VERSION AS OF 'audit-x'}: no such tag or branch. */
    static SQLException unknownTag() {
        return failed(
                "20261129_203110_00035_3n83j", "Cannot find snapshot with reference name: audit-x", INVALID_ARGUMENTS);
    }

    /** {@code FOR TIMESTAMP AS OF} an instant before the table's (kept) history. */
    static SQLException beforeHistory() {
        return failed(
                "20261129_203000_00017_3n83j",
                "No version history table fleet.positions at or before 2026-11-28T14:05:00Z",
                INVALID_ARGUMENTS);
    }

    static SQLException tableMissing() {
        return failed("20261129_203000_00013_3n83j", "line 3:3: Table 'iceberg.fleet.nope' does not exist", 46);
    }

    static SQLException schemaMissing() {
        return failed("20261129_203000_00015_3n83j", "line 3:3: Schema 'nope' does not exist", 45);
    }

    /** Trino is up, the REST catalog is down. */
    static SQLException catalogDown() {
        RuntimeException root = new RuntimeException("Connect to http://127.0.0.1:28981 failed: Connection refused");
        RuntimeException processing = new RuntimeException("Error occurred while processing GET request", root);
        RuntimeException loading = new RuntimeException("Failed to load table 'positions'", processing);
        RuntimeException top = new RuntimeException("Failed to load table: positions in fleet namespace", loading);
        return new SQLException(
                "Query failed (#20261129_203302_00065_3n83j): Failed to load table: positions in fleet namespace",
                null,
                84_148_237,
                top);
    }

    /** Nothing listens on Trino's port. */
    static SQLException connectionRefused() {
        ConnectException refused = new ConnectException("Connection refused");
        ConnectException failedToConnect = new ConnectException("Failed to connect to /127.0.0.1:28999");
        failedToConnect.initCause(refused);
        return new SQLException(
                "Error executing query: java.net.ConnectException: Failed to connect to /127.0.0.1:28999",
                null,
                0,
                new UncheckedIOException(failedToConnect));
    }

    static SQLException unknownHost() {
        UnknownHostException unknown = new UnknownHostException("no-such-host.invalid: Name or service not known");
        return new SQLException(
                "Error executing query: java.net.UnknownHostException: no-such-host.invalid: Name or service not known",
                null,
                0,
                new UncheckedIOException(unknown));
    }

    /** A query sent while the server starts. */
    static SQLException starting() {
        return failed("20261129_204820_00000_ve87i", "Trino server is still initializing", 65_548);
    }

    /** A {@code ?} inside FOR VERSION AS OF: Trino does not count it as a parameter. */
    static SQLException parameterInTimeTravel() {
        return failed(
                "20261129_202959_00007_3n83j",
                "line 1:1: Incorrect number of parameters: expected 0 but found 1",
                INVALID_PARAMETER_USAGE);
    }

    /** FOR VERSION AS OF 123: an integer literal is not a table version. */
    static SQLException integerVersion() {
        return failed("20261129_203109_00033_3n83j", "Unsupported type for table version: integer", NOT_SUPPORTED);
    }

    private static SQLException failed(String queryId, String message, int errorCode) {
        return new SQLException(
                "Query failed (#" + queryId + "): " + message, null, errorCode, new RuntimeException(message));
    }
}

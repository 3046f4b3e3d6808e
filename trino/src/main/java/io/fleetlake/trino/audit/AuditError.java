package io.fleetlake.trino.audit;

/**
 * Why an audit failed, with a stable code. The category decides the exit status of the {@code fleet audit} commands:
 * {@link Category#USER} errors (the question cannot be answered as asked) exit with 2, the others with 1.
 */
public enum AuditError {
    /** An argument is invalid: a malformed time, a range that ends before it starts, a day that is not over. */
    INVALID_ARGUMENT(Category.USER),
    /** The vehicle has no rows at all in {@code fleet.positions}. */
    UNKNOWN_VEHICLE(Category.USER),
    /** A time-travel snapshot id is not (or no longer) in the table's metadata. */
    SNAPSHOT_NOT_FOUND(Category.USER),
    /** A time-travel tag does not exist. */
    TAG_NOT_FOUND(Category.USER),
    /** A time-travel instant lies before the oldest snapshot of the table. */
    BEFORE_FIRST_SNAPSHOT(Category.USER),
    /** No snapshot was committed on or before the end of the day to tag. */
    NO_SNAPSHOT_FOR_DAY(Category.USER),
    /** The daily tag exists and points to another snapshot; {@code --force} moves it. */
    TAG_CONFLICT(Category.USER),
    /** Trino cannot be reached (connection refused, unknown host, timeout). */
    TRINO_UNREACHABLE(Category.EXTERNAL),
    /** Trino is up but still starting. */
    TRINO_STARTING(Category.EXTERNAL),
    /** The Iceberg REST catalog cannot be reached, by Trino or by the tag commands. */
    CATALOG_UNREACHABLE(Category.EXTERNAL),
    /** The Iceberg REST catalog answered with an error. */
    CATALOG_FAILED(Category.EXTERNAL),
    /** A fleet table (or the fleet namespace) does not exist: the catalog has not been bootstrapped. */
    TABLE_NOT_FOUND(Category.EXTERNAL),
    /** Trino failed the query for another reason; the message carries Trino's. */
    QUERY_FAILED(Category.EXTERNAL),
    /** A bug in the audit code or an answer it does not understand. */
    INTERNAL(Category.INTERNAL);

    private final Category category;

    AuditError(Category category) {
        this.category = category;
    }

    public Category category() {
        return category;
    }

    /** The exit status of a command that failed with this error: 2 for user errors, 1 otherwise. */
    public int exitCode() {
        return category == Category.USER ? 2 : 1;
    }

    /** Who has to act. */
    public enum Category {
        /** The person asking: change the arguments. */
        USER,
        /** The running stack: start it, or look at the failing component. */
        EXTERNAL,
        /** The audit code itself. */
        INTERNAL
    }
}

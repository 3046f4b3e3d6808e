package io.fleetlake.model.trino;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The Trino users of the fleet lakehouse. Trino's password file holds exactly these; its access rules give {@link
 * #ADMIN} every privilege and the others read-only access (time travel and metadata tables included).
 */
public enum TrinoUser {
    /** Writes, drops and maintenance through Trino: the operator and the stack's own writes (the backfill). */
    ADMIN("admin"),
    /** A person querying the history: {@code fleet sql}, {@code fleet audit}, the notebooks. */
    ANALYST("analyst"),
    /** The dashboard's replay and snapshot list. */
    DASHBOARD("fleet-dashboard"),
    /** The stack's probes and reports: readiness, {@code fleet verify}, the demo report, the bench's observers. */
    MONITOR("fleet-monitor");

    private final String userName;

    TrinoUser(String userName) {
        this.userName = requireNonNull(userName, "userName is null");
    }

    /** The user name Trino knows, such as {@code fleet-monitor}. */
    public String userName() {
        return userName;
    }

    /** The users that may only read. */
    public static List<TrinoUser> readOnly() {
        return List.of(ANALYST, DASHBOARD, MONITOR);
    }
}

package io.fleetlake.trino.audit;

import io.fleetlake.model.Tables;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The fleet tables the snapshot and tag audits work on. */
public enum AuditTable {
    POSITIONS(Tables.POSITIONS),
    REJECTED_POSITIONS(Tables.REJECTED_POSITIONS),
    VEHICLE_MINUTES(Tables.VEHICLE_MINUTES);

    private final String tableName;

    AuditTable(String tableName) {
        this.tableName = tableName;
    }

    /** The table name in namespace {@code fleet}, such as {@code positions}. */
    public String tableName() {
        return tableName;
    }

    /** {@code fleet.<table>}, as messages name it. */
    public String qualifiedName() {
        return Tables.qualified(tableName);
    }

    /** The table named {@code positions}, {@code rejected_positions} or {@code vehicle_minutes} (any case). */
    public static AuditTable fromName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(table -> table.tableName.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new AuditException(
                        AuditError.INVALID_ARGUMENT,
                        "Table '" + name + "' is not a fleet table: use one of " + names()));
    }

    static String names() {
        return Arrays.stream(values()).map(AuditTable::tableName).collect(Collectors.joining(", "));
    }
}

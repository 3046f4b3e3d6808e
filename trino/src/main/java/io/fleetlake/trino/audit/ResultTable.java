package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An audit answer as rows of named columns, ready for {@link OutputFormat}. A cell is a {@link String}, a
 * {@link Long}, an {@link Integer}, a {@link Double}, an {@link Instant}, or {@code null} for no value.
 *
 * @param columns column names, snake_case like the SQL
 * @param rows each row has one cell per column
 */
public record ResultTable(List<String> columns, List<List<Object>> rows) {
    public ResultTable {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rows, "rows is null");
        List<List<Object>> copied = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException(
                        "A row has " + row.size() + " cells but the table has " + columns.size() + " columns");
            }
            for (Object cell : row) {
                if (cell != null
                        && !(cell instanceof String)
                        && !(cell instanceof Long)
                        && !(cell instanceof Integer)
                        && !(cell instanceof Double)
                        && !(cell instanceof Instant)) {
                    throw new IllegalArgumentException("Cell " + cell + " has unsupported type "
                            + cell.getClass().getName());
                }
            }
            // Cells may be null, which List.copyOf refuses.
            copied.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copied);
    }
}

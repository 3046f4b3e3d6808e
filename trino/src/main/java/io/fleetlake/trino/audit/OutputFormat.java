package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How the audit commands print a {@link ResultTable}: an aligned table for people, CSV (RFC 4180) and JSON (an array of
 * objects) for programs. Times are ISO-8601 in the chosen zone ({@code Z} for UTC).
 */
public enum OutputFormat {
    TABLE {
        @Override
        void write(ResultTable table, ZoneId zone, PrintWriter out) {
            int columns = table.columns().size();
            int[] widths = new int[columns];
            boolean[] numeric = new boolean[columns];
            List<String[]> cells = table.rows().stream()
                    .map(row -> row.stream().map(cell -> text(cell, zone)).toArray(String[]::new))
                    .toList();
            for (int column = 0; column < columns; column++) {
                widths[column] = table.columns().get(column).length();
                numeric[column] = true;
                for (int row = 0; row < cells.size(); row++) {
                    widths[column] = Math.max(widths[column], cells.get(row)[column].length());
                    Object cell = table.rows().get(row).get(column);
                    numeric[column] &= cell == null || cell instanceof Number;
                }
            }
            printLine(table.columns().toArray(String[]::new), widths, numeric, out);
            String[] rule = new String[columns];
            for (int column = 0; column < columns; column++) {
                rule[column] = "-".repeat(widths[column]);
            }
            printLine(rule, widths, new boolean[columns], out);
            cells.forEach(row -> printLine(row, widths, numeric, out));
            out.printf("(%d row%s)%n", cells.size(), cells.size() == 1 ? "" : "s");
        }

        private void printLine(String[] values, int[] widths, boolean[] rightAligned, PrintWriter out) {
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < values.length; column++) {
                if (column > 0) {
                    line.append(" | ");
                }
                String padding = " ".repeat(widths[column] - values[column].length());
                line.append(rightAligned[column] ? padding + values[column] : values[column] + padding);
            }
            out.println(line.toString().stripTrailing());
        }
    },

    CSV {
        @Override
        void write(ResultTable table, ZoneId zone, PrintWriter out) {
            out.print(csvLine(
                    table.columns().stream().map(column -> (Object) column).toList(), zone));
            table.rows().forEach(row -> out.print(csvLine(row, zone)));
        }

        private String csvLine(List<Object> cells, ZoneId zone) {
            StringBuilder line = new StringBuilder();
            for (int index = 0; index < cells.size(); index++) {
                if (index > 0) {
                    line.append(',');
                }
                String value = text(cells.get(index), zone);
                boolean quote = value.indexOf(',') >= 0
                        || value.indexOf('"') >= 0
                        || value.indexOf('\n') >= 0
                        || value.indexOf('\r') >= 0;
                line.append(quote ? '"' + value.replace("\"", "\"\"") + '"' : value);
            }
            // RFC 4180 ends records with CRLF.
            return line.append("\r\n").toString();
        }
    },

    JSON {
        @Override
        void write(ResultTable table, ZoneId zone, PrintWriter out) {
            Writer unclosable = new Writer() {
                @Override
                public void write(char[] buffer, int offset, int length) {
                    out.write(buffer, offset, length);
                }

                @Override
                public void flush() {
                    out.flush();
                }

                @Override
                public void close() {
                    // The command owns the stream; the generator must not close it.
                    out.flush();
                }
            };
            try (JsonGenerator json =
                    new ObjectMapper().createGenerator(unclosable).useDefaultPrettyPrinter()) {
                json.writeStartArray();
                for (List<Object> row : table.rows()) {
                    json.writeStartObject();
                    for (int column = 0; column < row.size(); column++) {
                        json.writeFieldName(table.columns().get(column));
                        Object cell = row.get(column);
                        if (cell == null) {
                            json.writeNull();
                        } else if (cell instanceof Long number) {
                            json.writeNumber(number);
                        } else if (cell instanceof Integer number) {
                            json.writeNumber(number);
                        } else if (cell instanceof Double number) {
                            json.writeNumber(number);
                        } else {
                            json.writeString(text(cell, zone));
                        }
                    }
                    json.writeEndObject();
                }
                json.writeEndArray();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write JSON output", e);
            }
            out.println();
        }
    };

    /** Milliseconds (the precision of device clocks and Kafka timestamps) and the offset, {@code Z} for UTC. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX");

    /** Prints the table to {@code out} (not closed). */
    abstract void write(ResultTable table, ZoneId zone, PrintWriter out);

    /** Writes the table and flushes. */
    public void print(ResultTable table, ZoneId zone, PrintWriter out) {
        requireNonNull(table, "table is null");
        requireNonNull(zone, "zone is null");
        requireNonNull(out, "out is null");
        write(table, zone, out);
        out.flush();
    }

    /** The format named {@code table}, {@code csv} or {@code json} (any case). */
    public static OutputFormat fromName(String name) {
        String wanted = name.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(format -> format.name().equals(wanted))
                .findFirst()
                .orElseThrow(() -> new AuditException(
                        AuditError.INVALID_ARGUMENT, "Format '" + name + "' is not table, csv or json"));
    }

    static String text(Object cell, ZoneId zone) {
        if (cell == null) {
            return "";
        }
        if (cell instanceof Instant instant) {
            return TIME.format(instant.atZone(zone));
        }
        if (cell instanceof Double number && Double.isFinite(number)) {
            // Plain notation: 0.00001, not 1.0E-5.
            return BigDecimal.valueOf(number).stripTrailingZeros().toPlainString();
        }
        return cell.toString();
    }
}

package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutputFormatTest {
    private static final ResultTable TABLE = new ResultTable(
            List.of("vehicle_id", "event_time", "speed_kmh", "source_offset", "status"),
            List.of(
                    Arrays.asList("bus-0042", Instant.parse("2026-11-28T14:02:03.5Z"), 31.25, 1234L, "ON_ROUTE"),
                    Arrays.asList("bus-7", Instant.parse("2026-11-28T14:02:04Z"), 0.0, 7L, null)));

    @Test
    void tableAlignsColumnsAndRightAlignsNumbers() {
        assertThat(print(OutputFormat.TABLE, TABLE, ZoneOffset.UTC))
                .isEqualTo(
                        """
                        vehicle_id | event_time               | speed_kmh | source_offset | status
                        ---------- | ------------------------ | --------- | ------------- | --------
                        bus-0042   | 2026-11-28T14:02:03.500Z |     31.25 |          1234 | ON_ROUTE
                        bus-7      | 2026-11-28T14:02:04.000Z |         0 |             7 |
                        (2 rows)
                        """);
    }

    @Test
    void tablePrintsTimesInTheChosenZone() {
        assertThat(print(OutputFormat.TABLE, TABLE, ZoneId.of("Europe/Madrid")))
                .contains("2026-11-28T15:02:03.500+01:00");
    }

    @Test
    void emptyTableStillShowsItsColumns() {
        assertThat(print(OutputFormat.TABLE, new ResultTable(List.of("tag", "snapshot_id"), List.of()), ZoneOffset.UTC))
                .isEqualTo("tag | snapshot_id\n--- | -----------\n(0 rows)\n");
    }

    @Test
    void csvQuotesOnlyWhatNeedsQuoting() {
        ResultTable table = new ResultTable(
                List.of("reason", "detail", "rejections"),
                List.of(
                        Arrays.asList("SPEED_TOO_HIGH", "speed 250, limit \"200\"", 3L),
                        Arrays.asList("OUTSIDE_REGION", null, 1L)));

        assertThat(print(OutputFormat.CSV, table, ZoneOffset.UTC))
                .isEqualTo("reason,detail,rejections\r\n"
                        + "SPEED_TOO_HIGH,\"speed 250, limit \"\"200\"\"\",3\r\n"
                        + "OUTSIDE_REGION,,1\r\n");
    }

    @Test
    void jsonKeepsNumbersAndNullsTyped() throws Exception {
        JsonNode json = new ObjectMapper().readTree(print(OutputFormat.JSON, TABLE, ZoneOffset.UTC));

        assertThat(json.isArray()).isTrue();
        assertThat(json).hasSize(2);
        assertThat(json.get(0).path("vehicle_id").asText()).isEqualTo("bus-0042");
        assertThat(json.get(0).path("event_time").asText()).isEqualTo("2026-11-28T14:02:03.500Z");
        assertThat(json.get(0).path("speed_kmh").isDouble()).isTrue();
        assertThat(json.get(0).path("speed_kmh").asDouble()).isEqualTo(31.25);
        assertThat(json.get(0).path("source_offset").isIntegralNumber()).isTrue();
        assertThat(json.get(1).path("status").isNull()).isTrue();
    }

    @Test
    void emptyJsonIsAnEmptyArray() throws Exception {
        String printed = print(OutputFormat.JSON, new ResultTable(List.of("tag"), List.of()), ZoneOffset.UTC);

        assertThat(new ObjectMapper().readTree(printed).isArray()).isTrue();
        assertThat(new ObjectMapper().readTree(printed)).isEmpty();
    }

    @Test
    void numbersArePrintedPlain() {
        assertThat(OutputFormat.text(0.00001, ZoneOffset.UTC)).isEqualTo("0.00001");
        assertThat(OutputFormat.text(40.0, ZoneOffset.UTC)).isEqualTo("40");
        assertThat(OutputFormat.text(Double.NaN, ZoneOffset.UTC)).isEqualTo("NaN");
    }

    @Test
    void formatsAreNamedCaseInsensitively() {
        assertThat(OutputFormat.fromName("CSV")).isEqualTo(OutputFormat.CSV);
        assertThat(OutputFormat.fromName("json")).isEqualTo(OutputFormat.JSON);
        assertThatThrownBy(() -> OutputFormat.fromName("xml")).hasMessage("Format 'xml' is not table, csv or json");
    }

    @Test
    void rowsMustMatchTheColumns() {
        assertThatThrownBy(() -> new ResultTable(List.of("a", "b"), List.of(List.of("only one"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ResultTable(List.of("a"), List.of(List.of(new Object()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unsupported type");
    }

    private static String print(OutputFormat format, ResultTable table, ZoneId zone) {
        StringWriter buffer = new StringWriter();
        format.print(table, zone, new PrintWriter(buffer));
        return buffer.toString();
    }
}

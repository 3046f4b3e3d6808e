package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.flink.records.RawRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

class SourceHeadersTest {
    @Test
    void headerValueIsUtf8Text() {
        Header header = SourceHeaders.header("mqtt.topic", "fleet/véhicule-7");

        assertThat(header.key()).isEqualTo("mqtt.topic");
        assertThat(header.value()).isEqualTo("fleet/véhicule-7".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readFromNamesTopicPartitionAndOffsetInDecimalInThatOrder() {
        RawRecord source =
                new RawRecord("gps.raw.positions", 3, 1_234_567_890_123L, Instant.EPOCH, null, new byte[0], null, null);
        List<Header> headers = new ArrayList<>(List.of(SourceHeaders.header("first", "kept")));

        SourceHeaders.addReadFrom(headers, source);

        assertThat(headers)
                .extracting(Header::key, header -> new String(header.value(), StandardCharsets.UTF_8))
                .containsExactly(
                        tuple("first", "kept"),
                        tuple("dlq.source-topic", "gps.raw.positions"),
                        tuple("dlq.source-partition", "3"),
                        tuple("dlq.source-offset", "1234567890123"));
    }
}

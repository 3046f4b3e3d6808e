package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The Kafka headers of the records the pipeline writes aside (dead letters, late positions): UTF-8 text values, and
 * where the original record was read, so that both topics name their source the same way.
 */
final class SourceHeaders {
    private SourceHeaders() {}

    /** A header whose value is {@code value} in UTF-8. */
    static Header header(String name, String value) {
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Adds where {@code source} was read: {@link MessageHeaders#DLQ_SOURCE_TOPIC}, {@link
     * MessageHeaders#DLQ_SOURCE_PARTITION} and {@link MessageHeaders#DLQ_SOURCE_OFFSET}, in that order, in decimal.
     */
    static void addReadFrom(List<Header> headers, RawRecord source) {
        headers.add(header(MessageHeaders.DLQ_SOURCE_TOPIC, source.topic()));
        headers.add(header(MessageHeaders.DLQ_SOURCE_PARTITION, Integer.toString(source.partition())));
        headers.add(header(MessageHeaders.DLQ_SOURCE_OFFSET, Long.toString(source.offset())));
    }
}

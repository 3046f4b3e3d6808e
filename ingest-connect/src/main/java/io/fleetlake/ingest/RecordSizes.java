package io.fleetlake.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The size of a record as the Kafka producer counts it before it accepts the record ({@code max.request.size}).
 *
 * <p>The connector's records go through fixed converters (see {@link ConnectWorkerConfig#connectorProperties()}): the
 * key and every header value as UTF-8 text ({@code StringConverter}, which writes a number as its decimal text), the
 * value as the bytes themselves ({@code ByteArrayConverter}). This class serializes the same way and asks the producer's
 * own estimate ({@link AbstractRecords#estimateSizeInBytesUpperBound}, what {@code KafkaProducer.send} compares with
 * {@code max.request.size}), so that a record it lets through is never refused for its size by the producer.
 */
final class RecordSizes {
    private RecordSizes() {}

    /** Bytes the producer will count for {@code record}; a record is sent only when this is at most the limit. */
    static int serializedSize(SourceRecord record) {
        byte[] key = record.key() == null ? null : text(record.key());
        byte[] value = record.value() == null ? null : (byte[]) record.value();
        List<Header> headers = new ArrayList<>();
        for (org.apache.kafka.connect.header.Header header : record.headers()) {
            headers.add(new RecordHeader(header.key(), header.value() == null ? null : text(header.value())));
        }
        // Kafka-internal estimate, but the very one KafkaProducer uses: a public copy of it would drift.
        return AbstractRecords.estimateSizeInBytesUpperBound(
                RecordBatch.CURRENT_MAGIC_VALUE, CompressionType.NONE, key, value, headers.toArray(Header[]::new));
    }

    private static byte[] text(Object value) {
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }
}

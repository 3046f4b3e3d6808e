package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Iterator;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces device payloads straight into a topic with an idempotent producer ({@code acks=all}), keyed by vehicle id
 * as the ingest connector keys them, and measures the producer's rate: from the first send to the last
 * acknowledgement.
 */
public final class BacklogProducer {
    private static final long PROGRESS_EVERY = 100_000;

    private final String bootstrapServers;

    public BacklogProducer(String bootstrapServers) {
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
    }

    /**
     * Sends every fix and waits until all are acknowledged.
     *
     * @param encode the payload bytes of a fix
     * @param progress called with the number sent so far, every 100,000 records
     * @throws IllegalStateException when a record could not be sent
     */
    public ProduceResult produce(
            String topic, Iterator<Fix> fixes, Function<Fix, byte[]> encode, LongConsumer progress) {
        AtomicLong acknowledged = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long sent = 0;
        long startNanos = System.nanoTime();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(properties())) {
            while (fixes.hasNext() && failure.get() == null) {
                Fix fix = fixes.next();
                producer.send(
                        new ProducerRecord<>(topic, fix.position().vehicleId(), encode.apply(fix)),
                        (metadata, exception) -> {
                            if (exception == null) {
                                acknowledged.incrementAndGet();
                            } else {
                                failure.compareAndSet(null, exception);
                            }
                        });
                sent++;
                if (sent % PROGRESS_EVERY == 0) {
                    progress.accept(sent);
                }
            }
            producer.flush();
        }
        long elapsedNanos = System.nanoTime() - startNanos;
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "Producing to " + topic + " failed after " + acknowledged.get() + " records", failure.get());
        }
        return new ProduceResult(acknowledged.get(), Duration.ofNanos(elapsedNanos));
    }

    private Properties properties() {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return properties;
    }

    /** @param records acknowledged records */
    public record ProduceResult(long records, Duration elapsed) {
        public ProduceResult {
            requireNonNull(elapsed, "elapsed is null");
        }

        public double rate() {
            return records / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }
    }
}

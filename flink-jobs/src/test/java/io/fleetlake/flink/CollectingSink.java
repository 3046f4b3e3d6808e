package io.fleetlake.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A sink that collects into memory, readable by the test once the job ended. The sink travels serialised to the task,
 * so the values live in a static registry keyed by a per-sink id (the MiniCluster runs in the test's JVM).
 */
public final class CollectingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;
    private static final Map<String, List<Object>> VALUES = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();

    public CollectingSink() {
        VALUES.put(id, new ArrayList<>());
    }

    @SuppressWarnings("unchecked")
    public List<T> values() {
        List<Object> values = VALUES.get(id);
        synchronized (values) {
            return (List<T>) List.copyOf(values);
        }
    }

    /** Forgets the values collected so far; a job run after this collects into an empty list. */
    public void reset() {
        VALUES.put(id, new ArrayList<>());
    }

    /** Frees the collected values. */
    public void clear() {
        VALUES.remove(id);
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        List<Object> values = VALUES.get(id);
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context context) {
                synchronized (values) {
                    values.add(element);
                }
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}

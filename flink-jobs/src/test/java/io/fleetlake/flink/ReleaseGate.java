package io.fleetlake.flink;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;

/**
 * A rate limiter for test sources that lets each source reader emit its first {@code n} records once the test has
 * {@link #release released} {@code n}, without blocking the reader (the source stays responsive, so watermarks,
 * idleness and cancellation work as in production). The strategy travels serialised to the tasks, so the state lives
 * in a static registry keyed by a per-gate id (the MiniCluster runs in the test's JVM).
 */
public final class ReleaseGate implements RateLimiterStrategy {
    private static final long serialVersionUID = 1L;
    private static final Map<String, Released> REGISTRY = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();

    public ReleaseGate() {
        REGISTRY.put(id, new Released());
    }

    /** Lets every reader emit up to {@code count} records in total. */
    public void release(int count) {
        REGISTRY.get(id).release(count);
    }

    /** Frees the gate's registry entry. */
    public void clear() {
        REGISTRY.remove(id);
    }

    @Override
    public RateLimiter createRateLimiter(int parallelism) {
        Released released = REGISTRY.get(id);
        return new RateLimiter() {
            private int acquired;

            @Override
            public CompletionStage<Void> acquire() {
                acquired++;
                return released.whenReleased(acquired);
            }
        };
    }

    private static final class Released {
        private final List<Waiting> waiting = new ArrayList<>();
        private int count;

        synchronized void release(int newCount) {
            count = Math.max(count, newCount);
            for (Iterator<Waiting> iterator = waiting.iterator(); iterator.hasNext(); ) {
                Waiting next = iterator.next();
                if (next.record() <= count) {
                    next.future().complete(null);
                    iterator.remove();
                }
            }
        }

        synchronized CompletableFuture<Void> whenReleased(int record) {
            if (record <= count) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> future = new CompletableFuture<>();
            waiting.add(new Waiting(record, future));
            return future;
        }
    }

    private record Waiting(int record, CompletableFuture<Void> future) {}
}

package io.fleetlake.simulator;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Bounds the messages published but not yet acknowledged, and counts what became of them. Thread-safe. */
final class InFlightWindow {
    private final int capacity;
    private final Semaphore room;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    InFlightWindow(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("The in-flight window needs room for at least one message");
        }
        this.capacity = capacity;
        this.room = new Semaphore(capacity);
    }

    /** Takes a place for one message, waiting while the window is full. */
    void enter() throws InterruptedException {
        room.acquire();
        published.incrementAndGet();
    }

    void acknowledged() {
        acknowledged.incrementAndGet();
        room.release();
    }

    void failed() {
        failed.incrementAndGet();
        room.release();
    }

    /** Waits until no message is in flight; meant for when publishing has stopped. */
    boolean awaitEmpty(Duration timeout) throws InterruptedException {
        if (room.tryAcquire(capacity, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            room.release(capacity);
            return true;
        }
        return false;
    }

    PublishCounts counts() {
        // Read the outcomes before the total so that a concurrent publication never makes in-flight negative.
        long failedSoFar = failed.get();
        long acknowledgedSoFar = acknowledged.get();
        return new PublishCounts(published.get(), acknowledgedSoFar, failedSoFar);
    }
}

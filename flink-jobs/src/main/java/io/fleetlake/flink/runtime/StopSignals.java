package io.fleetlake.flink.runtime;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Runs the embedded pipeline's graceful stop when the process gets SIGTERM (the stack's stop) or SIGINT (Ctrl-C in a
 * terminal), while the JVM still runs normally, instead of the JVM's default, which begins the shutdown at once.
 *
 * <p>A JVM shutdown hook is too late for a stop with a savepoint: Iceberg writes the manifests of the savepoint's
 * commit with its shared worker pool ({@code ThreadPools.getWorkerPool()}), a Guava "exiting" executor whose own
 * shutdown hook shuts it down as soon as the shutdown begins. The commit is then refused ({@code
 * RejectedExecutionException} in {@code SnapshotProducer.writeManifests}) and the job fails while it stops, leaving a
 * savepoint whose files are not committed. So the stop runs first, and the process exits only when it is done.
 *
 * <p>{@code sun.misc.Signal} is the JDK's only way to handle a signal (module {@code jdk.unsupported}, exported);
 * Flink's own entry points use it the same way.
 */
public final class StopSignals {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    private static final List<String> SIGNALS = List.of("TERM", "INT");

    private StopSignals() {}

    /**
     * On the first SIGTERM or SIGINT, runs {@code stop} on a thread of its own with the exit status the signal stands
     * for (143, 130); later signals are logged and change nothing.
     */
    public static void install(IntConsumer stop) {
        requireNonNull(stop, "stop is null");
        AtomicBoolean stopping = new AtomicBoolean();
        for (String name : SIGNALS) {
            Signal.handle(new Signal(name), signal -> {
                if (!stopping.compareAndSet(false, true)) {
                    LOG.info("SIG{} while the pipeline is stopping already", name);
                    return;
                }
                LOG.info("SIG{}: stopping the pipeline", name);
                Thread stopper = new Thread(() -> stop.accept(128 + signal.getNumber()), "fleet-pipeline-stop");
                stopper.start();
            });
        }
    }
}

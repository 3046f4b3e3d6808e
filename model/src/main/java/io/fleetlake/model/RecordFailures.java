package io.fleetlake.model;

import java.util.Locale;
import java.util.Set;

/**
 * Which failures raised while one record is processed may be blamed on that record, so that the record is set aside
 * (dead-lettered as {@link RejectionReason#PROCESSING_ERROR}, or skipped by a tool that reads records) and the next
 * one is processed; every other failure still stops the task, to be restarted from the last checkpoint. The one place
 * that decides this for every JVM that handles records one at a time (the pipeline's per-record operators, {@code
 * fleet dlq reprocess}, {@code fleet verify}, the bench): a catch of {@code Throwable} around one record's work calls
 * {@link #rethrowUnlessPerRecord} first.
 *
 * <p>A per-record failure is:
 *
 * <ul>
 *   <li>any {@link Exception} (and any other {@code Throwable} that is not an {@link Error});
 *   <li>a {@link StackOverflowError}: recursion as deep as one record's nesting; the stack has unwound by the time it
 *       is caught;
 *   <li>an {@link OutOfMemoryError} of the Java heap ("Java heap space", "Requested array size exceeds VM limit", "GC
 *       overhead limit exceeded", a JDK "array length ... is too large", or one without a message): an allocation
 *       sized by a record's bytes fails before anything is allocated, and whatever the record allocated before is
 *       garbage once it is set aside. The codec bounds every length a payload declares before it allocates ({@code
 *       PositionCodec}), so this is the last line of defence against an allocation path nobody foresaw.
 * </ul>
 *
 * <p>Everything else propagates: {@link LinkageError} (a class missing from the job's jar), {@link InternalError} and
 * {@link UnknownError} (the JVM is broken), {@link AssertionError}, and an {@link OutOfMemoryError} of a memory pool
 * that no record fills (metaspace, compressed class space, direct buffer memory, native threads, memory
 * mapping): the process, not a record, is short of memory, and setting the
 * next records aside as well would only move them to the dead letters.
 *
 * <p>The price of the heap rule: when the heap is exhausted by something that outlives the record (state that grew
 * without bound), every record fails the same way and is dead-lettered instead of restarting the job. Nothing is lost
 * ({@code fleet dlq reprocess --reason PROCESSING_ERROR} republishes them), and each one is logged with the record
 * it hit.
 */
public final class RecordFailures {
    /** Lower-case parts of the messages HotSpot and the JDK give an OutOfMemoryError of memory outside the heap. */
    private static final Set<String> NON_HEAP_POOLS =
            Set.of("metaspace", "compressed class space", "direct buffer memory", "native thread", "map failed");

    private RecordFailures() {}

    /** Whether the failure may be blamed on the record being processed; see the class comment. */
    public static boolean isPerRecord(Throwable failure) {
        if (!(failure instanceof Error)) {
            return true;
        }
        if (failure instanceof StackOverflowError) {
            return true;
        }
        if (failure instanceof OutOfMemoryError) {
            String message = failure.getMessage();
            if (message == null) {
                return true;
            }
            String lower = message.toLowerCase(Locale.ROOT);
            return NON_HEAP_POOLS.stream().noneMatch(lower::contains);
        }
        return false;
    }

    /**
     * Throws the failure again unless it {@link #isPerRecord may be blamed on the record}; call it first in a catch of
     * {@code Throwable} around one record's work.
     */
    public static void rethrowUnlessPerRecord(Throwable failure) {
        if (!isPerRecord(failure)) {
            // Only an Error is ever not a per-record failure, so the cast holds.
            throw (Error) failure;
        }
    }
}

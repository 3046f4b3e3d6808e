package io.fleetlake.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RecordFailuresTest {

    /** What one record's processing may raise and the record is set aside for. */
    static Stream<Throwable> perRecord() {
        return Stream.of(
                new IllegalStateException("a rule's bug"),
                new ArithmeticException("long overflow"),
                new IOException("checked, thrown sneakily by a library"),
                new StackOverflowError(),
                new OutOfMemoryError("Java heap space"),
                new OutOfMemoryError("Requested array size exceeds VM limit"),
                new OutOfMemoryError("Required array length 2147483639 + 9 is too large"),
                new OutOfMemoryError("GC overhead limit exceeded"),
                new OutOfMemoryError());
    }

    /** What says the process, not the record, is broken: the task must fail and restart. */
    static Stream<Throwable> notPerRecord() {
        return Stream.of(
                new NoClassDefFoundError("io/fleetlake/Missing"),
                new LinkageError("incompatible class change"),
                new InternalError("a JVM fault"),
                new UnknownError(),
                new AssertionError("an invariant"),
                new OutOfMemoryError("Metaspace"),
                new OutOfMemoryError("Compressed class space"),
                new OutOfMemoryError("Direct buffer memory"),
                new OutOfMemoryError("Cannot reserve 1048576 bytes of direct buffer memory (allocated: 1, limit: 2)"),
                new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource"
                        + " limits reached"),
                new OutOfMemoryError("Map failed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("perRecord")
    void aFailureOneRecordCanCauseIsPerRecord(Throwable failure) {
        assertThat(RecordFailures.isPerRecord(failure)).isTrue();
        assertThatCode(() -> RecordFailures.rethrowUnlessPerRecord(failure)).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notPerRecord")
    void anyOtherErrorPropagatesAsItIs(Throwable failure) {
        assertThat(RecordFailures.isPerRecord(failure)).isFalse();
        assertThatThrownBy(() -> RecordFailures.rethrowUnlessPerRecord(failure)).isSameAs(failure);
    }
}

package io.fleetlake.operations.health;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What one source answered: a value, or why it could not be read. A health check reports an unreadable source as such
 * instead of failing as a whole.
 */
public record Reading<T>(Optional<T> value, Optional<String> error) {
    public Reading {
        requireNonNull(value, "value is null");
        requireNonNull(error, "error is null");
        if (value.isPresent() == error.isPresent()) {
            throw new IllegalArgumentException("A reading has a value or an error, not both or neither");
        }
    }

    public static <T> Reading<T> of(T value) {
        return new Reading<>(Optional.of(value), Optional.empty());
    }

    public static <T> Reading<T> failed(String error) {
        return new Reading<>(Optional.empty(), Optional.of(error));
    }

    /** Runs the reader; its exception becomes the reading's error, with the message that names the source. */
    public static <T> Reading<T> read(Supplier<T> reader) {
        try {
            return of(reader.get());
        } catch (RuntimeException e) {
            return failed(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    public <R> Reading<R> map(Function<T, R> function) {
        return value.isPresent() ? of(function.apply(value.get())) : failed(error.get());
    }
}

package io.fleetlake.bench;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.Locale;

/** Progress lines on the bench's standard output, each with the time since the run started. Thread-safe. */
public final class BenchConsole {
    private final PrintStream out;
    private final long startNanos = System.nanoTime();

    public BenchConsole(PrintStream out) {
        this.out = requireNonNull(out, "out is null");
    }

    public synchronized void progress(String format, Object... arguments) {
        long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
        out.printf(
                Locale.ROOT,
                "[%02d:%02d] %s%n",
                seconds / 60,
                seconds % 60,
                String.format(Locale.ROOT, format, arguments));
        out.flush();
    }

    /** Text as it is, for the machine description and the final table. */
    public synchronized void print(String text) {
        out.print(text);
        out.flush();
    }
}

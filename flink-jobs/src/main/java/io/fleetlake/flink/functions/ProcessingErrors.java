package io.fleetlake.flink.functions;

import io.fleetlake.model.RecordFailures;

/**
 * The short summary of a failure that a dead letter of reason {@code PROCESSING_ERROR} carries as its detail: the
 * exception's class and message and those of its root cause, bounded, so that the detail stays readable whatever the
 * record held.
 */
public final class ProcessingErrors {
    /** Longest detail, in characters. */
    public static final int MAX_SUMMARY_LENGTH = 500;

    private ProcessingErrors() {}

    /** For example {@code step enrich failed: java.lang.ArithmeticException: long overflow}. */
    public static String summary(String step, Throwable failure) {
        StringBuilder summary = new StringBuilder(step).append(" failed: ").append(describe(failure));
        Throwable root = failure;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 16; depth++) {
            root = root.getCause();
        }
        if (root != failure) {
            summary.append(" (caused by ").append(describe(root)).append(')');
        }
        if (summary.length() > MAX_SUMMARY_LENGTH) {
            summary.setLength(MAX_SUMMARY_LENGTH - 3);
            summary.append("...");
        }
        return summary.toString();
    }

    private static String describe(Throwable failure) {
        String message;
        try {
            message = failure.getMessage();
        } catch (Throwable e) {
            // An exception whose message cannot be built still has a class name.
            RecordFailures.rethrowUnlessPerRecord(e);
            message = null;
        }
        return message == null
                ? failure.getClass().getName()
                : failure.getClass().getName() + ": " + message;
    }
}

package io.fleetlake.bench.report;

/** How a metric compares with its target. */
public enum Verdict {
    MET("met"),
    MISSED("MISSED"),
    /** Measured, but the brief sets no target for it. */
    NO_TARGET("-"),
    NOT_MEASURED("not measured");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}

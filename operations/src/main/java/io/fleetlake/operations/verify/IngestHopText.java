package io.fleetlake.operations.verify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Topics;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/** The {@link IngestHopReconciliation} section of {@link VerifyReport}'s text and JSON. */
final class IngestHopText {
    private IngestHopText() {}

    static void append(StringBuilder text, IngestHopReconciliation hop) {
        line(text, "");
        line(
                text,
                "MQTT broker -> %s over %.1f s:",
                Topics.RAW_POSITIONS,
                hop.window().toMillis() / 1000.0);
        if (!hop.reconciled()) {
            line(text, "  not reconciled: %s", hop.notReconciled().get());
        } else {
            line(
                    text,
                    "%-48s %,14d (%s)%s",
                    "  accepted by the broker (QoS 1/2, " + MqttTopics.POSITION_FILTER + ")",
                    hop.accepted(),
                    hop.acceptedByListener().entrySet().stream()
                            .map(entry -> "listener " + entry.getKey() + ": " + entry.getValue())
                            .collect(Collectors.joining(", ")),
                    hop.brokerRestarted() ? "; the broker restarted: counted since then, a lower bound" : "");
            line(text, "%-48s %,14d", "  committed to " + Topics.RAW_POSITIONS, hop.rawRecords());
            line(text, "%-48s %,14d", "  refused at ingest (" + Topics.DLQ_POSITIONS + ")", hop.ingestRefused());
            line(
                    text,
                    "%-48s %,14d (%s at the start)",
                    "  held by the broker for the ingest subscription",
                    hop.queuedAtEnd().getAsLong(),
                    count(hop.queuedAtStart()));
            line(text, "%-48s %,14d", "  accepted and never reached Kafka (gap)", hop.gap());
        }
        line(text, "%-48s %14s", "  dropped by the broker (any topic)", count(hop.droppedIncrease()));
    }

    static void json(ObjectNode node, IngestHopReconciliation hop) {
        node.put("reconciled", hop.reconciled());
        hop.notReconciled().ifPresent(reason -> node.put("not_reconciled", reason));
        node.put("window_ms", hop.window().toMillis());
        node.put("accepted", hop.accepted());
        ObjectNode listeners = node.putObject("accepted_by_listener");
        hop.acceptedByListener().forEach(listeners::put);
        node.put("broker_restarted", hop.brokerRestarted());
        node.put("raw_records", hop.rawRecords());
        node.put("ingest_refused", hop.ingestRefused());
        hop.queuedAtStart().ifPresent(queued -> node.put("queued_at_start", queued));
        hop.queuedAtEnd().ifPresent(queued -> node.put("queued_at_end", queued));
        node.put("gap", hop.gap());
        hop.droppedIncrease().ifPresent(dropped -> node.put("dropped", dropped));
        node.put("clean", hop.clean());
    }

    private static String count(OptionalLong value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%,d", value.getAsLong()) : "unknown";
    }

    private static void line(StringBuilder text, String format, Object... arguments) {
        text.append(String.format(Locale.ROOT, format, arguments)).append(System.lineSeparator());
    }
}

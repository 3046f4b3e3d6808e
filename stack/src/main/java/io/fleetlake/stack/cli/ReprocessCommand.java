package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.operations.dlq.DeadLetterReprocessor;
import io.fleetlake.operations.dlq.DeadLetterReprocessor.Outcome;
import io.fleetlake.operations.dlq.DeadLetterReprocessor.Selection;
import io.fleetlake.operations.dlq.ReprocessLock;
import io.fleetlake.operations.dlq.ReprocessLock.LockHeldException;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.validation.ValidationRules;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code fleet dlq reprocess}: feeds dead-lettered records that pass the current rules back into the pipeline. */
@Command(
        name = "reprocess",
        mixinStandardHelpOptions = true,
        description = {
            "Re-validate dead-lettered positions with the current rules (validation.* keys, validation.rules-file) and"
                    + " feed the ones that pass back into gps.raw.positions. Running it again republishes nothing twice.",
            "Restart the pipeline first if you changed the rules, so that it judges the republished records by them.",
            "One run at a time per data folder: a second run exits with status 1, naming the running one"
                    + " (<data-dir>/locks/dlq-reprocess.lock; a crashed run never blocks the next)."
        })
public final class ReprocessCommand implements Callable<Integer> {
    @Mixin
    private StackOptions options;

    @Option(
            names = "--reason",
            required = true,
            split = ",",
            paramLabel = "REASON",
            description = "Rejection reasons to reprocess, e.g. OUTSIDE_REGION (repeat or separate with commas).")
    private List<RejectionReason> reasons;

    @Option(
            names = "--since",
            paramLabel = "TIME",
            description = "Only records rejected at or after TIME: an ISO-8601 instant (2026-11-29T08:00:00Z) or a"
                    + " duration back from now (2h, 3d).")
    private String since;

    @Option(names = "--dry-run", description = "Report what would be republished without writing anything.")
    private boolean dryRun;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "Kafka to work on (default: the embedded stack's).")
    private String bootstrapServers;

    @Override
    public Integer call() {
        ConfigSource configuration = options.configuration();
        StackSettings settings = options.settings(configuration, options.home());
        ValidationRules rules = ValidationRules.from(configuration);
        Selection selection = new Selection(EnumSet.copyOf(reasons), parseSince(since, Instant.now()));
        Outcome outcome;
        // A dry run writes nothing and needs no lock.
        try (ReprocessLock lock = dryRun
                ? null
                : ReprocessLock.acquire(
                        ReprocessLock.location(settings.dataDirectory()), "reprocessing " + selection)) {
            outcome = new DeadLetterReprocessor(
                            Optional.ofNullable(bootstrapServers).orElse(settings.kafkaBootstrapServers()), rules)
                    .reprocess(selection, dryRun);
        } catch (LockHeldException e) {
            System.err.println("fleet dlq reprocess: " + e.getMessage());
            return 1;
        }

        System.out.printf("Dead-lettered records selected (%s): %,d%n", selection, outcome.selected());
        System.out.printf("  already reprocessed by an earlier run:  %,d%n", outcome.alreadyReprocessed());
        if (outcome.notReprocessable() > 0) {
            System.out.printf(
                    "  not reprocessable (value truncated):    %,d (see the log; they stay dead-lettered)%n",
                    outcome.notReprocessable());
        }
        System.out.printf("  pass the current rules:                 %,d%n", outcome.passing());
        outcome.stillRejected()
                .forEach((reason, count) -> System.out.printf("  still rejected, %-24s %,d%n", reason + ":", count));
        System.out.printf(
                dryRun ? "Dry run: nothing was republished.%n" : "Republished to the pipeline: %,d%n",
                outcome.republished());
        return 0;
    }

    static Optional<Instant> parseSince(String value, Instant now) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(value));
        } catch (DateTimeParseException notAnInstant) {
            try {
                return Optional.of(now.minus(ConfigSource.parseDuration(value)));
            } catch (IllegalArgumentException notADuration) {
                throw new ConfigException("--since '" + value + "' is neither an ISO-8601 instant such as"
                        + " 2026-11-29T08:00:00Z nor a duration such as 2h or 3d");
            }
        }
    }
}

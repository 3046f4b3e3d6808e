package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.verify.PipelineWait;
import io.fleetlake.operations.verify.StackVerifier;
import io.fleetlake.operations.verify.StackVerifier.Endpoints;
import io.fleetlake.operations.verify.StackVerifier.VerifyException;
import io.fleetlake.operations.verify.VerifyConfig;
import io.fleetlake.operations.verify.VerifyReport;
import io.fleetlake.operations.verify.VerifyScope;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.StackHealthSources;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.validation.ValidationRules;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fleet verify}: reconciles every stage of the running stack and reports lost and duplicated positions. */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Reconcile every stage of the running stack, read-only: the raw topic gps.raw.positions (read_committed,"
                    + " decoded like the pipeline does), fleet.positions and fleet.rejected_positions (through Trino),"
                    + " and Redis; print lost and duplicated positions with sample keys, the pipeline's job restarts"
                    + " and the supervisor's restarts.",
            "Lost: a raw record the pipeline has committed past that has no row of its own (in fleet.positions or"
                    + " fleet.rejected_positions) and whose (vehicle_id, event_time) has no row in fleet.positions."
                    + " Conflicting: the same, but the key's row in fleet.positions holds other content (the pipeline"
                    + " rejects such a fix as CONFLICTING_RESEND); only a row of the same content makes a record a"
                    + " dropped resend. Stalled: a raw record the pipeline has not committed past although it was"
                    + " received longer ago than --stalled-after. Duplicated: a (vehicle_id, event_time) with more than"
                    + " one row in fleet.positions.",
            "The hop before Kafka: the positions the MQTT broker accepted (QoS 1/2 on fleet/+/position, its own"
                    + " counters) against the records committed to the raw topic, the messages refused at ingest and"
                    + " the messages the broker still holds for the ingest subscription, over the verification's"
                    + " duration (--hop-window); a gap, or a message the broker dropped, fails.",
            "Exit status 0 when nothing is lost, conflicting, stalled or duplicated, no gap before Kafka, Redis holds every vehicle's"
                    + " newest position and the pipeline caught up within --wait; 1 otherwise; 2 when a server cannot"
                    + " be read."
        })
public final class VerifyCommand implements Callable<Integer> {
    /** The pipeline's default consumer group; {@code pipeline.consumer-group} overrides it, as for the pipeline. */
    static final String DEFAULT_PIPELINE_CONSUMER_GROUP = "fleet-pipeline";

    static final String PIPELINE_CONSUMER_GROUP = "pipeline.consumer-group";

    @Spec
    private CommandSpec spec;

    @Mixin
    private StackOptions options;

    @Option(
            names = "--from",
            paramLabel = "TIME",
            description = "Only positions with an event time at or after TIME (ISO-8601, e.g. 2026-11-29T08:00:00Z).")
    private Instant from;

    @Option(
            names = "--to",
            paramLabel = "TIME",
            description = "Only positions with an event time before TIME (ISO-8601).")
    private Instant to;

    @Option(
            names = "--since",
            paramLabel = "TIME",
            description = "Like --from, also as a duration back from now (2h, 3d).")
    private String since;

    @Option(
            names = "--vehicle-prefix",
            paramLabel = "PREFIX",
            description = "Only vehicles whose id starts with PREFIX.")
    private String vehiclePrefix;

    @Option(
            names = "--wait",
            paramLabel = "DURATION",
            description = "First wait up to DURATION (e.g. 2m) until the pipeline has committed past every record the"
                    + " raw topic holds now, so that nothing is left in flight; not catching up within DURATION is a"
                    + " failure (exit status 1). Default: do not wait.")
    private String wait;

    @Option(
            names = "--hop-window",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "Reconcile the MQTT broker's accepted positions with what reached Kafka over the"
                    + " verification's own duration, at least DURATION (default: ${DEFAULT-VALUE}).")
    private String hopWindow;

    @Option(
            names = "--stalled-after",
            paramLabel = "DURATION",
            description = "A raw record the pipeline has not committed past although it was received longer ago than"
                    + " DURATION is stalled, and fails the verification. Default: " + VerifyConfig.STALLED_AFTER
                    + ", else twice " + VerifyConfig.CHECKPOINT_INTERVAL + " plus 30 s (50 s with the pipeline's"
                    + " default).")
    private String stalledAfter;

    @Option(
            names = "--samples",
            paramLabel = "N",
            defaultValue = "10",
            description = "Sample keys shown per finding (default: ${DEFAULT-VALUE}).")
    private int samples;

    @Option(names = "--json", description = "Print the report as JSON on standard output (progress goes to stderr).")
    private boolean json;

    @Override
    public Integer call() {
        try {
            return verify();
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("fleet verify: " + e.getMessage());
            return 2;
        }
    }

    private int verify() {
        ConfigSource configuration = options.configuration();
        StackSettings settings = options.settings(configuration, options.home());
        VerifyScope scope = scope(Instant.now());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progressOut = spec.commandLine().getErr();
        VerifyConfig config = stalledAfter == null
                ? VerifyConfig.from(configuration)
                : new VerifyConfig(parseDuration("--stalled-after", stalledAfter));
        StackVerifier verifier = new StackVerifier(
                endpoints(settings, configuration),
                new PositionCodec(ValidationRules.from(configuration).schemas()),
                config,
                line -> {
                    progressOut.println(line);
                    progressOut.flush();
                });
        try {
            // A wait that times out fails the verification; the report still says what is stalled, lost or pending.
            Optional<PipelineWait> pipelineWait =
                    Optional.ofNullable(wait).map(limit -> verifier.awaitPipeline(parseDuration("--wait", limit)));
            VerifyReport report =
                    verifier.verify(scope, samples, pipelineWait, parseDuration("--hop-window", hopWindow));
            out.print(json ? report.toJson() + System.lineSeparator() : report.toText());
            out.flush();
            return report.exitCode();
        } catch (VerifyException e) {
            progressOut.println("fleet verify: " + e.getMessage());
            progressOut.println("Is the stack running (fleet up), and are --data-dir / --config the stack's?");
            progressOut.flush();
            return 2;
        }
    }

    /** The scope the options select. */
    VerifyScope scope(Instant now) {
        if (since != null && from != null) {
            throw new ConfigException("Give --from or --since, not both");
        }
        Optional<Instant> start = Optional.ofNullable(from).or(() -> ReprocessCommand.parseSince(since, now));
        try {
            return new VerifyScope(start, Optional.ofNullable(to), Optional.ofNullable(vehiclePrefix));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    static Endpoints endpoints(StackSettings settings, ConfigSource configuration) {
        return new Endpoints(
                settings.kafkaBootstrapServers(),
                settings.trino(TrinoUser.MONITOR),
                settings.redisUri(RedisRole.MONITOR),
                settings.redisEndpoint(),
                StackFlinkRest.client(settings),
                configuration.duration(RedisKeys.VEHICLE_TTL_KEY, RedisKeys.DEFAULT_VEHICLE_TTL),
                configuration.string(PIPELINE_CONSUMER_GROUP, DEFAULT_PIPELINE_CONSUMER_GROUP),
                settings.dataDirectory(),
                Optional.of(StackHealthSources.metricsUri(settings.host(), settings.port(StackPort.MQTT_METRICS))));
    }

    private static Duration parseDuration(String option, String value) {
        try {
            return ConfigSource.parseDuration(value);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new ConfigException(option + " '" + value + "' is not a duration such as 30s, 2m or 1h");
        }
    }
}

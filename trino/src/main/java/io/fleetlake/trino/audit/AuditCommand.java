package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigOptions;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.ZoneId;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code fleet audit}: time-travel audits of the fleet tables through Trino, and daily audit tags in the Iceberg REST
 * catalog. Self-contained: register it as a subcommand of any picocli command. The connection and output options
 * ({@code --trino-url}, {@code --catalog-uri}, {@code --format}, {@code --zone}) are accepted before or after the
 * subcommand name; {@code --config}/{@code --set} go before it.
 *
 * <p>Exit status: 0 answered, 2 the question cannot be answered as asked (invalid argument, unknown vehicle, expired
 * snapshot, ...), 1 the stack is down or failing.
 */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = "Time-travel audits of the fleet tables (through Trino) and daily audit tags (in the Iceberg REST"
                + " catalog).",
        subcommands = {
            TrackCommand.class,
            WhereCommand.class,
            SnapshotsCommand.class,
            RejectionsCommand.class,
            TagCommand.class,
            TagsCommand.class
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:the audit was answered",
            "1:the stack is down or failing (Trino, the REST catalog)",
            "2:invalid arguments, or the question cannot be answered as asked (unknown vehicle, expired snapshot, ...)"
        })
public final class AuditCommand implements Runnable {
    /** Exit status of a user error; picocli uses the same for invalid options. */
    public static final int USER_ERROR = 2;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions config;

    @Option(
            names = "--trino-url",
            paramLabel = "JDBC_URL",
            scope = ScopeType.INHERIT,
            description = "Trino JDBC URL. Default: configuration " + AuditConfig.TRINO_JDBC_URL + ", else "
                    + AuditConfig.DEFAULT_TRINO_JDBC_URL + " (the embedded stack).")
    private String trinoUrl;

    @Option(
            names = "--catalog-uri",
            paramLabel = "URI",
            scope = ScopeType.INHERIT,
            description = "Iceberg REST catalog URI (tag commands). Default: configuration " + AuditConfig.CATALOG_URI
                    + ", else " + AuditConfig.DEFAULT_CATALOG_URI_TEXT + " (the embedded stack).")
    private String catalogUri;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            scope = ScopeType.INHERIT,
            defaultValue = "table",
            converter = FormatConverter.class,
            description = "Output: table (aligned, for people), csv or json. Default: ${DEFAULT-VALUE}.")
    private OutputFormat format;

    @Option(
            names = "--zone",
            paramLabel = "ZONE",
            scope = ScopeType.INHERIT,
            defaultValue = "UTC",
            description = "Time zone of times given without an offset, and of the times printed. Default:"
                    + " ${DEFAULT-VALUE}.")
    private String zone;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "Name an audit command, for example: fleet audit track --vehicle bus-0042 --from 2026-11-28T14:00:00Z"
                        + " --to 2026-11-28T15:00:00Z");
    }

    /** The configuration: file, environment and {@code --set}, then {@code --trino-url} and {@code --catalog-uri}. */
    AuditConfig auditConfig() {
        AuditConfig loaded = AuditConfig.from(config.load());
        if (trinoUrl != null) {
            loaded = loaded.withTrinoJdbcUrl(trinoUrl);
        }
        if (catalogUri != null) {
            try {
                loaded = loaded.withCatalogUri(new URI(catalogUri));
            } catch (URISyntaxException e) {
                throw new ConfigException("--catalog-uri '" + catalogUri + "' is not a URI: " + e.getMessage(), e);
            }
        }
        return loaded;
    }

    ZoneId zone() {
        return Times.parseZone("--zone", zone);
    }

    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * Runs one audit for a subcommand: prints its answer in the chosen format, or its error as one line on standard
     * error.
     *
     * @return the exit status
     */
    int execute(CommandSpec subcommand, Function<AuditQueries, ResultTable> audit) {
        requireNonNull(subcommand, "subcommand is null");
        requireNonNull(audit, "audit is null");
        PrintWriter out = subcommand.commandLine().getOut();
        PrintWriter err = subcommand.commandLine().getErr();
        try {
            ZoneId outputZone = zone();
            ResultTable answer = audit.apply(new AuditQueries(auditConfig(), clock()));
            format.print(answer, outputZone, out);
            return 0;
        } catch (AuditException e) {
            err.println(e.getMessage());
            err.flush();
            return e.exitCode();
        } catch (ConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return USER_ERROR;
        }
    }

    /** Prints a remark about an answer (for example "no fix found") on standard error, apart from the data. */
    static void note(CommandSpec subcommand, String message) {
        PrintWriter err = subcommand.commandLine().getErr();
        err.println(message);
        err.flush();
    }

    static final class FormatConverter implements CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            try {
                return OutputFormat.fromName(value);
            } catch (AuditException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class TableConverter implements CommandLine.ITypeConverter<AuditTable> {
        @Override
        public AuditTable convert(String value) {
            try {
                return AuditTable.fromName(value);
            } catch (AuditException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class BucketConverter implements CommandLine.ITypeConverter<RejectionBucket> {
        @Override
        public RejectionBucket convert(String value) {
            try {
                return RejectionBucket.fromName(value);
            } catch (AuditException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}

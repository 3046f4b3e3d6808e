package io.fleetlake.stack.it;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.validation.ValidationRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One stack for the whole test JVM: started by the first integration test that needs it, stopped when the JVM's tests
 * are done. Free ports and a fresh data directory under {@code target/} keep runs independent. Tests share it, so each
 * one uses its own vehicle ids. Its servers come from the {@link StackProvider} the system property {@value
 * StackProvider#PROPERTY} names: embedded processes by default, containers with {@code -Pcontainers}.
 *
 * <p>The classes of the shared stack take its {@link #LOCK} one at a time, since many of them stop, pause or restart
 * its components and assert on what the others would disturb.
 */
public final class SharedStack implements BeforeAllCallback, ParameterResolver {
    /** The resource lock every class on the shared stack holds ({@code @ResourceLock(SharedStack.LOCK)}). */
    public static final String LOCK = "fleet-shared-stack";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedStack.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        running(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RunningStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return running(context);
    }

    private static RunningStack running(ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent("stack", key -> RunningStack.start(), RunningStack.class);
    }

    /** The started stack and its settings; closed by JUnit at the end of the run. */
    public record RunningStack(EmbeddedStack stack, StackSettings settings, Path rulesFile, Path extraSchemaDirectory)
            implements AutoCloseable {
        static RunningStack start() {
            StackProvider provider = StackProvider.fromSystemProperties();
            provider.requireAvailable();
            Path dataDirectory = Path.of("target", "it-stack-" + Instant.now().toEpochMilli())
                    .toAbsolutePath();
            Path rulesFile = dataDirectory.resolve("validation-rules.properties");
            Path extraSchemas = dataDirectory.resolve("extra-schemas");
            try {
                Files.createDirectories(extraSchemas);
                Files.writeString(rulesFile, "# the default rules; tests rewrite this file and restart the pipeline\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            ConfigSource configuration = ConfigSource.of(Map.ofEntries(
                    Map.entry(StackSettings.FREE_PORTS, "true"),
                    // Short checkpoints make commits (and so the tests) fast; production keeps the 10 s default.
                    Map.entry("pipeline.checkpoint-interval", "2s"),
                    // The development machine is shared by several builds: under a load average of 40 and more Trino
                    // has taken over four minutes to start. Generous limits cost nothing when it starts quickly.
                    Map.entry("trino.startup-timeout", "6m"),
                    Map.entry(StackSettings.START_TIMEOUT, "8m"),
                    Map.entry("validation.rules-file", rulesFile.toString()),
                    Map.entry("validation.extra-schema-dir", extraSchemas.toString()),
                    // Routes refresh and go stale quickly, and a silent partition is declared idle quickly, so that the
                    // enrichment and window tests do not wait for minutes.
                    Map.entry("enrichment.route-refresh", "3s"),
                    Map.entry("enrichment.route-stale-after", "12s"),
                    Map.entry("pipeline.source-idleness", "5s")));
            StackSettings settings = StackSettings.from(configuration, dataDirectory);
            FleetHome home = FleetHome.locate();
            EmbeddedStack stack = FleetStack.create(settings, home, provider.servers(settings, home));
            stack.start();
            return new RunningStack(stack, settings, rulesFile, extraSchemas);
        }

        /** The validation rules the pipeline and the reprocessing command share. */
        public ValidationRules validationRules() {
            return ValidationRules.from(settings.configuration());
        }

        @Override
        public void close() {
            stack.close();
        }
    }
}

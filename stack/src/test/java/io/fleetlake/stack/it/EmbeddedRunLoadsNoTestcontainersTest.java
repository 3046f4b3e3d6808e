package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The default run must not touch Docker: the provider selection is loaded in a class loader of its own that records
 * every class it resolves, and the embedded path must resolve no Testcontainers class (so neither its Docker client
 * factory nor its Ryuk reaper can start). The containers path, resolved the same way, shows the recording works.
 */
class EmbeddedRunLoadsNoTestcontainersTest {
    private static final StackSettings SETTINGS =
            StackSettings.from(ConfigSource.of(Map.of(StackSettings.FREE_PORTS, "true")), Path.of("target", "data"));
    private static final FleetHome HOME = new FleetHome(Path.of("target", "no-checkout"), "0");

    @Test
    void theEmbeddedPathResolvesNoTestcontainersClass() throws Exception {
        RecordingClassLoader loader = new RecordingClassLoader(getClass().getClassLoader());

        Object embedded = select(loader, "EMBEDDED");

        assertThat(loader.requested).contains(StackProvider.class.getName());
        assertThat(loader.requested)
                .noneMatch(name -> name.startsWith("org.testcontainers."))
                .doesNotContain("io.fleetlake.stack.containers.ContainerServers");
        assertThat(embedded.getClass().getSimpleName()).isEqualTo("EmbeddedServers");
    }

    @Test
    void theContainersPathDoesResolveThem() throws Exception {
        RecordingClassLoader loader = new RecordingClassLoader(getClass().getClassLoader());

        Object containers = loadProvider(loader, "CONTAINERS");
        servers(containers);

        assertThat(loader.requested).anyMatch(name -> name.startsWith("org.testcontainers."));
    }

    /** What SharedStack does: the availability check, then the servers. */
    private static Object select(ClassLoader loader, String provider) throws Exception {
        Object selected = loadProvider(loader, provider);
        Method requireAvailable = selected.getClass().getDeclaredMethod("requireAvailable");
        requireAvailable.setAccessible(true);
        requireAvailable.invoke(selected);
        return servers(selected);
    }

    private static Object loadProvider(ClassLoader loader, String provider) throws Exception {
        Class<?> type = loader.loadClass(StackProvider.class.getName());
        return type.getMethod("valueOf", String.class).invoke(null, provider);
    }

    private static Object servers(Object provider) throws Exception {
        Method servers = provider.getClass().getDeclaredMethod("servers", StackSettings.class, FleetHome.class);
        servers.setAccessible(true);
        return servers.invoke(provider, SETTINGS, HOME);
    }

    /**
     * Defines the provider selection, the container provider and Testcontainers itself (from the parent's class files)
     * so that every class they resolve passes through {@link #loadClass}; everything else comes from the parent.
     */
    private static final class RecordingClassLoader extends ClassLoader {
        private static final List<String> OWN_PREFIXES =
                List.of(StackProvider.class.getName(), "io.fleetlake.stack.containers.", "org.testcontainers.");

        private final Set<String> requested = ConcurrentHashMap.newKeySet();

        RecordingClassLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            requested.add(name);
            if (OWN_PREFIXES.stream().noneMatch(name::startsWith)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = classFile(name);
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private byte[] classFile(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the class file of " + name, e);
            }
        }
    }
}

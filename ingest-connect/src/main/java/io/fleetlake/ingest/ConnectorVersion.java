package io.fleetlake.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The project version, shown by Connect for the connector and its tasks. */
final class ConnectorVersion {
    private static final String RESOURCE = "version.properties";
    private static final String VERSION = load();

    private ConnectorVersion() {}

    static String current() {
        return VERSION;
    }

    private static String load() {
        try (InputStream input = ConnectorVersion.class.getResourceAsStream(RESOURCE)) {
            if (input == null) {
                throw new IllegalStateException("Missing resource " + RESOURCE + " next to " + ConnectorVersion.class);
            }
            Properties properties = new Properties();
            properties.load(input);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + RESOURCE, e);
        }
    }
}

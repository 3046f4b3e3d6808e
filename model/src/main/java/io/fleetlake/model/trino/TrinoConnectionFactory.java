package io.fleetlake.model.trino;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The one way the project opens a Trino JDBC connection: over HTTPS, with a user and its password, trusting the
 * server's certificate through a PEM or Java trust store (the data folder's {@code ca.pem} for the embedded Trino).
 * Properties already given as parameters of the URL win over the ones set here (Trino refuses a property given twice).
 * The password never appears in {@link #toString()} or in an error message of this class.
 *
 * @param jdbcUrl such as {@code jdbc:trino://127.0.0.1:18443/iceberg}
 * @param user the Trino user name
 * @param password its password
 * @param trustStore the CA certificate (PEM) or trust store that signed the server's certificate; empty to use the
 *     JVM's default trust store (a publicly trusted certificate)
 * @param source the client name Trino records with each query, such as {@code fleet-audit}
 */
public record TrinoConnectionFactory(
        String jdbcUrl, String user, String password, Optional<Path> trustStore, String source) {
    private static final String PREFIX = "jdbc:trino://";

    public TrinoConnectionFactory {
        requireNonNull(jdbcUrl, "jdbcUrl is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        requireNonNull(trustStore, "trustStore is null");
        requireNonNull(source, "source is null");
        if (!jdbcUrl.startsWith(PREFIX) || jdbcUrl.length() == PREFIX.length()) {
            throw new IllegalArgumentException(
                    "Not a Trino JDBC URL: " + withoutParameters(jdbcUrl) + "; use jdbc:trino://host:port/iceberg");
        }
        if (user.isBlank()) {
            throw new IllegalArgumentException("A Trino user name is required for " + withoutParameters(jdbcUrl));
        }
        if (password.isEmpty()) {
            throw new IllegalArgumentException(
                    "The Trino user " + user + " needs a password: Trino refuses a" + " connection without one");
        }
    }

    /** A factory for {@code user} with its password, trusting the CA certificate {@code caCertificate}. */
    public static TrinoConnectionFactory of(String jdbcUrl, TrinoUser user, String password, Path caCertificate) {
        requireNonNull(user, "user is null");
        return new TrinoConnectionFactory(
                jdbcUrl, user.userName(), password, Optional.of(caCertificate), "fleet-" + user.userName());
    }

    /** The same connection with another client name, for example {@code fleet-audit}. */
    public TrinoConnectionFactory withSource(String newSource) {
        return new TrinoConnectionFactory(jdbcUrl, user, password, trustStore, newSource);
    }

    /** The same user and trust on another catalog: {@code jdbc:trino://host:port/<catalog>}. */
    public TrinoConnectionFactory withCatalog(String catalog) {
        requireNonNull(catalog, "catalog is null");
        String authority = jdbcUrl.substring(PREFIX.length());
        int end = indexOfAny(authority, "/?");
        String parameters = authority.indexOf('?') >= 0 ? authority.substring(authority.indexOf('?')) : "";
        String hostAndPort = end < 0 ? authority : authority.substring(0, end);
        return new TrinoConnectionFactory(
                PREFIX + hostAndPort + "/" + catalog + parameters, user, password, trustStore, source);
    }

    /** Opens a connection; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, properties());
    }

    /** Opens a connection with extra session properties such as {@code timezone}. */
    public Connection connect(Map<String, String> extraProperties) throws SQLException {
        Properties properties = properties();
        extraProperties.forEach((name, value) -> setUnlessInUrl(properties, name, value));
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    /** The connection properties: user, password, TLS and trust store, client name. */
    public Properties properties() {
        Properties properties = new Properties();
        setUnlessInUrl(properties, "user", user);
        setUnlessInUrl(properties, "password", password);
        // Trino's JDBC driver sends a password only over TLS.
        setUnlessInUrl(properties, "SSL", "true");
        trustStore.ifPresent(path -> setUnlessInUrl(properties, "SSLTrustStorePath", path.toString()));
        setUnlessInUrl(properties, "source", source);
        return properties;
    }

    /** The server's HTTPS base URI, such as {@code https://127.0.0.1:18443}, for the messages of clients. */
    public URI serverUri() {
        String authority = jdbcUrl.substring(PREFIX.length());
        int end = indexOfAny(authority, "/?");
        return URI.create("https://" + (end < 0 ? authority : authority.substring(0, end)));
    }

    private void setUnlessInUrl(Properties properties, String name, String value) {
        int query = jdbcUrl.indexOf('?');
        if (query >= 0) {
            for (String parameter : jdbcUrl.substring(query + 1).split("&", -1)) {
                if (parameter.equals(name) || parameter.startsWith(name + "=")) {
                    return;
                }
            }
        }
        properties.setProperty(name, value);
    }

    private static int indexOfAny(String text, String characters) {
        for (int index = 0; index < text.length(); index++) {
            if (characters.indexOf(text.charAt(index)) >= 0) {
                return index;
            }
        }
        return -1;
    }

    /** The URL without its parameters, which may carry a password. */
    static String withoutParameters(String jdbcUrl) {
        int query = jdbcUrl.indexOf('?');
        return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query) + "?***";
    }

    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        shown.put("jdbcUrl", withoutParameters(jdbcUrl));
        shown.put("user", user);
        shown.put("trustStore", trustStore.map(Path::toString).orElse("(JVM default)"));
        shown.put("source", source);
        return "TrinoConnectionFactory" + shown;
    }
}

package io.fleetlake.common.config;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The SASL/SCRAM-SHA-512 login of one Kafka client, the one way every component takes it from its configuration: keys
 * {@code <component>.kafka-username} and {@code <component>.kafka-password} (both or neither). Without them the client
 * connects as before, without authentication (the embedded stack's broker has no SASL listener); with them it speaks
 * SASL_PLAINTEXT to a broker such as the compose deployment's ({@code deploy/kafka/security.properties}), whose ACLs
 * ({@code deploy/kafka/acls.conf}) grant the username its job.
 *
 * <p>The password is only ever put into the client's {@code sasl.jaas.config}, which Kafka's clients treat as a
 * password (shown as {@code [hidden]} in their logged configuration); {@link #toString()} redacts it.
 *
 * @param username the Kafka principal, {@code User:<username>} in the ACLs
 * @param password its SCRAM password
 */
public record KafkaSaslCredentials(String username, String password) {
    public static final String SECURITY_PROTOCOL = "SASL_PLAINTEXT";
    public static final String MECHANISM = "SCRAM-SHA-512";

    /**
     * A JAAS option value is written between double quotes; a quote, a backslash or a line break in it would end or
     * change the login module's options, so they are refused rather than escaped.
     */
    private static final Pattern JAAS_SAFE = Pattern.compile("[^\"\\\\\\r\\n]+");

    public KafkaSaslCredentials {
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        if (!JAAS_SAFE.matcher(username).matches()) {
            throw new ConfigException(
                    "The Kafka username must not be empty nor hold a double quote, a backslash or" + " a line break");
        }
        if (!JAAS_SAFE.matcher(password).matches()) {
            throw new ConfigException("The Kafka password of " + username + " must not be empty nor hold a double"
                    + " quote, a backslash or a line break");
        }
    }

    /**
     * The credentials of {@code component}, such as {@code connect} for {@code connect.kafka-username} and
     * {@code connect.kafka-password}; empty when neither is set.
     *
     * @throws ConfigException when only one of the two is set, or a value cannot be written into a JAAS option
     */
    public static Optional<KafkaSaslCredentials> from(ConfigSource source, String component) {
        requireNonNull(source, "source is null");
        requireNonNull(component, "component is null");
        String usernameKey = component + ".kafka-username";
        String passwordKey = component + ".kafka-password";
        Optional<String> username = source.string(usernameKey);
        Optional<String> password = source.string(passwordKey);
        if (username.isPresent() != password.isPresent()) {
            throw new ConfigException("Set both " + usernameKey + " and " + passwordKey + " (environment "
                    + ConfigSource.environmentName(usernameKey) + " and " + ConfigSource.environmentName(passwordKey)
                    + ") to log in to Kafka with SASL/SCRAM, or neither for a broker without authentication");
        }
        if (username.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new KafkaSaslCredentials(username.get(), password.get()));
        } catch (ConfigException e) {
            throw new ConfigException(
                    "Invalid configuration " + usernameKey + " / " + passwordKey + ": " + e.getMessage(), e);
        }
    }

    /**
     * The Kafka client properties of this login ({@code security.protocol}, {@code sasl.mechanism},
     * {@code sasl.jaas.config}), each key preceded by {@code prefix}: empty for a plain client, {@code producer.},
     * {@code consumer.} or {@code admin.} for the clients of a Connect worker, {@code properties.} for Flink's
     * connector options.
     */
    public Map<String, String> clientProperties(String prefix) {
        requireNonNull(prefix, "prefix is null");
        return Map.of(
                prefix + "security.protocol",
                SECURITY_PROTOCOL,
                prefix + "sasl.mechanism",
                MECHANISM,
                prefix + "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + username
                        + "\" password=\"" + password + "\";");
    }

    /** The client properties without a prefix. */
    public Map<String, String> clientProperties() {
        return clientProperties("");
    }

    /** The client properties of {@code credentials}, or none for a client without authentication. */
    public static Map<String, String> clientProperties(Optional<KafkaSaslCredentials> credentials) {
        requireNonNull(credentials, "credentials is null");
        return credentials.map(KafkaSaslCredentials::clientProperties).orElse(Map.of());
    }

    @Override
    public String toString() {
        return "KafkaSaslCredentials[username=" + username + ", password=<redacted>]";
    }
}

package io.fleetlake.common.config;

/** A configuration value is missing or invalid; the message names the key, the value and where it came from. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A value {@code key} does not take, for the components configured by file, environment and {@code --set}: the
     * message names the key, the value, what is expected and the three places to set it.
     */
    public static ConfigException invalidValue(String key, Object value, String expected) {
        return new ConfigException("Invalid configuration " + key + " = '" + value + "': expected " + expected
                + " (set it in the configuration file, the environment variable "
                + ConfigSource.environmentName(key) + " or with --set " + key + "=...)");
    }
}

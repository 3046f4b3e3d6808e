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
}

package io.fleetlake.simulator;

/** The MQTT broker could not be reached or refused the connection; the message says what to check. */
public final class BrokerUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BrokerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

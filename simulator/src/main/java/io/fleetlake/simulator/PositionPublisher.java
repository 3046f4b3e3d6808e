package io.fleetlake.simulator;

import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Sends device messages to the broker; {@link MqttPositionPublisher} is the real one. */
public interface PositionPublisher {
    /**
     * Encodes a position as the device would and publishes it to the vehicle's topic. Waits while too many messages
     * are unacknowledged.
     *
     * @param schemaVersion the Position schema version the device's firmware writes in Avro (1 or 2); fields the
     *     version lacks are left out
     * @return completes when the broker acknowledged the message, exceptionally when it was refused or lost
     * @throws InterruptedException when interrupted while waiting for room among the unacknowledged messages
     */
    CompletableFuture<Void> publish(Position position, PayloadFormat format, int schemaVersion)
            throws InterruptedException;

    PublishCounts counts();

    /**
     * Waits until every published message has been acknowledged or has failed.
     *
     * @return false when messages were still unacknowledged at the timeout
     */
    boolean awaitAcknowledgements(Duration timeout) throws InterruptedException;
}

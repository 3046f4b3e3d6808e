package io.fleetlake.stack.it;

import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.stack.StackHealthSources;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackServiceSecrets;
import java.net.URI;
import java.time.Duration;

/** The stack's Connect worker, through the shared client, logged in as one of its REST principals. */
final class ConnectAccess {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ConnectAccess() {}

    /** As {@code admin}, who may pause, stop, resume and restart the connector. */
    static ConnectRestClient admin(StackSettings settings) {
        return ConnectRestClient.create(
                uri(settings), TIMEOUT, StackServiceSecrets.of(settings).connectAdmin());
    }

    /** As {@code monitor}, who may only read. */
    static ConnectRestClient monitor(StackSettings settings) {
        return ConnectRestClient.create(
                uri(settings), TIMEOUT, StackServiceSecrets.of(settings).connectMonitor());
    }

    static URI uri(StackSettings settings) {
        return URI.create(StackHealthSources.connectUri(settings));
    }
}

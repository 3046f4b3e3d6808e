package io.fleetlake.dashboard.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * GET requests to a Flink REST API: the seam that lets tests answer with recorded responses. In production it is
 * {@link io.fleetlake.flink.rest.FlinkRestClient#get}, the project's one Flink REST client.
 */
@FunctionalInterface
public interface FlinkRestGet {
    /**
     * @param pathAndQuery such as {@code /jobs/overview}, already URL-encoded
     * @return the parsed JSON body of a 200 response
     * @throws IOException when the server cannot be reached, answers with another status, or not with JSON
     */
    JsonNode get(String pathAndQuery) throws IOException;
}

package io.fleetlake.catalog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.junit.jupiter.api.Test;

/** The router tells its observer the route template (not the path) and the status of every request it answers. */
class RestRouterObserverTest {
    private final List<String> observed = new ArrayList<>();
    private final RestRouter router = new RestRouter(
            List.of(
                    EndpointRoute.route(
                            Endpoint.V1_LOAD_NAMESPACE,
                            request -> Optional.of(GetNamespaceResponse.builder()
                                    .withNamespace(request.namespace())
                                    .build())),
                    EndpointRoute.route(Endpoint.V1_DELETE_TABLE, request -> {
                        throw new IllegalStateException("broken handler");
                    })),
            RestJson.newMapper(),
            (endpoint, status, nanos) -> observed.add(endpoint + " -> " + status + (nanos >= 0 ? "" : " negative")));

    @Test
    void eachAnswerIsObservedWithItsRouteTemplate() {
        router.handle(new HttpRequest("GET", "/v1/namespaces/fleet", Map.of()));
        router.handle(new HttpRequest("DELETE", "/v1/namespaces/fleet/tables/positions", Map.of()));
        router.handle(new HttpRequest("GET", "/v1/nothing/here", Map.of()));

        assertThat(observed)
                .containsExactly(
                        "GET /v1/namespaces/{namespace} -> 200",
                        "DELETE /v1/namespaces/{namespace}/tables/{table} -> 500",
                        "unmatched -> 404");
    }
}

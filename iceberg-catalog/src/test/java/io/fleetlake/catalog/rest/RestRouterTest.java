package io.fleetlake.catalog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.JsonResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.junit.jupiter.api.Test;

class RestRouterTest {
    private final List<String> observed = new ArrayList<>();
    private final RestRouter router = new RestRouter(
            List.of(
                    EndpointRoute.route(
                            Endpoint.V1_LOAD_NAMESPACE,
                            request -> Optional.of(GetNamespaceResponse.builder()
                                    .withNamespace(request.namespace())
                                    .build())),
                    EndpointRoute.route(Endpoint.V1_NAMESPACE_EXISTS, request -> Optional.empty()),
                    EndpointRoute.route(
                            Endpoint.V1_CREATE_NAMESPACE,
                            request -> Optional.of(CreateNamespaceResponse.builder()
                                    .withNamespace(request.body(CreateNamespaceRequest.class)
                                            .namespace())
                                    .build())),
                    EndpointRoute.route(Endpoint.V1_UPDATE_TABLE, request -> {
                        throw new CommitFailedException("Requirement failed for %s", request.table());
                    }),
                    EndpointRoute.route(Endpoint.V1_DELETE_TABLE, request -> {
                        throw new IllegalStateException("broken handler");
                    })),
            RestJson.newMapper(),
            (endpoint, status, nanos) -> observed.add(endpoint + " -> " + status + (nanos >= 0 ? "" : " negative")));

    /** The observer hears the route's endpoint (not the path, one label per route) and the status of every answer. */
    @Test
    void eachAnswerIsObservedWithItsEndpoint() {
        router.handle(request(HttpMethod.GET, "/v1/namespaces/fleet", ""));
        router.handle(request(HttpMethod.DELETE, "/v1/namespaces/fleet/tables/positions", ""));
        router.handle(request(HttpMethod.GET, "/v1/nothing/here", ""));
        router.handle(request(HttpMethod.DELETE, "/v1/namespaces/fleet", ""));

        assertThat(observed)
                .containsExactly(
                        "GET /v1/namespaces/{namespace} -> 200",
                        "DELETE /v1/namespaces/{namespace}/tables/{table} -> 500",
                        "unmatched -> 404",
                        "unmatched -> 405");
    }

    @Test
    void decodesMultiLevelNamespaceFromThePath() {
        JsonResponse response = router.handle(request(HttpMethod.GET, "/v1/namespaces/fleet%1Faudit", ""));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).contains("{\"namespace\":[\"fleet\",\"audit\"],\"properties\":{}}");
    }

    @Test
    void emptyResultIsNoContent() {
        JsonResponse response = router.handle(request(HttpMethod.HEAD, "/v1/namespaces/fleet", ""));

        assertThat(response).isEqualTo(new JsonResponse(204, Optional.empty()));
    }

    @Test
    void trailingSlashIsIgnored() {
        assertThat(router.handle(request(HttpMethod.GET, "/v1/namespaces/fleet/", ""))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void parsesTheRequestBody() {
        JsonResponse response =
                router.handle(request(HttpMethod.POST, "/v1/namespaces", "{\"namespace\":[\"fleet\"]}"));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().orElseThrow()).contains("\"namespace\":[\"fleet\"]");
    }

    @Test
    void malformedBodyIsBadRequest() {
        ErrorResponse error = error(router.handle(request(HttpMethod.POST, "/v1/namespaces", "{not json")));

        assertThat(error.code()).isEqualTo(400);
        assertThat(error.type()).isEqualTo("BadRequestException");
        assertThat(error.message()).startsWith("Invalid CreateNamespaceRequest");
    }

    @Test
    void missingBodyIsBadRequest() {
        ErrorResponse error = error(router.handle(request(HttpMethod.POST, "/v1/namespaces", "")));

        assertThat(error.code()).isEqualTo(400);
        assertThat(error.message()).isEqualTo("Missing request body: expected a CreateNamespaceRequest");
    }

    @Test
    void handlerExceptionBecomesIcebergError() {
        JsonResponse response = router.handle(request(HttpMethod.POST, "/v1/namespaces/fleet/tables/positions", ""));
        ErrorResponse error = error(response);

        assertThat(response.status()).isEqualTo(409);
        assertThat(error.code()).isEqualTo(409);
        assertThat(error.type()).isEqualTo("CommitFailedException");
        assertThat(error.message())
                .isEqualTo("Requirement failed for " + TableIdentifier.of(Namespace.of("fleet"), "positions"));
    }

    @Test
    void unexpectedExceptionIsServerError() {
        ErrorResponse error =
                error(router.handle(request(HttpMethod.DELETE, "/v1/namespaces/fleet/tables/positions", "")));

        assertThat(error.code()).isEqualTo(500);
        assertThat(error.type()).isEqualTo("IllegalStateException");
        assertThat(error.message()).isEqualTo("broken handler");
    }

    @Test
    void unknownPathIsNotFound() {
        ErrorResponse error = error(router.handle(request(HttpMethod.GET, "/v1/namespaces/fleet/views/v", "")));

        assertThat(error.code()).isEqualTo(404);
        assertThat(error.type()).isEqualTo("NotFoundException");
        assertThat(error.message()).isEqualTo("No route for GET /v1/namespaces/fleet/views/v");
    }

    @Test
    void knownPathWithOtherMethodIsMethodNotAllowed() {
        ErrorResponse error = error(router.handle(request(HttpMethod.DELETE, "/v1/namespaces", "")));

        assertThat(error.code()).isEqualTo(405);
        assertThat(error.message()).isEqualTo("Method DELETE is not allowed for /v1/namespaces");
    }

    private static HttpRequest request(HttpMethod method, String path, String body) {
        return new HttpRequest(method.name(), path, Map.of()).withBody(body);
    }

    private static ErrorResponse error(JsonResponse response) {
        ErrorResponse error = ErrorResponseParser.fromJson(response.body().orElseThrow());
        assertThat(error.code()).isEqualTo(response.status());
        return error;
    }
}

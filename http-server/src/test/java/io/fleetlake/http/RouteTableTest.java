package io.fleetlake.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The shared routing: matching, 404 and 405, the status of failures, the observer's labels, refusals. */
class RouteTableTest {
    private final List<String> observed = new ArrayList<>();

    private final RouteTable<RouteHandler<String>, Response> table = new RouteTable<>(
            List.of(
                    Route.get("/v1/items/{id}", request -> "item " + request.pathVariable("id")),
                    Route.of("PUT", "/v1/items/{id}", request -> "put " + request.body()),
                    Route.get(
                            "/v1/query", request -> "at " + request.query("at").orElse("none")),
                    Route.get("/v1/bug", request -> {
                        throw new IllegalStateException("broken invariant");
                    }),
                    Route.get("/v1/refused", request -> {
                        throw new Refused(429, "slow down");
                    }),
                    Route.get("/v1/unknown-variable", request -> request.pathVariable("missing"))),
            ExceptionStatuses.of(Map.of(IllegalArgumentException.class, 400)),
            new Responses(),
            (route, status, nanos) -> observed.add(route + " " + status + (nanos >= 0 ? "" : " negative")));

    @Test
    void theRouteOfThePathAndMethodServesWithItsVariablesAndBody() {
        assertThat(handle("GET", "/v1/items/VH%2F1")).isEqualTo(new Response(200, "item VH/1"));
        assertThat(table.handle(new HttpRequest("PUT", "/v1/items/1", Map.of()).withBody("{}")))
                .isEqualTo(new Response(200, "put {}"));
        assertThat(observed).containsExactly("/v1/items/{id} 200", "/v1/items/{id} 200");
    }

    @Test
    void leadingAndTrailingSlashesDoNotCountAndBlankQueryParametersAreAbsent() {
        assertThat(handle("GET", "//v1/query/").body()).isEqualTo("at none");
        assertThat(table.handle(new HttpRequest("GET", "/v1/query", Map.of("at", "  ")))
                        .body())
                .isEqualTo("at none");
        assertThat(table.handle(new HttpRequest("GET", "/v1/query", Map.of("at", " x ")))
                        .body())
                .isEqualTo("at x");
    }

    @Test
    void aPathNoRouteServesIsThe404OfTheServerAndAnotherMethodIts405() {
        assertThat(handle("GET", "/v1/nothing")).isEqualTo(new Response(404, "not found: GET /v1/nothing"));
        assertThat(handle("DELETE", "/v1/items/1")).isEqualTo(new Response(405, "use GET for /v1/items/1"));
        assertThat(observed).containsExactly("unmatched 404", "other GET /v1/items/{id} 405");
    }

    @Test
    void failuresMapThroughTheTableOrTheirOwnStatusAndAnythingElseIsA500() {
        assertThat(handle("GET", "/v1/bug")).isEqualTo(new Response(500, "IllegalStateException: broken invariant"));
        assertThat(handle("GET", "/v1/refused")).isEqualTo(new Response(429, "Refused: slow down"));
        // A malformed escape in a variable: the responder's variable form throws, as a handler would.
        assertThat(handle("GET", "/v1/items/%zz").status()).isEqualTo(400);
        assertThat(handle("GET", "/v1/unknown-variable"))
                .isEqualTo(new Response(500, "IllegalStateException: The route has no path variable missing"));
        assertThat(observed)
                .containsExactly("/v1/bug 500", "/v1/refused 429", "unmatched 400", "/v1/unknown-variable 500");
    }

    @Test
    void aRefusalBeforeRoutingGetsTheServersErrorBodyAndTheRefusedLabel() {
        assertThat(table.refuse(new HttpRequest("POST", "/v1/items/1", Map.of()), new Refused(503, "busy")))
                .isEqualTo(new Response(503, "Refused: busy"));
        assertThat(observed).containsExactly("refused 503");
    }

    @Test
    void routesAreValidated() {
        assertThatThrownBy(() -> Route.get("/v1/items", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("handler is null");
        assertThatThrownBy(() -> new RouteRequest(Map.of(), Map.of(), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("body is null");
    }

    private Response handle(String method, String path) {
        return table.handle(new HttpRequest(method, path, Map.of()));
    }

    record Response(int status, String body) {}

    /** A server's own error code. */
    private static final class Refused extends RuntimeException implements ExceptionStatuses.WithStatus {
        private static final long serialVersionUID = 1L;

        private final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        @Override
        public int status() {
            return status;
        }
    }

    /** A server that labels a wrong method with the route it tried and decodes its path segments. */
    private static final class Responses implements RouteTable.Responder<RouteHandler<String>, Response> {
        @Override
        public Response serve(HttpRequest request, RouteHandler<String> handler, Map<String, String> variables) {
            return new Response(
                    200, handler.handle(new RouteRequest(variables, request.queryParameters(), request.body())));
        }

        @Override
        public RuntimeException unmatched(
                HttpRequest request, Optional<Route<RouteHandler<String>>> servedForOtherMethods) {
            return servedForOtherMethods
                    .<RuntimeException>map(route -> new Refused(405, "use " + route.method()))
                    .orElseGet(() -> new Refused(404, request.method() + " " + request.path()));
        }

        @Override
        public Response failure(HttpRequest request, RuntimeException failure, int status) {
            if (failure instanceof Refused refused && status == 405) {
                return new Response(status, refused.getMessage() + " for " + request.path());
            }
            if (failure instanceof Refused refused && status == 404) {
                return new Response(status, "not found: " + refused.getMessage());
            }
            return new Response(status, failure.getClass().getSimpleName() + ": " + failure.getMessage());
        }

        @Override
        public int status(Response response) {
            return response.status();
        }

        @Override
        public String otherMethodLabel(Route<RouteHandler<String>> route) {
            return "other " + route.method() + " " + route.path().template();
        }

        @Override
        public String variableForm(String segment) {
            return PathTemplate.decode(segment);
        }
    }
}

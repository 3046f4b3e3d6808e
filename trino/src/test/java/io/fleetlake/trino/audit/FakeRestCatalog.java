package io.fleetlake.trino.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * A stand-in for the Iceberg REST catalog behind {@link CatalogRestCalls}: serves one table's metadata and applies
 * {@code set-snapshot-ref} commits after checking {@code assert-table-uuid} and {@code assert-ref-snapshot-id} the way
 * Iceberg's {@code UpdateRequirement} does (409 with the same messages). Bound to 127.0.0.1 on a free port.
 */
final class FakeRestCatalog implements AutoCloseable {
    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpServer server;
    private final String tableName;
    private final String prefix;
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private ObjectNode metadata;
    private Consumer<ObjectNode> beforeNextCommit = metadata -> {};
    private int failNextRequestsWithStatus;

    FakeRestCatalog(String tableName, String prefix, ObjectNode metadata) throws IOException {
        this.tableName = tableName;
        this.prefix = prefix;
        this.metadata = metadata;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Method and path of every request, in order. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    synchronized ObjectNode metadata() {
        return metadata;
    }

    /** Lets "another process" change the table just before the next commit is checked. */
    synchronized void beforeNextCommit(Consumer<ObjectNode> change) {
        this.beforeNextCommit = change;
    }

    synchronized void failNextRequestsWithStatus(int status) {
        this.failNextRequestsWithStatus = status;
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            requests.add(method + " " + path);
            if (failNextRequestsWithStatus != 0) {
                respond(
                        exchange,
                        failNextRequestsWithStatus,
                        error("ServiceFailureException", "database is locked", failNextRequestsWithStatus));
                return;
            }
            String tablePath = "/v1/" + (prefix.isEmpty() ? "" : prefix + "/") + "namespaces/fleet/tables/" + tableName;
            if (method.equals("GET") && path.equals("/v1/config")) {
                ObjectNode config = mapper.createObjectNode();
                config.putObject("defaults");
                ObjectNode overrides = config.putObject("overrides");
                if (!prefix.isEmpty()) {
                    overrides.put("prefix", prefix);
                }
                respond(exchange, 200, config);
            } else if (!path.equals(tablePath)) {
                respond(exchange, 404, error("NoSuchTableException", "Table does not exist: " + path, 404));
            } else if (method.equals("GET")) {
                respond(exchange, 200, loadTableResult());
            } else if (method.equals("POST")) {
                commit(exchange, mapper.readTree(exchange.getRequestBody()));
            } else {
                respond(exchange, 405, error("BadRequestException", "Method not allowed", 405));
            }
        }
    }

    private void commit(HttpExchange exchange, JsonNode request) throws IOException {
        beforeNextCommit.accept(metadata);
        beforeNextCommit = metadata -> {};
        for (JsonNode requirement : request.path("requirements")) {
            String failure = check(requirement);
            if (failure != null) {
                respond(exchange, 409, error("CommitFailedException", failure, 409));
                return;
            }
        }
        ObjectNode updated = metadata.deepCopy();
        for (JsonNode update : request.path("updates")) {
            if (!update.path("action").asText().equals("set-snapshot-ref")) {
                respond(exchange, 400, error("BadRequestException", "Unsupported update " + update, 400));
                return;
            }
            ObjectNode ref = ((ObjectNode) updated.path("refs"))
                    .putObject(update.path("ref-name").asText());
            ref.put("snapshot-id", update.path("snapshot-id").asLong());
            ref.put("type", update.path("type").asText());
            if (update.has("max-ref-age-ms")) {
                ref.put("max-ref-age-ms", update.path("max-ref-age-ms").asLong());
            }
        }
        metadata = updated;
        respond(exchange, 200, loadTableResult());
    }

    private String check(JsonNode requirement) {
        switch (requirement.path("type").asText()) {
            case "assert-table-uuid" -> {
                String expected = metadata.path("table-uuid").asText();
                return expected.equals(requirement.path("uuid").asText())
                        ? null
                        : "Requirement failed: UUID does not match: expected " + expected + " != "
                                + requirement.path("uuid").asText();
            }
            case "assert-ref-snapshot-id" -> {
                String name = requirement.path("ref").asText();
                JsonNode ref = metadata.path("refs").path(name);
                JsonNode wanted = requirement.path("snapshot-id");
                if (ref.isMissingNode()) {
                    return wanted.isNull() ? null : "Requirement failed: branch or tag " + name + " is missing";
                }
                if (wanted.isNull()) {
                    return "Requirement failed: " + ref.path("type").asText() + " " + name
                            + " was created concurrently";
                }
                return wanted.asLong() == ref.path("snapshot-id").asLong()
                        ? null
                        : "Requirement failed: " + ref.path("type").asText() + " " + name + " has changed";
            }
            default -> {
                return "Unknown requirement " + requirement;
            }
        }
    }

    private ObjectNode loadTableResult() {
        ObjectNode result = mapper.createObjectNode();
        result.put("metadata-location", "s3://warehouse/fleet/" + tableName + "/metadata/00001.metadata.json");
        result.set("metadata", metadata.deepCopy());
        return result;
    }

    private ObjectNode error(String type, String message, int code) {
        ObjectNode body = mapper.createObjectNode();
        body.putObject("error").put("message", message).put("type", type).put("code", code);
        return body;
    }

    private void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = mapper.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream output = exchange.getResponseBody()) {
            output.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

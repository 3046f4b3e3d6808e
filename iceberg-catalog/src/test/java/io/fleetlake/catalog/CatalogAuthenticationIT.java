package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.catalog.CatalogTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog server on a free port with OAuth2 client credentials and roles, driven by Iceberg's own {@code
 * RESTCatalog} client as every component uses it, and by plain HTTP where a client would never send the request.
 */
class CatalogAuthenticationIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TableIdentifier POSITIONS = FleetTables.POSITIONS.identifier();
    private static final TableIdentifier SCRATCH = TableIdentifier.of("fleet", "scratch");
    private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

    @TempDir
    Path dataDirectory;

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Map<CatalogRole, CatalogCredential> credentials = new EnumMap<>(CatalogRole.class);
    private CatalogClients clients;
    private RestCatalogServer server;

    @BeforeEach
    void startServer() {
        clients = new CatalogClients(dataDirectory.resolve("clients.properties"));
        for (CatalogRole role : CatalogRole.values()) {
            IssuedSecret issued = clients.issue("it-" + role.label(), role);
            credentials.put(role, new CatalogCredential(issued.name(), issued.secret()));
        }
        server = start(Map.of());
    }

    @AfterEach
    void stopServer() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        server.close();
    }

    @Test
    void anonymousRequestsGet401WithTheSpecsErrorBodyAndOnlyTheHealthCheckAnswers() throws Exception {
        for (HttpResponse<String> response : List.of(
                send("GET", "/v1/config", null),
                send("GET", "/v1/namespaces/fleet/tables", null),
                send("DELETE", "/v1/namespaces/fleet/tables/positions?purgeRequested=true", null),
                send("GET", "/v1/no/such/path", null))) {
            assertThat(response.statusCode()).isEqualTo(401);
            ErrorResponse error = ErrorResponseParser.fromJson(response.body());
            assertThat(error.code()).isEqualTo(401);
            assertThat(error.type()).isEqualTo("NotAuthorizedException");
        }
        HttpResponse<String> health = send("GET", CatalogAuthentication.HEALTH_PATH, null);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("{\"status\":\"ok\"}");
        assertThat(send("GET", "/v1/namespaces", "Bearer not-a-token").statusCode())
                .isEqualTo(401);
        assertThat(client(CatalogRole.ADMIN).tableExists(POSITIONS)).isTrue();
    }

    @Test
    void aWrongSecretOrAnUnknownClientGetsNoToken() throws Exception {
        CatalogCredential admin = credentials.get(CatalogRole.ADMIN);

        assertThatThrownBy(() -> client(new CatalogCredential(admin.clientId(), "wrong-secret")))
                .isInstanceOf(NotAuthorizedException.class)
                .hasMessageContaining("invalid_client");
        assertThatThrownBy(() -> client(new CatalogCredential("it-nobody", admin.secret())))
                .isInstanceOf(NotAuthorizedException.class);
        HttpResponse<String> refused = tokenRequest(admin.clientId(), "wrong-secret");
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(refused.body()).path("error").asText()).isEqualTo("invalid_client");
        assertThat(refused.body()).doesNotContain(admin.secret());
    }

    @Test
    void theEleventhFailedTokenRequestFromAnAddressIs429EvenWithTheRightSecret() throws Exception {
        CatalogCredential reader = credentials.get(CatalogRole.READER);
        for (int attempt = 1; attempt <= 10; attempt++) {
            assertThat(tokenRequest(reader.clientId(), "guess-" + attempt).statusCode())
                    .as("attempt %s", attempt)
                    .isEqualTo(401);
        }
        HttpResponse<String> eleventh = tokenRequest(reader.clientId(), reader.secret());
        assertThat(eleventh.statusCode()).isEqualTo(429);
        assertThat(eleventh.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 900L));
        assertThat(JSON.readTree(eleventh.body()).path("error").asText()).isEqualTo("invalid_request");
        assertThat(eleventh.body()).doesNotContain("access_token");
        // Only token requests are limited: a client holding a token keeps working.
        assertThat(send("GET", "/healthz", null).statusCode()).isEqualTo(200);
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        HttpResponse<String> tooLarge = http.send(
                HttpRequest.newBuilder(URI.create(server.uri() + CatalogAuthentication.TOKENS_PATH))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofInputStream(
                                () -> new java.io.ByteArrayInputStream(new byte[(int) 16 * 1024 * 1024 + 1])))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(tooLarge.statusCode()).isEqualTo(413);
    }

    @Test
    void configuredLimitsApplyInsteadOfTheDefaults() throws Exception {
        server.close();
        server = start(Map.of(
                CatalogServerConfig.MAX_REQUEST_BYTES, "65536",
                CatalogServerConfig.TOKEN_MAX_FAILURES, "2",
                CatalogServerConfig.TOKEN_FAILURE_WINDOW, "1m"));

        // Far below the default 16 MiB, one byte over the configured limit.
        HttpResponse<String> tooLarge = http.send(
                HttpRequest.newBuilder(URI.create(server.uri() + CatalogAuthentication.TOKENS_PATH))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[65536 + 1]))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(ErrorResponseParser.fromJson(tooLarge.body()).message()).contains("65536 bytes");

        CatalogCredential reader = credentials.get(CatalogRole.READER);
        assertThat(tokenRequest(reader.clientId(), "guess-1").statusCode()).isEqualTo(401);
        assertThat(tokenRequest(reader.clientId(), "guess-2").statusCode()).isEqualTo(401);
        HttpResponse<String> third = tokenRequest(reader.clientId(), reader.secret());
        assertThat(third.statusCode()).isEqualTo(429);
        assertThat(third.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
    }

    @Test
    void aTokenAnswerIsTheSpecsBearerToken() throws Exception {
        CatalogCredential reader = credentials.get(CatalogRole.READER);

        HttpResponse<String> response = tokenRequest(reader.clientId(), reader.secret());

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode token = JSON.readTree(response.body());
        assertThat(token.path("token_type").asText()).isEqualToIgnoringCase("bearer");
        assertThat(token.path("issued_token_type").asText()).isEqualTo("urn:ietf:params:oauth:token-type:access_token");
        assertThat(token.path("expires_in").asInt()).isEqualTo(3600);
        assertThat(send(
                                "GET",
                                "/v1/namespaces",
                                "Bearer " + token.path("access_token").asText())
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void thePlainHttpClientsFetchAndReuseABearerToken() throws Exception {
        CatalogTokens tokens = new CatalogTokens(
                server.uri().toString(), credentials.get(CatalogRole.READER), http, Duration.ofSeconds(10));

        String authorization = tokens.authorization();

        assertThat(tokens.authorization()).isEqualTo(authorization);
        assertThat(send("GET", "/v1/namespaces/fleet/tables/positions", authorization)
                        .statusCode())
                .isEqualTo(200);
        CatalogTokens wrong = new CatalogTokens(
                server.uri().toString(),
                new CatalogCredential("it-reader", "wrong-secret"),
                http,
                Duration.ofSeconds(10));
        assertThatThrownBy(wrong::authorization)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("it-reader")
                .hasMessageNotContaining("wrong-secret");
    }

    @Test
    void aReaderReadsButCannotCreateCommitDropOrPurge() throws Exception {
        RESTCatalog reader = client(CatalogRole.READER);

        assertThat(reader.listTables(FleetTables.NAMESPACE)).contains(POSITIONS);
        Table positions = reader.loadTable(POSITIONS);
        assertThatThrownBy(() -> reader.createTable(SCRATCH, SCHEMA)).isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() ->
                        positions.updateProperties().set("owner", "reader").commit())
                .isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> reader.dropTable(POSITIONS, false)).isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> reader.dropTable(POSITIONS, true)).isInstanceOf(ForbiddenException.class);
        HttpResponse<String> purge =
                send("DELETE", "/v1/namespaces/fleet/tables/positions?purgeRequested=true", bearer(CatalogRole.READER));
        assertThat(purge.statusCode()).isEqualTo(403);
        assertThat(ErrorResponseParser.fromJson(purge.body()).type()).isEqualTo("ForbiddenException");
        assertThat(client(CatalogRole.ADMIN).tableExists(POSITIONS)).isTrue();
    }

    @Test
    void aWriterCreatesAndCommitsButCannotExpireOrDrop() {
        RESTCatalog writer = client(CatalogRole.WRITER);

        Table scratch = writer.createTable(SCRATCH, SCHEMA);
        scratch.newAppend().appendFile(dataFile(scratch, 1)).commit();
        scratch.newAppend().appendFile(dataFile(scratch, 2)).commit();
        scratch.updateProperties().set("owner", "writer").commit();
        long first = scratch.history().get(0).snapshotId();

        assertThat(writer.loadTable(SCRATCH).snapshots()).hasSize(2);
        assertThatThrownBy(
                        () -> scratch.expireSnapshots().expireSnapshotId(first).commit())
                .isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> writer.dropTable(SCRATCH, true)).isInstanceOf(ForbiddenException.class);
        assertThatThrownBy(() -> writer.renameTable(SCRATCH, TableIdentifier.of("fleet", "renamed")))
                .isInstanceOf(ForbiddenException.class);

        RESTCatalog maintainer = client(CatalogRole.MAINTAINER);
        maintainer.loadTable(SCRATCH).expireSnapshots().expireSnapshotId(first).commit();
        assertThat(maintainer.loadTable(SCRATCH).snapshots()).hasSize(1);
        assertThatThrownBy(() -> maintainer.dropTable(SCRATCH, false)).isInstanceOf(ForbiddenException.class);

        RESTCatalog admin = client(CatalogRole.ADMIN);
        admin.renameTable(SCRATCH, TableIdentifier.of("fleet", "renamed"));
        assertThat(admin.dropTable(TableIdentifier.of("fleet", "renamed"), true))
                .isTrue();
        assertThat(admin.tableExists(TableIdentifier.of("fleet", "renamed"))).isFalse();
    }

    @Test
    void aRevokedClientIsRefusedAtItsNextRequest() throws Exception {
        String token = bearer(CatalogRole.WRITER);
        assertThat(send("GET", "/v1/namespaces", token).statusCode()).isEqualTo(200);

        assertThat(clients.revoke(credentials.get(CatalogRole.WRITER).clientId()))
                .isTrue();

        assertThat(send("GET", "/v1/namespaces", token).statusCode()).isEqualTo(401);
        CatalogCredential writer = credentials.get(CatalogRole.WRITER);
        assertThat(tokenRequest(writer.clientId(), writer.secret()).statusCode())
                .isEqualTo(401);
    }

    @Test
    void aTokenExpiresAndIcebergsClientRefreshesItsOwn() throws Exception {
        server.close();
        server = start(Map.of(CatalogServerConfig.TOKEN_LIFETIME, "2s"));
        String token = bearer(CatalogRole.READER);
        RESTCatalog reader = client(CatalogRole.READER);
        assertThat(send("GET", "/v1/namespaces", token).statusCode()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> send("GET", "/v1/namespaces", token).statusCode() == 401);
        // Over several lifetimes of its token, the client keeps working: it exchanges the token before it expires.
        await().during(Duration.ofSeconds(5))
                .atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> reader.tableExists(POSITIONS));
    }

    private RestCatalogServer start(Map<String, String> overrides) {
        Map<String, String> properties = new HashMap<>(Map.of(
                CatalogServerConfig.PORT,
                "0",
                CatalogServerConfig.DATA_DIRECTORY,
                dataDirectory.toString(),
                CatalogServerConfig.WAREHOUSE,
                "memory://" + UUID.randomUUID() + "/warehouse",
                CatalogServerConfig.IO_IMPLEMENTATION,
                InMemoryFileIO.class.getName(),
                CatalogServerConfig.TOKEN_SIGNING_KEY,
                "catalog-authentication-it-signing-key"));
        properties.putAll(overrides);
        return new RestCatalogServer(CatalogServerConfig.from(ConfigSource.of(properties))).start();
    }

    private RESTCatalog client(CatalogRole role) {
        return client(credentials.get(role));
    }

    private RESTCatalog client(CatalogCredential credential) {
        Map<String, String> properties = new HashMap<>(Map.of(
                CatalogProperties.URI, server.uri().toString(),
                CatalogProperties.FILE_IO_IMPL, InMemoryFileIO.class.getName()));
        properties.putAll(CatalogAuthentication.clientProperties(server.uri().toString(), credential));
        RESTCatalog client = new RESTCatalog();
        client.initialize("it", properties);
        closeables.add(client);
        return client;
    }

    private String bearer(CatalogRole role) throws Exception {
        CatalogCredential credential = credentials.get(role);
        HttpResponse<String> response = tokenRequest(credential.clientId(), credential.secret());
        assertThat(response.statusCode()).isEqualTo(200);
        return "Bearer " + JSON.readTree(response.body()).path("access_token").asText();
    }

    private HttpResponse<String> tokenRequest(String clientId, String secret) throws IOException, InterruptedException {
        String form =
                "grant_type=client_credentials&client_id=" + clientId + "&client_secret=" + secret + "&scope=catalog";
        return http.send(
                HttpRequest.newBuilder(URI.create(server.uri() + CatalogAuthentication.TOKENS_PATH))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(String method, String path, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.uri() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static DataFile dataFile(Table table, int number) {
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/file-" + number + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(100)
                .withRecordCount(1)
                .build();
    }
}

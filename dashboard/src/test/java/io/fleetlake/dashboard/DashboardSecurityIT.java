package io.fleetlake.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.dashboard.health.HealthReader;
import io.fleetlake.dashboard.http.SecurityHeaders;
import io.fleetlake.dashboard.security.DashboardSecurityConfig;
import io.fleetlake.dashboard.security.SignIn;
import io.fleetlake.http.RequestObserver;
import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.dashboard.DashboardOperators;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's sign-in, CSRF protection, security headers and limits on the real server (loopback, free port),
 * driven over HTTP as a browser or a stranger would. Its backends point at closed ports: nothing here needs them.
 */
class DashboardSecurityIT {
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper mapper = new ObjectMapper();
    private final List<DashboardServer> servers = new java.util.ArrayList<>();

    @TempDir
    Path folder;

    private DashboardOperators operators;
    private IssuedSecret operator;
    private DashboardServer server;

    @BeforeEach
    void start() throws Exception {
        operators = new DashboardOperators(folder.resolve("operators.properties"));
        operator = operators.issue(DashboardOperators.OPERATOR);
        server = start(Map.of());
    }

    @AfterEach
    void stop() {
        servers.forEach(DashboardServer::close);
    }

    @Test
    void withoutASessionTheApiIs401AndThePageRedirectsToTheSignInForm() throws Exception {
        HttpResponse<String> api = get("/api/vehicles", "");
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(mapper.readTree(api.body()).path("error").asText()).isEqualTo("UNAUTHORIZED");
        assertThat(get("/api/session", "").statusCode()).isEqualTo(401);

        HttpResponse<String> page = http.send(
                HttpRequest.newBuilder(server.uri())
                        .header("Accept", "text/html,application/xhtml+xml")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).hasValue("/sign-in");
        // A script's or an image's request (a favicon) is not sent to the form, which would replace its token.
        assertThat(get("/dashboard.js", "").statusCode()).isEqualTo(401);

        assertThat(get("/healthz", "").statusCode()).isEqualTo(200);
        HttpResponse<String> form = get("/sign-in", "");
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("<form id=\"sign-in-form\" method=\"post\" action=\"/sign-in\">");

        // A made-up session id is no session.
        assertThat(get("/api/config", "fleet_session=made-up").statusCode()).isEqualTo(401);
    }

    @Test
    void theRightPasswordGivesAStrictHttpOnlySessionCookieAndTheWrongOneNothing() throws Exception {
        SignIn.Attempt wrong = SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, "not-the-password");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.response().body()).contains("Wrong user name or password.");
        assertThat(wrong.response().headers().allValues("Set-Cookie"))
                .noneMatch(cookie -> cookie.startsWith("fleet_session="));
        assertThat(SignIn.as(http, server.uri(), "nobody", operator.secret()).status())
                .isEqualTo(401);

        SignIn.Attempt right = SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, operator.secret());
        assertThat(right.status()).isEqualTo(303);
        assertThat(right.response().headers().firstValue("Location")).hasValue("/");
        assertThat(right.response().headers().firstValue("Set-Cookie").orElseThrow())
                .matches("fleet_session=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict")
                .doesNotContain("Secure");
        String session = right.sessionCookie();

        assertThat(get("/api/config", session).statusCode()).isEqualTo(200);
        HttpResponse<String> page = get("/", session);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Fleet operations</title>");
        JsonNode who = mapper.readTree(get("/api/session", session).body());
        assertThat(who.path("user").asText()).isEqualTo(DashboardOperators.OPERATOR);
        assertThat(who.path("csrf_token").asText()).hasSize(43);
    }

    @Test
    void theEleventhFailedSignInFromAnAddressIs429EvenWithTheRightPassword() throws Exception {
        for (int attempt = 1; attempt <= 10; attempt++) {
            assertThat(SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, "guess-" + attempt)
                            .status())
                    .as("attempt %s", attempt)
                    .isEqualTo(401);
        }
        SignIn.Attempt eleventh = SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, operator.secret());
        assertThat(eleventh.status()).isEqualTo(429);
        assertThat(eleventh.response().headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 900L));
        assertThat(eleventh.response().headers().allValues("Set-Cookie"))
                .noneMatch(cookie -> cookie.startsWith("fleet_session="));
    }

    @Test
    void aSecondRequestForTheFormKeepsTheTokenOfTheFirst() throws Exception {
        HttpResponse<String> first = get("/sign-in", "");
        String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
        String signInCookie = cookie.substring(0, cookie.indexOf(';'));
        HttpResponse<String> second = get("/sign-in", signInCookie);
        assertThat(second.headers().firstValue("Set-Cookie").orElseThrow()).startsWith(signInCookie + ";");
        String token = signInCookie.substring(signInCookie.indexOf('=') + 1);
        assertThat(first.body()).contains("value=\"" + token + "\"");
        assertThat(second.body()).contains("value=\"" + token + "\"");
    }

    @Test
    void aSignInWithoutTheFormsTokenIsRefused() throws Exception {
        HttpResponse<String> forged =
                SignIn.post(http, server.uri(), "", "user=operator&password=" + operator.secret() + "&csrf=guessed");
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.headers().allValues("Set-Cookie")).noneMatch(cookie -> cookie.startsWith("fleet_session="));
    }

    @Test
    void aForgedPostWithoutTheCsrfTokenIs403AndTheRealSignOutEndsTheSession() throws Exception {
        String session = SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, operator.secret())
                .sessionCookie();

        // What another site's form would send: the cookie (a browser without SameSite), no token.
        HttpResponse<String> forged = post("/sign-out", session, Map.of(), "");
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(mapper.readTree(forged.body()).path("error").asText()).isEqualTo("CSRF_TOKEN_MISSING");
        assertThat(post("/sign-out", session, Map.of(), "csrf=guessed").statusCode())
                .isEqualTo(403);
        assertThat(post("/api/vehicles", session, Map.of("X-CSRF-Token", "guessed"), "")
                        .statusCode())
                .isEqualTo(403);
        assertThat(get("/api/config", session).statusCode())
                .as("still signed in")
                .isEqualTo(200);

        String token = SignIn.csrfToken(http, server.uri(), session);
        assertThat(post("/api/vehicles", session, Map.of("X-CSRF-Token", token), "")
                        .statusCode())
                .as("the token passes; the route itself is read-only")
                .isEqualTo(405);
        HttpResponse<String> signOut = post("/sign-out", session, Map.of(), "csrf=" + token);
        assertThat(signOut.statusCode()).isEqualTo(303);
        assertThat(signOut.headers().firstValue("Set-Cookie"))
                .hasValueSatisfying(cookie ->
                        assertThat(cookie).startsWith("fleet_session=;").contains("Max-Age=0"));
        assertThat(get("/api/config", session).statusCode()).isEqualTo(401);
    }

    @Test
    void aNewPasswordEndsTheSessionsSignedInWithTheOldOne() throws Exception {
        String session = SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, operator.secret())
                .sessionCookie();
        assertThat(get("/api/config", session).statusCode()).isEqualTo(200);

        IssuedSecret rotated = operators.issue(DashboardOperators.OPERATOR);

        assertThat(get("/api/config", session).statusCode()).isEqualTo(401);
        assertThat(SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, operator.secret())
                        .status())
                .isEqualTo(401);
        assertThat(SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, rotated.secret())
                        .status())
                .isEqualTo(303);
    }

    @Test
    void everyResponseCarriesTheSecurityHeaders() throws Exception {
        String session = SignIn.as(http, server.uri(), DashboardOperators.OPERATOR, operator.secret())
                .sessionCookie();
        for (HttpResponse<String> response : List.of(
                get("/", session),
                get("/dashboard.js", session),
                get("/api/vehicles", ""),
                get("/sign-in", ""),
                get("/healthz", ""),
                get("/nowhere", session),
                post("/sign-out", session, Map.of(), ""))) {
            assertThat(response.headers().firstValue("Content-Security-Policy"))
                    .as("%s", response.uri())
                    .hasValue(SecurityHeaders.CONTENT_SECURITY_POLICY);
            assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
            assertThat(response.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        }
        assertThat(SecurityHeaders.CONTENT_SECURITY_POLICY)
                .contains("frame-ancestors 'none'")
                .contains("script-src 'self';")
                .doesNotContain("unsafe-inline");
    }

    @Test
    void aBodyOverTheLimitIs413DeclaredOrChunked() throws Exception {
        String big = "user=operator&password=" + "x".repeat(17 * 1024);
        HttpResponse<String> declared = SignIn.post(http, server.uri(), "", big);
        assertThat(declared.statusCode()).isEqualTo(413);

        HttpResponse<String> chunked = http.send(
                HttpRequest.newBuilder(server.uri().resolve("/sign-in"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofInputStream(
                                () -> new java.io.ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(mapper.readTree(chunked.body()).path("error").asText()).isEqualTo("PAYLOAD_TOO_LARGE");
    }

    @Test
    void beyondTheConcurrencyLimitARequestIs503AtOnce() throws Exception {
        DashboardServer one = start(Map.of(DashboardSecurityConfig.MAX_CONCURRENT_REQUESTS, "1"));
        try (Socket slow = new Socket(InetAddress.getLoopbackAddress(), one.port())) {
            // Declares a body it never sends: the server holds the request's permit while it waits for it.
            OutputStream out = slow.getOutputStream();
            out.write(("POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n"
                            + "Content-Type: application/x-www-form-urlencoded\r\n\r\nuser=")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                HttpResponse<String> busy = http.send(
                        HttpRequest.newBuilder(one.uri().resolve("/healthz"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(busy.statusCode()).isEqualTo(503);
                assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(mapper.readTree(busy.body()).path("error").asText()).isEqualTo("TOO_BUSY");
            });
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> http.send(
                                        HttpRequest.newBuilder(one.uri().resolve("/healthz"))
                                                .GET()
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .statusCode()
                        == 200);
    }

    @Test
    void theSessionCookieIsSecureWhenServedOverTls() throws Exception {
        DashboardServer behindTls = start(Map.of(DashboardSecurityConfig.SECURE_COOKIE, "true"));
        SignIn.Attempt attempt = SignIn.as(http, behindTls.uri(), DashboardOperators.OPERATOR, operator.secret());
        assertThat(attempt.response().headers().firstValue("Set-Cookie").orElseThrow())
                .endsWith("; HttpOnly; SameSite=Strict; Secure");
    }

    private DashboardServer start(Map<String, String> security) throws Exception {
        Map<String, String> values = new HashMap<>(Map.of(
                "dashboard.port",
                "0",
                // Closed ports: the security checks come before any backend is asked.
                "dashboard.redis-uri",
                "redis://127.0.0.1:" + closedPort(),
                "dashboard.trino-jdbc-url",
                "jdbc:trino://127.0.0.1:" + closedPort() + "/iceberg",
                "dashboard.trino-password",
                "never-used-trino-password",
                "dashboard.flink-rest-uri",
                "http://127.0.0.1:" + closedPort(),
                DashboardSecurityConfig.USERS_FILE,
                operators.path().toString()));
        values.putAll(security);
        ConfigSource source = ConfigSource.of(values);
        DashboardServer started = new DashboardServer(
                        DashboardConfig.from(source),
                        DashboardSecurityConfig.from(source),
                        HealthReader.NOT_CONFIGURED,
                        RequestObserver.NONE)
                .start();
        servers.add(started);
        return started;
    }

    private HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(server.uri().resolve(path)).GET();
        if (!cookie.isEmpty()) {
            request.header("Cookie", cookie);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String cookie, Map<String, String> headers, String form)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.uri() + path.substring(1)))
                .header("Cookie", cookie)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}

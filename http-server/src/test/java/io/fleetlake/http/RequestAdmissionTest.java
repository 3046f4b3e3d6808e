package io.fleetlake.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admission on a real {@link JavalinServer} (loopback, free port), as an adapter uses it: its refusals are written by
 * the test's own writer ({@code refused <REFUSAL>} with the refusal's status), an admitted request echoes its body.
 */
class RequestAdmissionTest {
    private static final long MAX_BYTES = 1024;

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<RequestAdmission.Refusal> refusals = new CopyOnWriteArrayList<>();
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private JavalinServer server;

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void limitsMustBePositive() {
        assertThatThrownBy(() -> new RequestLimits(0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxRequestBytes must be at least 1, was 0");
        assertThatThrownBy(() -> new RequestLimits(1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConcurrentRequests must be at least 1, was 0");
    }

    @Test
    void anAdmittedRequestGetsItsWholeBody() throws Exception {
        start(new RequestLimits(MAX_BYTES, 2));
        String body = "x".repeat((int) MAX_BYTES);

        HttpResponse<String> declared = post("/echo", HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> chunked = post("/echo", chunked(body));

        assertThat(declared.statusCode()).isEqualTo(200);
        assertThat(declared.body()).isEqualTo(body);
        assertThat(chunked.statusCode()).isEqualTo(200);
        assertThat(chunked.body()).isEqualTo(body);
        assertThat(refusals).isEmpty();
    }

    @Test
    void aBodyOverTheLimitIsRefusedDeclaredOrChunked() throws Exception {
        start(new RequestLimits(MAX_BYTES, 2));
        String body = "x".repeat((int) MAX_BYTES + 1);

        HttpResponse<String> declared = post("/echo", HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> chunked = post("/echo", chunked(body));

        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(declared.body()).isEqualTo("refused TOO_LARGE");
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(chunked.body()).isEqualTo("refused TOO_LARGE");
        assertThat(refusals).containsExactly(RequestAdmission.Refusal.TOO_LARGE, RequestAdmission.Refusal.TOO_LARGE);
    }

    @Test
    void javalinsOwnBodyReadingIsBoundedToo() throws Exception {
        start(new RequestLimits(MAX_BYTES, 2));

        HttpResponse<String> declared =
                post("/javalin-body", HttpRequest.BodyPublishers.ofString("x".repeat((int) MAX_BYTES + 1)));

        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(refusals).isEmpty();
    }

    @Test
    void aBodyShorterThanDeclaredIsRefusedAsUnreadable() throws Exception {
        start(new RequestLimits(MAX_BYTES, 2));
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            OutputStream out = client.getOutputStream();
            out.write("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nshort"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            client.shutdownOutput();

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(refusals).containsExactly(RequestAdmission.Refusal.UNREADABLE));
        }
    }

    @Test
    void withEveryPermitTakenARequestIsRefusedAtOnceWithRetryAfterAndServedOnceOneIsFree() throws Exception {
        start(new RequestLimits(MAX_BYTES, 1));
        CompletableFuture<HttpResponse<String>> held = http.sendAsync(
                HttpRequest.newBuilder(uri("/hold")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        HttpResponse<String> busy = post("/echo", HttpRequest.BodyPublishers.ofString("hello"));

        assertThat(busy.statusCode()).isEqualTo(503);
        assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(busy.body()).isEqualTo("refused TOO_BUSY");
        assertThat(refusals).containsExactly(RequestAdmission.Refusal.TOO_BUSY);

        release.countDown();
        assertThat(held.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        // The held request's permit is back: the next one is served.
        assertThat(post("/echo", HttpRequest.BodyPublishers.ofString("hello")).body())
                .isEqualTo("hello");
    }

    @Test
    void aClosedServerNoLongerListens() throws Exception {
        start(new RequestLimits(MAX_BYTES, 1));
        assertThat(post("/echo", HttpRequest.BodyPublishers.ofString("open")).body())
                .isEqualTo("open");

        URI echo = uri("/echo");

        server.close();

        assertThatThrownBy(() -> http.send(
                        HttpRequest.newBuilder(echo)
                                .POST(HttpRequest.BodyPublishers.ofString("closed"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void aPermitIsReleasedWhenTheHandlerThrows() throws Exception {
        start(new RequestLimits(MAX_BYTES, 1));

        assertThat(post("/fail", HttpRequest.BodyPublishers.noBody()).statusCode())
                .isEqualTo(500);
        assertThat(post("/echo", HttpRequest.BodyPublishers.ofString("after")).body())
                .isEqualTo("after");
        assertThat(refusals).isEmpty();
    }

    private void start(RequestLimits limits) {
        RequestAdmission admission = new RequestAdmission(limits);
        server = JavalinServer.start("127.0.0.1", 0, admission, routing -> {
            routing.addHttpHandler(
                    HandlerType.POST,
                    "/echo",
                    context -> admission.serve(context, refuse(context), () -> admission
                            .body(context, refuse(context))
                            .ifPresent(context::result)));
            routing.addHttpHandler(
                    HandlerType.GET,
                    "/hold",
                    context -> admission.serve(context, refuse(context), () -> {
                        entered.countDown();
                        awaitRelease();
                        context.result("held");
                    }));
            // A handler that reads the body through Javalin rather than through the admission.
            routing.addHttpHandler(HandlerType.POST, "/javalin-body", context -> context.result(context.body()));
            routing.addHttpHandler(
                    HandlerType.POST,
                    "/fail",
                    context -> admission.serve(context, refuse(context), () -> {
                        throw new IllegalStateException("the handler failed");
                    }));
        });
    }

    /** The test's refusal writer: records the refusal and answers its status. */
    private Consumer<RequestAdmission.Refusal> refuse(Context context) {
        return refused -> {
            refusals.add(refused);
            context.status(refused.status()).result("refused " + refused.name());
        };
    }

    private void awaitRelease() {
        try {
            if (!release.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The test never released the held request");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> post(String path, HttpRequest.BodyPublisher body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).POST(body).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.BodyPublisher chunked(String body) {
        // A stream publisher declares no length: the body is sent chunked.
        return HttpRequest.BodyPublishers.ofInputStream(
                () -> new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}

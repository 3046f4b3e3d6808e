package io.fleetlake.dashboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Signs in to a running dashboard as a browser does: the form, its sign-in token and cookie, then the post. */
public final class SignIn {
    private static final Pattern TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private SignIn() {}

    /** A sign-in attempt's answer, and the cookie of the session when it succeeded. */
    public record Attempt(HttpResponse<String> response) {
        public int status() {
            return response.statusCode();
        }

        /** {@code fleet_session=<id>}, for a {@code Cookie} header. */
        public String sessionCookie() {
            assertThat(response.statusCode()).as("sign-in status").isEqualTo(303);
            String setCookie = response.headers().firstValue("Set-Cookie").orElseThrow();
            assertThat(setCookie).startsWith(SignInGate.SESSION_COOKIE + "=");
            return setCookie.substring(0, setCookie.indexOf(';'));
        }
    }

    /** Signs in; asserting nothing about the outcome. */
    public static Attempt as(HttpClient http, URI base, String user, String password) throws Exception {
        HttpResponse<String> form = http.send(
                HttpRequest.newBuilder(base.resolve("/sign-in")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(form.statusCode()).isEqualTo(200);
        Matcher token = TOKEN.matcher(form.body());
        assertThat(token.find()).as("the sign-in form's token").isTrue();
        String signInCookie = form.headers().firstValue("Set-Cookie").orElseThrow();
        return new Attempt(post(
                http,
                base,
                signInCookie.substring(0, signInCookie.indexOf(';')),
                "user=" + encode(user) + "&password=" + encode(password) + "&csrf=" + encode(token.group(1))));
    }

    /** Posts a sign-in form with the given cookie header and body. */
    public static HttpResponse<String> post(HttpClient http, URI base, String cookie, String form) throws Exception {
        return http.send(
                HttpRequest.newBuilder(base.resolve("/sign-in"))
                        .header("Cookie", cookie)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The session's CSRF token, as the page reads it. */
    public static String csrfToken(HttpClient http, URI base, String sessionCookie) throws Exception {
        HttpResponse<String> session = http.send(
                HttpRequest.newBuilder(base.resolve("/api/session"))
                        .header("Cookie", sessionCookie)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(session.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(session.body()).path("csrf_token").asText();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}

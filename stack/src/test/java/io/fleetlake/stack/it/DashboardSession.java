package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.identity.dashboard.DashboardOperators;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackDashboardIdentity;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Signs in to the stack's dashboard over HTTP as the operator, with the password the stack generated for its data
 * folder: the form, its sign-in token and cookie, then the post. For the tests that call the dashboard's API.
 */
final class DashboardSession {
    private static final Pattern TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private DashboardSession() {}

    /** The {@code Cookie} header value of a new session. */
    static String signIn(HttpClient http, StackSettings settings) throws Exception {
        String password = StackDashboardIdentity.of(settings)
                .generatedPassword()
                .orElseThrow(() -> new AssertionError("The stack generated no dashboard password"));
        URI base = URI.create(settings.dashboardUri() + "/");
        HttpResponse<String> form = http.send(
                HttpRequest.newBuilder(base.resolve("sign-in")).GET().build(), HttpResponse.BodyHandlers.ofString());
        Matcher token = TOKEN.matcher(form.body());
        assertThat(token.find()).as("the sign-in form's token").isTrue();
        String signInCookie = form.headers().firstValue("Set-Cookie").orElseThrow();
        HttpResponse<String> signedIn = http.send(
                HttpRequest.newBuilder(base.resolve("sign-in"))
                        .header("Cookie", signInCookie.substring(0, signInCookie.indexOf(';')))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("user=" + DashboardOperators.OPERATOR
                                + "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8) + "&csrf="
                                + URLEncoder.encode(token.group(1), StandardCharsets.UTF_8)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).as("sign-in").isEqualTo(303);
        String session = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        return session.substring(0, session.indexOf(';'));
    }
}

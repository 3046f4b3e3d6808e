package io.fleetlake.dashboard.security;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The sign-in form, {@code /dashboard/sign-in.html} with its sign-in token and message filled in (HTML-escaped). */
final class SignInPage {
    private static final String RESOURCE = "/dashboard/sign-in.html";

    private final String template;

    private SignInPage(String template) {
        this.template = template;
    }

    static SignInPage load() {
        try (InputStream in = SignInPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "Resource " + RESOURCE + " is missing: the dashboard jar is incomplete");
            }
            return new SignInPage(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read resource " + RESOURCE, e);
        }
    }

    String render(String signInToken, String message) {
        requireNonNull(signInToken, "signInToken is null");
        requireNonNull(message, "message is null");
        return template.replace("{{sign-in-token}}", escape(signInToken))
                .replace("{{message}}", escape(message))
                .replace("{{message-hidden}}", message.isEmpty() ? "hidden" : "");
    }

    static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}

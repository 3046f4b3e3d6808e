package io.fleetlake.deployment;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compose's variable substitution in a value: {@code $$} is a literal {@code $}; {@code $NAME} and {@code ${NAME}};
 * {@code ${NAME:-default}} and {@code ${NAME-default}}; {@code ${NAME:?message}} and {@code ${NAME?message}}. Stricter
 * than Compose: a variable that is not set and has no default is an error instead of an empty string, so that a
 * variable missing from {@code .env.example} fails the checks.
 */
final class ComposeInterpolation {
    private static final Pattern BRACED = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])(.*))?", Pattern.DOTALL);
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Map<String, String> variables;

    ComposeInterpolation(Map<String, String> variables) {
        this.variables = Map.copyOf(requireNonNull(variables, "variables is null"));
    }

    /** @throws IllegalArgumentException when a variable without default is not set, naming it */
    String interpolate(String text) {
        return substitute(text, this::resolve);
    }

    /** The names of the variables {@code text} refers to. */
    static Set<String> referencedVariables(String text) {
        Set<String> names = new TreeSet<>();
        substitute(text, reference -> {
            names.add(reference.name());
            return "";
        });
        return names;
    }

    private String resolve(Reference reference) {
        String value = variables.get(reference.name());
        boolean present = reference.operator().startsWith(":") ? value != null && !value.isEmpty() : value != null;
        if (present) {
            return value;
        }
        return switch (reference.operator()) {
            case ":-", "-" -> reference.argument();
            case ":?", "?" ->
                throw new IllegalArgumentException(
                        "Variable " + reference.name() + " is not set: " + reference.argument());
            default ->
                throw new IllegalArgumentException("Variable " + reference.name()
                        + " is not set and has no default: add it to " + Repository.ENVIRONMENT_EXAMPLE);
        };
    }

    private static String substitute(String text, Function<Reference, String> resolver) {
        StringBuilder result = new StringBuilder();
        int index = 0;
        while (index < text.length()) {
            char character = text.charAt(index);
            if (character != '$' || index + 1 == text.length()) {
                result.append(character);
                index++;
            } else if (text.charAt(index + 1) == '$') {
                result.append('$');
                index += 2;
            } else if (text.charAt(index + 1) == '{') {
                int end = text.indexOf('}', index + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("Unclosed ${ in: " + text);
                }
                Matcher matcher = BRACED.matcher(text.substring(index + 2, end));
                if (!matcher.matches()) {
                    throw new IllegalArgumentException("Invalid substitution " + text.substring(index, end + 1));
                }
                String operator = matcher.group(2) == null ? "" : matcher.group(2);
                String argument = matcher.group(3) == null ? "" : matcher.group(3);
                result.append(resolver.apply(new Reference(matcher.group(1), operator, argument)));
                index = end + 1;
            } else {
                Matcher matcher = NAME.matcher(text).region(index + 1, text.length());
                if (matcher.lookingAt()) {
                    result.append(resolver.apply(new Reference(matcher.group(), "", "")));
                    index = matcher.end();
                } else {
                    result.append(character);
                    index++;
                }
            }
        }
        return result.toString();
    }

    /** One {@code ${...}}: the variable, the operator ({@code ""}, {@code :-}, {@code -}, {@code :?}, {@code ?}). */
    private record Reference(String name, String operator, String argument) {}
}

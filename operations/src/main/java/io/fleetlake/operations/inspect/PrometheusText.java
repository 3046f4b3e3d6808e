package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a component's metrics endpoint (Prometheus text format 0.0.4): each sample's name, labels and value. Enough
 * for the samples our components and the JMX exporter write; comments and timestamps are skipped.
 */
public final class PrometheusText {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    private PrometheusText() {}

    /**
     * The samples served at {@code uri}.
     *
     * @throws InspectionException when the endpoint does not answer 200
     */
    public static List<Sample> scrape(URI uri) {
        requireNonNull(uri, "uri is null");
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new InspectionException("GET " + uri + " answered " + response.statusCode());
            }
            return parse(response.body());
        } catch (IOException e) {
            throw new InspectionException("Cannot read the metrics at " + uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InspectionException("Interrupted while reading the metrics at " + uri, e);
        }
    }

    /** The samples of a text-format document. */
    public static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            samples.add(parseLine(trimmed));
        }
        return samples;
    }

    private static Sample parseLine(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        String name;
        Map<String, String> labels = new LinkedHashMap<>();
        String rest;
        if (brace >= 0 && (space < 0 || brace < space)) {
            name = line.substring(0, brace);
            int index = brace + 1;
            while (line.charAt(index) != '}') {
                int equals = line.indexOf('=', index);
                String label = line.substring(index, equals).trim();
                StringBuilder value = new StringBuilder();
                int position = equals + 2; // after ="
                while (line.charAt(position) != '"') {
                    char character = line.charAt(position);
                    if (character == '\\') {
                        char escaped = line.charAt(++position);
                        value.append(escaped == 'n' ? '\n' : escaped);
                    } else {
                        value.append(character);
                    }
                    position++;
                }
                labels.put(label, value.toString());
                index = position + 1;
                if (line.charAt(index) == ',') {
                    index++;
                }
            }
            rest = line.substring(index + 1).trim();
        } else {
            name = line.substring(0, space);
            rest = line.substring(space + 1).trim();
        }
        String value = rest.split("\\s+")[0];
        return new Sample(name, labels, parseValue(value));
    }

    private static double parseValue(String value) {
        return switch (value) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(value);
        };
    }

    /** One sample: a series' name, labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {
        public Sample {
            requireNonNull(name, "name is null");
            labels = Map.copyOf(requireNonNull(labels, "labels is null"));
        }

        public Optional<String> label(String label) {
            return Optional.ofNullable(labels.get(label));
        }
    }
}

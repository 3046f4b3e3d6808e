package io.fleetlake.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class PathTemplateTest {
    private static final PathTemplate ROUTE = PathTemplate.of("/v1/vehicles/{vehicle_id}/route");

    @Test
    void segmentsIgnoreLeadingAndTrailingSlashes() {
        assertThat(PathTemplate.segments("//v1/config/")).containsExactly("v1", "config");
        assertThat(PathTemplate.segments("/")).isEmpty();
        assertThat(PathTemplate.segments("/a//b")).containsExactly("a", "", "b");
    }

    @Test
    void bindsVariablesAndComparesFixedSegments() {
        assertThat(ROUTE.match(PathTemplate.segments("/v1/vehicles/VH-7/route")))
                .contains(Map.of("vehicle_id", "VH-7"));
        assertThat(ROUTE.match(PathTemplate.segments("/v1/vehicles/VH-7/stops")))
                .isEmpty();
        assertThat(ROUTE.match(PathTemplate.segments("/v1/vehicles/VH-7"))).isEmpty();
        assertThat(ROUTE.template()).isEqualTo("/v1/vehicles/{vehicle_id}/route");
    }

    @Test
    void withoutDecodingSegmentsAreComparedRaw() {
        assertThat(ROUTE.match(List.of("v1", "vehicles", "VH%207", "route"))).contains(Map.of("vehicle_id", "VH%207"));
        assertThat(ROUTE.match(List.of("v%31", "vehicles", "VH", "route"))).isEmpty();
    }

    @Test
    void decodingAppliesWhereAsked() {
        UnaryOperator<String> identity = UnaryOperator.identity();

        assertThat(ROUTE.match(List.of("v1", "vehicles", "VH%2F1+2", "route"), identity, PathTemplate::decode))
                .contains(Map.of("vehicle_id", "VH/1+2"));
        assertThat(ROUTE.match(List.of("v%31", "vehicles", "VH", "route"), PathTemplate::decode, PathTemplate::decode))
                .contains(Map.of("vehicle_id", "VH"));
        // A malformed escape in a fixed position is only compared, never decoded, unless asked.
        assertThat(ROUTE.match(List.of("%zz", "vehicles", "VH", "route"), identity, PathTemplate::decode))
                .isEmpty();
    }

    @Test
    void aMalformedEscapeIsRefused() {
        assertThatThrownBy(() -> PathTemplate.decode("%zz")).isInstanceOf(IllegalArgumentException.class);
    }
}

package io.fleetlake.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryParametersTest {
    @Test
    void theFirstValueOfEachInTheQuerysOrder() {
        Map<String, List<String>> query = new LinkedHashMap<>();
        query.put("limit", List.of("10", "20"));
        query.put("empty", List.of());
        query.put("after", List.of("VH-1"));

        assertThat(QueryParameters.firstValues(query)).containsExactly(entry("limit", "10"), entry("after", "VH-1"));
    }
}

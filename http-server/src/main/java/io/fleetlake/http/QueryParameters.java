package io.fleetlake.http;

import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The query parameters of a request as the servers' routers read them. */
public final class QueryParameters {
    private QueryParameters() {}

    /** The first value of each query parameter, in the order of the query; a parameter without a value is left out. */
    public static Map<String, String> firstValues(Context context) {
        return firstValues(context.queryParamMap());
    }

    static Map<String, String> firstValues(Map<String, List<String>> parameters) {
        Map<String, String> first = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> entry : parameters.entrySet()) {
            if (!entry.getValue().isEmpty()) {
                first.put(entry.getKey(), entry.getValue().get(0));
            }
        }
        return first;
    }
}

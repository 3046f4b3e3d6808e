package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.http.FormFields;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTUtil;

/** A request matched to a route: its path variables, query parameters and body, decoded as the spec says. */
final class RouteRequest {
    /** Multi-level namespaces arrive joined by the spec's default separator; this server does not override it. */
    static final String NAMESPACE_SEPARATOR = RESTCatalogProperties.NAMESPACE_SEPARATOR_DEFAULT;

    private final Map<String, String> pathVariables;
    private final Map<String, String> queryParameters;
    private final String body;
    private final Optional<String> authorization;
    private final ObjectMapper mapper;

    RouteRequest(
            Map<String, String> pathVariables, Map<String, String> queryParameters, String body, ObjectMapper mapper) {
        this(pathVariables, queryParameters, body, Optional.empty(), mapper);
    }

    RouteRequest(
            Map<String, String> pathVariables,
            Map<String, String> queryParameters,
            String body,
            Optional<String> authorization,
            ObjectMapper mapper) {
        this.pathVariables = Map.copyOf(requireNonNull(pathVariables, "pathVariables is null"));
        this.queryParameters = Map.copyOf(requireNonNull(queryParameters, "queryParameters is null"));
        this.body = requireNonNull(body, "body is null");
        this.authorization = requireNonNull(authorization, "authorization is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
    }

    /** The request's {@code Authorization} header, for the token endpoint's HTTP Basic credentials. */
    Optional<String> authorization() {
        return authorization;
    }

    /**
     * The body as {@code application/x-www-form-urlencoded} fields, decoded; the first value of each. The token
     * endpoint's requests are forms.
     */
    Map<String, String> form() {
        try {
            return FormFields.decode(body);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
    }

    /** The namespace in the {@code {namespace}} path segment. */
    Namespace namespace() {
        return RESTUtil.decodeNamespace(pathVariable("namespace"), NAMESPACE_SEPARATOR);
    }

    /** The table in the {@code {namespace}} and {@code {table}} path segments. */
    TableIdentifier table() {
        return TableIdentifier.of(namespace(), RESTUtil.decodeString(pathVariable("table")));
    }

    /** The view in the {@code {namespace}} and {@code {view}} path segments. */
    TableIdentifier view() {
        return TableIdentifier.of(namespace(), RESTUtil.decodeString(pathVariable("view")));
    }

    Optional<String> query(String name) {
        return Optional.ofNullable(queryParameters.get(name));
    }

    /**
     * The body parsed as the given request type and validated.
     *
     * @throws BadRequestException when the body is missing, is not JSON or does not describe a valid request
     */
    <T extends RESTRequest> T body(Class<T> type) {
        if (body.isBlank()) {
            throw new BadRequestException("Missing request body: expected a %s", type.getSimpleName());
        }
        T request;
        try {
            request = mapper.readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new BadRequestException(e, "Invalid %s: %s", type.getSimpleName(), e.getOriginalMessage());
        }
        if (request == null) {
            throw new BadRequestException("Invalid %s: the body is JSON null", type.getSimpleName());
        }
        request.validate();
        return request;
    }

    private String pathVariable(String name) {
        String value = pathVariables.get(name);
        if (value == null) {
            throw new IllegalStateException("Route has no path variable " + name);
        }
        return value;
    }
}

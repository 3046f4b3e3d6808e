package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.http.FormFields;
import io.fleetlake.http.RouteRequest;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTUtil;

/**
 * A request matched to a catalog route, as Iceberg's handlers read it: the shared {@link RouteRequest} (raw path
 * variables, query parameters, body) decoded as the REST spec says, and the {@code Authorization} header the token
 * endpoint reads.
 */
final class IcebergRequest {
    /** Multi-level namespaces arrive joined by the spec's default separator; this server does not override it. */
    static final String NAMESPACE_SEPARATOR = RESTCatalogProperties.NAMESPACE_SEPARATOR_DEFAULT;

    private final RouteRequest request;
    private final Optional<String> authorization;
    private final ObjectMapper mapper;

    IcebergRequest(RouteRequest request, Optional<String> authorization, ObjectMapper mapper) {
        this.request = requireNonNull(request, "request is null");
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
            return FormFields.decode(request.body());
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
    }

    /** The namespace in the {@code {namespace}} path segment. */
    Namespace namespace() {
        return RESTUtil.decodeNamespace(request.pathVariable("namespace"), NAMESPACE_SEPARATOR);
    }

    /** The table in the {@code {namespace}} and {@code {table}} path segments. */
    TableIdentifier table() {
        return TableIdentifier.of(namespace(), RESTUtil.decodeString(request.pathVariable("table")));
    }

    /** The view in the {@code {namespace}} and {@code {view}} path segments. */
    TableIdentifier view() {
        return TableIdentifier.of(namespace(), RESTUtil.decodeString(request.pathVariable("view")));
    }

    Optional<String> query(String name) {
        // Raw, not trimmed: a client's empty page token is its own value.
        return Optional.ofNullable(request.queryParameters().get(name));
    }

    /**
     * The body parsed as the given request type and validated.
     *
     * @throws BadRequestException when the body is missing, is not JSON or does not describe a valid request
     */
    <T extends RESTRequest> T body(Class<T> type) {
        String body = request.body();
        if (body.isBlank()) {
            throw new BadRequestException("Missing request body: expected a %s", type.getSimpleName());
        }
        T parsed;
        try {
            parsed = mapper.readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new BadRequestException(e, "Invalid %s: %s", type.getSimpleName(), e.getOriginalMessage());
        }
        if (parsed == null) {
            throw new BadRequestException("Invalid %s: the body is JSON null", type.getSimpleName());
        }
        parsed.validate();
        return parsed;
    }
}

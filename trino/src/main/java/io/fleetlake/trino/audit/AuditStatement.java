package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One audit query as sent to Trino: the SQL with {@code ?} placeholders and their values in order.
 *
 * @param name the SQL file it was rendered from, for messages
 * @param sql the rendered SQL
 * @param parameters the values, each a {@link String} or a {@link Long}
 */
public record AuditStatement(String name, String sql, List<Object> parameters) {
    public AuditStatement {
        requireNonNull(name, "name is null");
        requireNonNull(sql, "sql is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        for (Object parameter : parameters) {
            if (!(parameter instanceof String) && !(parameter instanceof Long)) {
                throw new IllegalArgumentException(name + ": parameter " + parameter + " is a "
                        + parameter.getClass().getName() + ", not a String or Long");
            }
        }
        int placeholders = SqlTemplate.countPlaceholders(sql);
        if (placeholders != parameters.size()) {
            throw new IllegalArgumentException(
                    name + " has " + placeholders + " parameter placeholders but " + parameters.size() + " values");
        }
    }
}

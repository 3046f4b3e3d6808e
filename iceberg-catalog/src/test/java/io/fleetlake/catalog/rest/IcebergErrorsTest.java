package io.fleetlake.catalog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchIcebergTableException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class IcebergErrorsTest {
    static Stream<Arguments> statuses() {
        return Stream.of(
                Arguments.of(new IllegalArgumentException("bad"), 400),
                Arguments.of(new NumberFormatException("pageSize"), 400),
                Arguments.of(new ValidationException("invalid schema"), 400),
                Arguments.of(new BadRequestException("malformed"), 400),
                Arguments.of(new NotAuthorizedException("who are you"), 401),
                Arguments.of(new ForbiddenException("not yours"), 403),
                Arguments.of(new NoSuchNamespaceException("no namespace"), 404),
                Arguments.of(new NoSuchTableException("no table"), 404),
                Arguments.of(new NoSuchViewException("no view"), 404),
                Arguments.of(new NoSuchIcebergTableException("not an iceberg table"), 404),
                Arguments.of(new NotFoundException("no file"), 404),
                Arguments.of(new MethodNotAllowedException("PUT"), 405),
                Arguments.of(new UnsupportedOperationException("views"), 406),
                Arguments.of(new AlreadyExistsException("exists"), 409),
                Arguments.of(new CommitFailedException("conflict"), 409),
                Arguments.of(new NamespaceNotEmptyException("has tables"), 409),
                Arguments.of(new CommitStateUnknownException(new RuntimeException("timeout")), 500),
                Arguments.of(new ServiceUnavailableException("busy"), 503),
                Arguments.of(new IllegalStateException("bug"), 500),
                Arguments.of(new NullPointerException(), 500),
                Arguments.of(new UncheckedSQLException(new SQLException("database locked"), "commit"), 500),
                Arguments.of(new UncheckedIOException(new java.io.IOException("disk")), 500));
    }

    @ParameterizedTest
    @MethodSource("statuses")
    void mapsExceptionToStatus(RuntimeException error, int status) {
        assertThat(IcebergErrors.STATUSES.statusOf(error)).isEqualTo(status);
    }

    @Test
    void errorResponseCarriesTheExceptionTypeAndMessage() {
        ErrorResponse response = IcebergErrors.errorResponse(new NoSuchTableException("Table does not exist: x"));

        assertThat(response.code()).isEqualTo(404);
        assertThat(response.type()).isEqualTo("NoSuchTableException");
        assertThat(response.message()).isEqualTo("Table does not exist: x");
        assertThat(response.stack()).isNullOrEmpty();
    }

    @Test
    void errorWithoutMessageUsesItsType() {
        ErrorResponse response = IcebergErrors.errorResponse(new NullPointerException());

        assertThat(response.code()).isEqualTo(500);
        assertThat(response.message()).isEqualTo("NullPointerException");
    }
}

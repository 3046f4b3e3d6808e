package io.fleetlake.stack.cli;

import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Runs one SQL statement against the running stack's Trino and prints the result as a table. */
@Command(
        name = "sql",
        mixinStandardHelpOptions = true,
        description = "Run a SQL statement on the running stack's Trino (catalog iceberg), e.g."
                + " fleet sql \"SELECT count(*) FROM fleet.positions\".")
public final class SqlCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private StackOptions options;

    @Parameters(paramLabel = "SQL", description = "The statement; quote it for the shell.")
    private String sql;

    @Option(
            names = "--user",
            paramLabel = "USER",
            defaultValue = "analyst",
            description = "The Trino user: analyst (read-only, catalog iceberg; the default) or admin (writes, catalog"
                    + " iceberg_admin). The password comes from the data folder.")
    private String user;

    @Override
    public Integer call() {
        FleetHome home = options.home();
        StackSettings settings = options.settings(options.configuration(), home);
        TrinoUser trinoUser =
                switch (user) {
                    case "analyst" -> TrinoUser.ANALYST;
                    case "admin" -> TrinoUser.ADMIN;
                    default ->
                        throw new ParameterException(
                                spec.commandLine(), "--user must be analyst or admin, not " + user);
                };
        TrinoConnectionFactory connections = settings.trino(trinoUser).withSource("fleet-sql");
        try (Connection connection = connections.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            printTable(result);
            return 0;
        } catch (SQLException e) {
            System.err.println(
                    "Query failed on " + connections.serverUri() + " as " + connections.user() + ": " + e.getMessage());
            System.err.println("Is the stack running (fleet up, or fleet demo --keep-running)?");
            return 1;
        }
    }

    private static void printTable(ResultSet result) throws SQLException {
        ResultSetMetaData metadata = result.getMetaData();
        int columns = metadata.getColumnCount();
        List<String[]> rows = new ArrayList<>();
        String[] header = new String[columns];
        int[] widths = new int[columns];
        for (int column = 0; column < columns; column++) {
            header[column] = metadata.getColumnLabel(column + 1);
            widths[column] = header[column].length();
        }
        while (result.next()) {
            String[] row = new String[columns];
            for (int column = 0; column < columns; column++) {
                row[column] = String.valueOf(result.getString(column + 1));
                widths[column] = Math.max(widths[column], row[column].length());
            }
            rows.add(row);
        }
        printRow(header, widths);
        String[] rule = new String[columns];
        for (int column = 0; column < columns; column++) {
            rule[column] = "-".repeat(widths[column]);
        }
        printRow(rule, widths);
        rows.forEach(row -> printRow(row, widths));
        System.out.printf("(%d row%s)%n", rows.size(), rows.size() == 1 ? "" : "s");
    }

    private static void printRow(String[] values, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int column = 0; column < values.length; column++) {
            if (column > 0) {
                line.append(" | ");
            }
            line.append(String.format("%-" + widths[column] + "s", values[column]));
        }
        System.out.println(line.toString().stripTrailing());
    }
}

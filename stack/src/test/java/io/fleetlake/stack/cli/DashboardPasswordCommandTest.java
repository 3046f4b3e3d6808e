package io.fleetlake.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.dashboard.DashboardOperators;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackDashboardIdentity;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DashboardPasswordCommandTest {
    private static final Pattern PASSWORD = Pattern.compile("password: +(\\S+)");

    @TempDir
    Path dataDirectory;

    private StackDashboardIdentity identity() {
        return StackDashboardIdentity.of(StackSettings.from(ConfigSource.empty(), dataDirectory));
    }

    private String[] run(String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new FleetCli());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        String[] withDataDirectory = new String[arguments.length + 2];
        System.arraycopy(arguments, 0, withDataDirectory, 0, arguments.length);
        withDataDirectory[arguments.length] = "--data-dir";
        withDataDirectory[arguments.length + 1] = dataDirectory.toString();
        int exitCode = commandLine.execute(withDataDirectory);
        return new String[] {Integer.toString(exitCode), out.toString(), err.toString()};
    }

    @Test
    void theStackGeneratesAPasswordAndTheCommandRotatesIt() throws Exception {
        String generated = identity().ensure().generatedPassword().orElseThrow();
        assertThat(identity().ensure().generatedPassword())
                .as("a second start keeps it")
                .contains(generated);

        String[] rotated = run("dashboard-password");

        assertThat(rotated[0]).as(rotated[2]).isEqualTo("0");
        Matcher password = PASSWORD.matcher(rotated[1]);
        assertThat(password.find()).isTrue();
        assertThat(identity().generatedPassword()).contains(password.group(1));
        assertThat(identity()
                        .operators()
                        .hash(DashboardOperators.OPERATOR)
                        .orElseThrow()
                        .matches(generated))
                .as("the old password")
                .isFalse();
        assertThat(Files.readString(identity().operators().path())).doesNotContain(password.group(1));
    }

    @Test
    void aChosenPasswordComesFromStandardInputAndIsNotKeptInClear() {
        identity().ensure();
        InputStream original = System.in;
        try {
            System.setIn(new ByteArrayInputStream("a password I chose\n".getBytes(StandardCharsets.UTF_8)));
            String[] set = run("dashboard-password", "--stdin");
            assertThat(set[0]).as(set[2]).isEqualTo("0");
            System.setIn(new ByteArrayInputStream("short\n".getBytes(StandardCharsets.UTF_8)));
            String[] refused = run("dashboard-password", "--stdin");
            assertThat(refused[0]).isEqualTo("1");
            assertThat(refused[2]).contains("at least 12 characters");
        } finally {
            System.setIn(original);
        }
        assertThat(identity()
                        .operators()
                        .hash(DashboardOperators.OPERATOR)
                        .orElseThrow()
                        .matches("a password I chose"))
                .isTrue();
        assertThat(identity().generatedPassword()).isEmpty();
        assertThat(identity()
                        .ensure()
                        .operators()
                        .hash(DashboardOperators.OPERATOR)
                        .orElseThrow()
                        .matches("a password I chose"))
                .as("a start keeps a chosen password")
                .isTrue();
    }
}

package io.fleetlake.stack.cli;

import io.fleetlake.stack.compose.ComposeSecrets;
import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleet secrets}: the compose deployment's {@code .env} with generated secrets ({@link ComposeSecrets}). It
 * prints the names of what it generated, never a value: the values stay in the owner-only {@code .env}.
 */
@Command(
        name = "secrets",
        mixinStandardHelpOptions = true,
        description = {
            "Generate the secrets of the compose deployment (docker-compose.yml): .env from .env.example with every"
                    + " change-me value replaced by a random secret, and the catalog's clients file derived from it.",
            "Values are never printed: they stay in .env (mode 0600)."
        },
        subcommands = {SecretsCommand.Init.class, SecretsCommand.Rotate.class})
public final class SecretsCommand implements Runnable {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Name a subcommand, for example: fleet secrets init");
    }

    /** What both subcommands share: the compose folder and one way to report a user's error. */
    abstract static class Subcommand implements Callable<Integer> {
        @Option(
                names = "--dir",
                paramLabel = "DIR",
                description = "The folder of docker-compose.yml and .env.example (default: the checkout).")
        Path directory;

        @Spec
        CommandLine.Model.CommandSpec spec;

        abstract List<String> run(ComposeSecrets secrets);

        abstract String verb();

        @Override
        public final Integer call() {
            ComposeSecrets secrets = ComposeSecrets.in(
                    directory != null ? directory : FleetHome.locate().root());
            try {
                List<String> names = run(secrets);
                spec.commandLine()
                        .getOut()
                        .println(verb() + " " + names.size() + " secrets in " + secrets.environmentFile()
                                + " (values not shown): " + String.join(", ", names));
                return 0;
            } catch (IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) {
                spec.commandLine().getErr().println("fleet secrets " + spec.name() + ": " + e.getMessage());
                return 1;
            }
        }
    }

    @Command(
            name = "init",
            mixinStandardHelpOptions = true,
            description = "Write .env from .env.example with generated secrets; refuses to replace an existing .env.")
    static final class Init extends Subcommand {
        @Option(names = "--force", description = "Replace an existing .env, and so every secret in use.")
        boolean force;

        @Override
        List<String> run(ComposeSecrets secrets) {
            return force ? secrets.initialiseReplacing() : secrets.initialise();
        }

        @Override
        String verb() {
            return "Generated";
        }
    }

    @Command(
            name = "rotate",
            mixinStandardHelpOptions = true,
            description = {
                "Replace the named secrets of .env with new ones (and the catalog's clients file).",
                "Then docker compose up -d recreates the services that read them."
            })
    static final class Rotate extends Subcommand {
        @Parameters(arity = "1..*", paramLabel = "NAME", description = "Variables of .env, e.g. REDIS_PASSWORD.")
        List<String> names;

        @Override
        List<String> run(ComposeSecrets secrets) {
            return secrets.rotate(names);
        }

        @Override
        String verb() {
            return "Rotated";
        }
    }
}

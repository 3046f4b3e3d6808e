package io.fleetlake.stack.cli;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.catalog.CatalogClient;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleet catalog-clients}: the Iceberg REST catalog's clients of a data folder and their roles. The catalog reads
 * the clients file at every token request, so a change applies without a restart: a revoked client is refused at its
 * next request, a rotated secret gets no new token. A new secret is printed once; only its hash is stored.
 */
@Command(
        name = "catalog-clients",
        mixinStandardHelpOptions = true,
        description = {
            "Manage the clients of the Iceberg REST catalog of a data folder: reader, writer, maintainer or admin.",
            "The catalog applies a change at the client's next request, without a restart. New secrets are printed"
                    + " once and never stored, except the stack's own clients', which its components read."
        },
        subcommands = {
            CatalogClientsCommand.ListClients.class,
            CatalogClientsCommand.Add.class,
            CatalogClientsCommand.Rotate.class,
            CatalogClientsCommand.Revoke.class
        })
public final class CatalogClientsCommand implements Runnable {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Name a subcommand, for example: fleet catalog-clients list");
    }

    /** What every subcommand shares: the data folder's options and one way to report a user's error. */
    abstract static class Subcommand implements Callable<Integer> {
        @Mixin
        StackOptions options;

        @Spec
        CommandLine.Model.CommandSpec spec;

        abstract Integer run();

        @Override
        public final Integer call() {
            try {
                return run();
            } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                spec.commandLine().getErr().println("fleet catalog-clients " + spec.name() + ": " + e.getMessage());
                return 1;
            }
        }

        StackCatalogIdentity identity() {
            StackSettings settings = options.settings(options.configuration(), options.home());
            return StackCatalogIdentity.of(settings);
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        void printSecret(IssuedSecret issued) {
            out().println("client id:     " + issued.name());
            out().println("client secret: " + issued.secret());
            out().println("(shown once: only its hash is stored; Iceberg clients set credential=" + issued.name()
                    + ":<secret>)");
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the clients and roles; never secrets.")
    static final class ListClients extends Subcommand {
        @Override
        Integer run() {
            for (CatalogClient client : identity().clients().clients().values()) {
                out().println(client.name() + "\t" + client.role());
            }
            return 0;
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Add a client with a role.")
    static final class Add extends Subcommand {
        @Parameters(paramLabel = "CLIENT_ID", description = "The client id (1-64 letters, digits, '.', '_', '-').")
        private String clientId;

        @Option(
                names = "--role",
                required = true,
                paramLabel = "ROLE",
                description = "reader, writer, maintainer or admin.")
        private String role;

        @Override
        Integer run() {
            StackCatalogIdentity identity = identity();
            if (identity.clients().role(clientId).isPresent()) {
                throw new IllegalArgumentException("The client " + clientId + " exists: rotate or revoke it instead");
            }
            printSecret(identity.clients().issue(clientId, CatalogRole.named(role)));
            return 0;
        }
    }

    @Command(
            name = "rotate",
            mixinStandardHelpOptions = true,
            description =
                    "Issue a new secret; the old one gets no new token (its tokens expire within their lifetime).")
    static final class Rotate extends Subcommand {
        @Parameters(paramLabel = "CLIENT_ID", description = "The client id.")
        private String clientId;

        @Override
        Integer run() {
            StackCatalogIdentity identity = identity();
            IssuedSecret issued = identity.clients().rotate(clientId);
            if (identity.remember(issued)) {
                out().println("Rotated the stack's own client " + clientId + "; its components use the new secret"
                        + " from their next start (restart the stack).");
                return 0;
            }
            printSecret(issued);
            return 0;
        }
    }

    @Command(
            name = "revoke",
            mixinStandardHelpOptions = true,
            description = "Remove a client: refused at its next request.")
    static final class Revoke extends Subcommand {
        @Parameters(paramLabel = "CLIENT_ID", description = "The client id.")
        private String clientId;

        @Override
        Integer run() {
            if (!identity().clients().revoke(clientId)) {
                throw new IllegalArgumentException("No catalog client " + clientId);
            }
            out().println("Revoked " + clientId + "; the stack issues its own clients anew at its next start.");
            return 0;
        }
    }
}

package io.fleetlake.stack.identity;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.identity.dashboard.DashboardOperators;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's operator in the embedded stack, created on the first start of a data folder without any manual step:
 * the user {@value DashboardOperators#OPERATOR} with a generated password (256 random bits). The dashboard reads the
 * operators file, {@code <data-dir>/dashboard/operators.properties} (hashes only, owner-only), at every sign-in. The
 * generated password is kept in clear in {@code <data-dir>/secrets/dashboard.properties} (owner-only) so that {@code
 * fleet up} and {@code fleet demo} can show it next to the dashboard's address, never in a log; a password set with
 * {@code fleet dashboard-password --stdin} is not kept anywhere in clear.
 */
public final class StackDashboardIdentity {
    private static final Logger LOG = LoggerFactory.getLogger(StackDashboardIdentity.class);

    static final String OPERATORS_FILE = "operators.properties";
    static final String SECRETS_FILE = "dashboard.properties";

    private final DashboardOperators operators;
    private final SecretFile secrets;

    private StackDashboardIdentity(DashboardOperators operators, SecretFile secrets) {
        this.operators = operators;
        this.secrets = secrets;
    }

    /** The dashboard identity of the stack of {@code settings}, without changing anything. */
    public static StackDashboardIdentity of(StackSettings settings) {
        requireNonNull(settings, "settings is null");
        return new StackDashboardIdentity(
                new DashboardOperators(operatorsFile(settings)),
                new SecretFile(
                        settings.dataDirectory().resolve("secrets").resolve(SECRETS_FILE),
                        "The generated password of the embedded stack's dashboard operator"));
    }

    /** The dashboard's operators file, {@code dashboard.users-file}. */
    public static Path operatorsFile(StackSettings settings) {
        return settings.componentDirectory(FleetStack.DASHBOARD).resolve(OPERATORS_FILE);
    }

    /** Creates the operator with a generated password unless it exists (a password set by hand is kept). */
    public synchronized StackDashboardIdentity ensure() {
        if (operators.hash(DashboardOperators.OPERATOR).isEmpty()) {
            LOG.info("Generating the password of the dashboard's {}", DashboardOperators.OPERATOR);
            remember(operators.issue(DashboardOperators.OPERATOR));
        }
        return this;
    }

    /** The operators file, for {@code fleet dashboard-password}. */
    public DashboardOperators operators() {
        return operators;
    }

    /** The generated password of the operator while it is the one in force; empty after one set by hand. */
    public Optional<String> generatedPassword() {
        Optional<String> stored = Optional.ofNullable(secrets.load().get(DashboardOperators.OPERATOR));
        return stored.filter(password -> operators
                .hash(DashboardOperators.OPERATOR)
                .map(hash -> hash.matches(password))
                .orElse(false));
    }

    /** Keeps a generated password so that the stack can show it. */
    public void remember(IssuedSecret issued) {
        requireNonNull(issued, "issued is null");
        Map<String, String> stored = secrets.load();
        stored.put(issued.name(), issued.secret());
        secrets.store(stored);
    }

    /** Forgets the generated password of {@code user}, once a person chose one. */
    public void forget(String user) {
        requireNonNull(user, "user is null");
        Map<String, String> stored = secrets.load();
        if (stored.remove(user) != null) {
            secrets.store(stored);
        }
    }
}

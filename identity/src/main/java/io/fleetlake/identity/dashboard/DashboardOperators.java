package io.fleetlake.identity.dashboard;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.PasswordHash;
import io.fleetlake.identity.SecretFile;
import io.fleetlake.identity.Secrets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The operators who may sign in to the operations dashboard, in one owner-only file of {@code <user>=<PBKDF2 hash>}
 * lines ({@link SecretFile}'s format, hashes only, as {@link io.fleetlake.identity.catalog.CatalogClients}). The
 * dashboard reads it at every sign-in, so a new password applies to the next sign-in without a restart.
 */
public final class DashboardOperators {
    /** The one operator the embedded stack and the compose deployment create. */
    public static final String OPERATOR = "operator";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretFile file;

    public DashboardOperators(Path file) {
        this.file = new SecretFile(
                requireNonNull(file, "file is null"),
                "Operators of the fleet dashboard: <PBKDF2 hash of the password> per user name, never a password");
    }

    public Path path() {
        return file.path();
    }

    /** Every operator's password hash by user name; empty when there is no file yet. */
    public Map<String, PasswordHash> operators() {
        Map<String, PasswordHash> operators = new TreeMap<>();
        file.load().forEach((name, value) -> operators.put(name, new PasswordHash(value.trim())));
        return operators;
    }

    public Set<String> names() {
        return operators().keySet();
    }

    /** The hash of {@code user}'s password, empty for an unknown user. */
    public Optional<PasswordHash> hash(String user) {
        requireNonNull(user, "user is null");
        return Optional.ofNullable(operators().get(user));
    }

    /**
     * Gives {@code user} a generated password (256 random bits), adding the user when new.
     *
     * @return the password, in clear, to show once
     */
    public synchronized IssuedSecret issue(String user) {
        String password = Secrets.generate(RANDOM);
        store(user, PasswordHash.of(password, RANDOM));
        return new IssuedSecret(user, password);
    }

    /**
     * Gives {@code user} a password a person chose, hashed with {@link PasswordHash#CHOSEN_PASSWORD_ITERATIONS}.
     *
     * @throws IllegalArgumentException when it is shorter than 12 characters
     */
    public synchronized void set(String user, String password) {
        requireNonNull(password, "password is null");
        store(user, hashChosen(password));
    }

    /** The hash of a password a person chose, refusing one shorter than 12 characters. */
    public static PasswordHash hashChosen(String password) {
        requireNonNull(password, "password is null");
        if (password.length() < 12) {
            throw new IllegalArgumentException(
                    "The dashboard password must have at least 12 characters; or let the stack generate one");
        }
        return PasswordHash.of(password, RANDOM, PasswordHash.CHOSEN_PASSWORD_ITERATIONS);
    }

    /** Removes an operator: refused at the next sign-in. @return whether it existed */
    public synchronized boolean remove(String user) {
        requireNonNull(user, "user is null");
        Map<String, String> lines = file.load();
        boolean removed = lines.remove(user) != null;
        if (removed) {
            file.store(lines);
        }
        return removed;
    }

    private void store(String user, PasswordHash hash) {
        requireNonNull(user, "user is null");
        if (!user.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException(
                    "A dashboard user name is 1-64 letters, digits, '.', '_' or '-', got '" + user + "'");
        }
        Map<String, String> lines = file.load();
        lines.put(user, hash.encoded());
        file.store(lines);
    }
}

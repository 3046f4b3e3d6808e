package io.fleetlake.identity.mqtt;

import java.util.regex.Pattern;

/**
 * The names of principals, vehicle ids in grants and grant prefixes: letters, digits, {@code .}, {@code _} and {@code
 * -}, at most 64 characters. Narrower than MQTT allows, so that a name is safe as a topic level (no {@code /}, {@code
 * +}, {@code #}), in Mosquitto's password file (no {@code :}), in its ACL lines (no blank) and in a CSV file.
 */
public final class PrincipalNames {
    public static final int MAX_LENGTH = 64;
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_LENGTH + "}");

    private PrincipalNames() {}

    public static boolean isValid(String name) {
        return name != null && VALID.matcher(name).matches();
    }

    /**
     * @param what what the name is, for the message ("principal name", "vehicle id", "prefix")
     * @throws IllegalArgumentException naming the rule when {@code name} breaks it
     */
    public static String requireValid(String name, String what) {
        if (!isValid(name)) {
            throw new IllegalArgumentException("Invalid " + what + " '" + name + "': use 1 to " + MAX_LENGTH
                    + " letters, digits, '.', '_' or '-' (no '/', '+', '#', ':' or blanks)");
        }
        return name;
    }
}

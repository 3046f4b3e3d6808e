// Trino's password file for the compose deployment, run by deploy/trino/start.sh with the image's JDK
// (`java RenderPasswordFile.java`, a single-file program: the container has no project classes). The format and the
// parameters are the embedded stack's (trino module, TrinoPasswordFile): one user:iterations:salt:hash line per user,
// PBKDF2-HMAC-SHA1 as Trino 476 checks it, 10,000 iterations, 16 bytes of salt, 32 bytes of hash, lower-case hex.
// The passwords come from the environment, never from the command line.
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

public class RenderPasswordFile {
    public static void main(String[] arguments) throws Exception {
        Map<String, String> users = new LinkedHashMap<>();
        users.put("admin", "TRINO_ADMIN_PASSWORD");
        users.put("analyst", "TRINO_ANALYST_PASSWORD");
        users.put("fleet-dashboard", "TRINO_DASHBOARD_PASSWORD");
        users.put("fleet-monitor", "TRINO_MONITOR_PASSWORD");
        SecureRandom random = new SecureRandom();
        StringBuilder file = new StringBuilder();
        for (Map.Entry<String, String> user : users.entrySet()) {
            String password = System.getenv(user.getValue());
            if (password == null || password.isEmpty()) {
                System.err.println(user.getValue() + " is not set: give the Trino user " + user.getKey()
                        + " a password in .env (see .env.example)");
                System.exit(2);
            }
            byte[] salt = new byte[16];
            random.nextBytes(salt);
            byte[] hash = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA1")
                    .generateSecret(new PBEKeySpec(password.toCharArray(), salt, 10_000, 32 * 8))
                    .getEncoded();
            file.append(user.getKey()).append(":10000:").append(HexFormat.of().formatHex(salt)).append(':')
                    .append(HexFormat.of().formatHex(hash)).append('\n');
        }
        System.out.print(file);
    }
}

package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.redis.RedisAcl;
import io.fleetlake.redis.RedisRole;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/redis/start.sh grants the compose deployment's Redis users exactly what the embedded stack grants ({@link
 * RedisAcl} of {@link RedisRole}): the script is run with {@code --render-only} and its ACL file compared line by line.
 */
class RedisStartScriptTest {
    private static final Map<RedisRole, String> PASSWORDS = Map.of(
            RedisRole.PIPELINE, "pipeline-Secret_1",
            RedisRole.DASHBOARD, "dashboard-Secret_2",
            RedisRole.MONITOR, "monitor-Secret_3",
            RedisRole.ADMIN, "admin-Secret_4");

    @Test
    void scriptRendersTheRolesOfTheEmbeddedStackOwnerOnly(@TempDir Path directory)
            throws IOException, InterruptedException {
        Path acl = directory.resolve("auth").resolve("users.acl");
        ProcessBuilder builder = new ProcessBuilder(
                        "sh", Repository.file("deploy/redis/start.sh").toString(), "--render-only")
                .redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.put("REDIS_ACL_FILE", acl.toString());
        environment.put("REDIS_PIPELINE_PASSWORD", PASSWORDS.get(RedisRole.PIPELINE));
        environment.put("REDIS_DASHBOARD_PASSWORD", PASSWORDS.get(RedisRole.DASHBOARD));
        environment.put("REDIS_MONITOR_PASSWORD", PASSWORDS.get(RedisRole.MONITOR));
        environment.put("REDIS_ADMIN_PASSWORD", PASSWORDS.get(RedisRole.ADMIN));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(Files.readString(acl)).isEqualTo(RedisAcl.render(PASSWORDS));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(acl)))
                .isEqualTo("rw-------");
    }

    @Test
    void scriptRefusesToStartWithoutEveryPassword(@TempDir Path directory) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(
                        "sh", Repository.file("deploy/redis/start.sh").toString(), "--render-only")
                .redirectErrorStream(true);
        builder.environment()
                .put("REDIS_ACL_FILE", directory.resolve("users.acl").toString());
        builder.environment().put("REDIS_PIPELINE_PASSWORD", "only-this-one");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).isNotZero();
        assertThat(output).contains("set REDIS_DASHBOARD_PASSWORD in .env");
        assertThat(directory.resolve("users.acl")).doesNotExist();
    }
}

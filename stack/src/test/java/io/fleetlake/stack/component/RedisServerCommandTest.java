package io.fleetlake.stack.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisServerCommandTest {
    private static final String ACL =
            "user default off resetpass resetkeys resetchannels -@all\n" + "user admin on #0123 ~* &* +@all\n";

    @Test
    void aclFileIsWrittenOwnerOnlyAndNamedInsteadOfAnyPassword(@TempDir Path data) throws IOException {
        Path redisServer = Files.createFile(data.resolve("redis-server"));
        redisServer.toFile().setExecutable(true);

        List<String> command =
                new RedisServerCommand(Optional.of(redisServer), "127.0.0.1", 16379, data, ACL, "64mb").toCommandLine();

        Path aclFile = data.resolve("users.acl");
        assertThat(aclFile).hasContent(ACL.strip());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(aclFile)))
                .isEqualTo("rw-------");
        assertThat(command)
                .containsSubsequence("--maxmemory", "64mb", "--maxmemory-policy", "noeviction")
                .containsSubsequence("--aclfile", aclFile.toString())
                .doesNotContain("--requirepass", "--user");
    }

    @Test
    void aclFileIsRenderedAgainAtEveryStart(@TempDir Path data) throws IOException {
        Path redisServer = Files.createFile(data.resolve("redis-server"));
        redisServer.toFile().setExecutable(true);
        Files.writeString(data.resolve("users.acl"), "user old on nopass ~* +@all\n");

        new RedisServerCommand(Optional.of(redisServer), "127.0.0.1", 16379, data, ACL, "256mb").toCommandLine();

        assertThat(Files.readString(data.resolve("users.acl"))).isEqualTo(ACL);
    }
}

package io.fleetlake.redis;

/**
 * The Redis users of the fleet, one per role, and what each may do: the single definition that the embedded stack's
 * ACL file ({@link RedisAcl}) and the compose deployment's start script (deploy/redis/start.sh, held to it by a test)
 * grant. Every non-admin role reaches only the fleet's keys ({@code vehicle:*}, {@code fleet:*}), no pub/sub channel,
 * and no command of Redis' {@code @dangerous} category ({@code FLUSHALL}, {@code FLUSHDB}, {@code CONFIG}, {@code
 * KEYS}, {@code DEBUG}, {@code SHUTDOWN}, ...), except where a rule names one again ({@code INFO} for the monitor).
 */
public enum RedisRole {
    /**
     * The pipeline's current-state sink: reads and writes the fleet's keys, loads and runs its newer-wins script (which
     * Redis checks command by command against the same rules; the script reads {@code TIME} for the vehicles' expiry).
     */
    PIPELINE(
            "pipeline",
            "-@all +@connection +@read +@write +eval +evalsha +script|load +script|exists +time -@dangerous"),
    /** The dashboard: reads the fleet's keys, nothing else (it does not subscribe). */
    DASHBOARD("dashboard", "-@all +@connection +@read -@dangerous"),
    /** fleet status, fleet verify, the exporter, the stack's health probe: reads the fleet's keys and {@code INFO}. */
    MONITOR("monitor", "-@all +@connection +@read -@dangerous +info"),
    /** The stack itself and an operator: every key, channel and command (maintenance, shutdown). */
    ADMIN("admin", "+@all");

    /** The keys and channels of the non-admin roles. */
    static final String FLEET_KEYS = "resetchannels ~vehicle:* ~fleet:*";

    private static final String ALL_KEYS = "~* &*";

    private final String user;
    private final String commands;

    RedisRole(String user, String commands) {
        this.user = user;
        this.commands = commands;
    }

    /** The Redis user name of the role. */
    public String user() {
        return user;
    }

    /** The ACL rules of the role, without its password: keys and channels, then commands. */
    public String rules() {
        return (this == ADMIN ? ALL_KEYS : FLEET_KEYS) + " " + commands;
    }
}

package io.fleetlake.identity.mqtt;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.PasswordHash;
import java.time.Instant;

/**
 * One MQTT identity: the user name a client connects with, what it is, the hash of its secret and, for a gateway, the
 * vehicles it relays.
 *
 * @param name the MQTT user name; a device's is its vehicle id
 * @param kind what it may do
 * @param secret the hash of its secret (the secret itself is never stored)
 * @param grant the vehicles of a gateway; {@link VehicleGrant#NONE} for the other kinds
 * @param created when it was first added
 * @param secretChanged when its current secret was set (at creation or by the last rotation)
 */
public record Principal(
        String name,
        PrincipalKind kind,
        PasswordHash secret,
        VehicleGrant grant,
        Instant created,
        Instant secretChanged) {
    public Principal {
        PrincipalNames.requireValid(name, "principal name");
        requireNonNull(kind, "kind is null");
        requireNonNull(secret, "secret is null");
        requireNonNull(grant, "grant is null");
        requireNonNull(created, "created is null");
        requireNonNull(secretChanged, "secretChanged is null");
        if (kind == PrincipalKind.GATEWAY && grant.isEmpty()) {
            throw new IllegalArgumentException(
                    "Gateway " + name + " has no vehicles: grant it a list of vehicle ids or an id prefix");
        }
        if (kind != PrincipalKind.GATEWAY && !grant.isEmpty()) {
            throw new IllegalArgumentException(
                    kind.label() + " " + name + " cannot have a vehicle grant: only gateways relay other vehicles");
        }
    }

    /** The same principal with another secret, set now. */
    public Principal withSecret(PasswordHash newSecret, Instant now) {
        return new Principal(name, kind, newSecret, grant, created, now);
    }

    /** The same gateway with another grant. */
    public Principal withGrant(VehicleGrant newGrant) {
        return new Principal(name, kind, secret, newGrant, created, secretChanged);
    }
}

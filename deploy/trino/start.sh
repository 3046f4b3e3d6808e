#!/bin/bash
# Entry point of the compose `trino` service (issue 23): renders Trino's secrets from the environment, then starts
# Trino as the image does. At every start:
#   - /data/trino/secrets/password.db from TRINO_ADMIN_PASSWORD, TRINO_ANALYST_PASSWORD, TRINO_DASHBOARD_PASSWORD and
#     TRINO_MONITOR_PASSWORD (PBKDF2 hashes; RenderPasswordFile.java), owner-only; a changed password counts from the
#     next start;
#   - on the first start, a key pair and a certificate for the names trino and localhost (825 days) in
#     /data/trino/tls (the trino-data volume), keystore.p12 protected by TRINO_KEYSTORE_PASSWORD, and its certificate
#     as ca.pem, which clients trust (the dashboard mounts the volume read-only; copy it out for others:
#     docker compose cp trino:/data/trino/tls/ca.pem .).
#     To use your own certificate, put a PKCS#12 keystore.p12 (password TRINO_KEYSTORE_PASSWORD) and its CA's ca.pem
#     into the volume instead.
# No secret is passed on a command line: keytool reads the store password from the environment (:env).
set -euo pipefail
umask 077

tls=/data/trino/tls
secrets=/data/trino/secrets
mkdir -p "$tls" "$secrets"
java /fleet/trino/RenderPasswordFile.java > "$secrets/password.db.tmp"
mv "$secrets/password.db.tmp" "$secrets/password.db"

if [ ! -f "$tls/keystore.p12" ]; then
    keytool -genkeypair -alias trino -keyalg EC -groupname secp256r1 -validity 825 -dname "CN=trino" \
        -ext "SAN=dns:trino,dns:localhost,ip:127.0.0.1" -keystore "$tls/keystore.p12" -storetype PKCS12 \
        -storepass:env TRINO_KEYSTORE_PASSWORD
    keytool -exportcert -rfc -alias trino -keystore "$tls/keystore.p12" -storepass:env TRINO_KEYSTORE_PASSWORD \
        -file "$tls/ca.pem"
    chmod 644 "$tls/ca.pem"
fi

exec /usr/lib/trino/bin/run-trino

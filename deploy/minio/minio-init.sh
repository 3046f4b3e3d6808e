#!/bin/sh
# One-shot set-up of MinIO for the fleet lakehouse (service minio-init in docker-compose.yml): the Iceberg warehouse
# bucket, the Flink checkpoint bucket, and one S3 user per service with a least-privilege policy of its own
# (deploy/minio/policies/<service>.json): read-write on the warehouse for the catalog, the maintenance and the
# geocoding, read-write on the warehouse and the checkpoint bucket for the Flink pipeline, read-only on the warehouse for
# Trino. Safe to run again: a changed secret in .env is applied to the existing user.
#
# No secret is passed on a command line: mc reads the administrator's key from MC_HOST_local (the environment), and
# `mc admin user add ALIAS ACCESSKEY` reads the secret key from its standard input.
set -eu

# Iceberg table files (catalog.warehouse / pipeline.warehouse = s3://warehouse/).
mc mb --ignore-existing local/warehouse
# Flink checkpoints and savepoints (execution.checkpointing.dir = s3://flink/checkpoints).
mc mb --ignore-existing local/flink

# service name, access key, secret key: the policy fleet-<service> from policies/<service>.json, attached to the user.
service_user() {
    service=$1
    access_key=$2
    secret_key=$3
    mc admin policy create local "fleet-$service" "/fleet/policies/$service.json"
    printf '%s\n' "$secret_key" | mc admin user add local "$access_key"
    # Attaching a policy that is already attached is an error: attach it only once (with sh and mc alone, the
    # minimal image has little else).
    case "$(mc admin user info local "$access_key")" in
        *"fleet-$service"*) ;;
        *) mc admin policy attach local "fleet-$service" --user "$access_key" ;;
    esac
}

service_user catalog "$S3_CATALOG_ACCESS_KEY" "$S3_CATALOG_SECRET_KEY"
service_user pipeline "$S3_PIPELINE_ACCESS_KEY" "$S3_PIPELINE_SECRET_KEY"
service_user maintenance "$S3_MAINTENANCE_ACCESS_KEY" "$S3_MAINTENANCE_SECRET_KEY"
service_user geocode "$S3_GEOCODE_ACCESS_KEY" "$S3_GEOCODE_SECRET_KEY"
service_user trino "$S3_TRINO_ACCESS_KEY" "$S3_TRINO_SECRET_KEY"
echo "MinIO ready: buckets warehouse and flink; users of catalog, pipeline, maintenance, geocode (read-write) and trino (read-only)"

#!/bin/sh
# One-shot set-up of MinIO for the fleet lakehouse (service minio-init in docker-compose.yml): the Iceberg warehouse
# bucket, the Flink checkpoint bucket, and the S3 user the services use, with read-write access. Safe to run again.
set -eu

mc alias set local http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD"

# Iceberg table files (catalog.warehouse / pipeline.warehouse = s3://warehouse/).
mc mb --ignore-existing local/warehouse
# Flink checkpoints and savepoints (execution.checkpointing.dir = s3://flink/checkpoints).
mc mb --ignore-existing local/flink

# The services never use the administrator's key: they get their own user.
mc admin user add local "$S3_ACCESS_KEY" "$S3_SECRET_KEY"
# Attaching a policy that is already attached is an error: attach it only once (with sh and mc alone, the
# minimal image has little else).
case "$(mc admin user info local "$S3_ACCESS_KEY")" in
    *readwrite*) ;;
    *) mc admin policy attach local readwrite --user "$S3_ACCESS_KEY" ;;
esac
echo "MinIO ready: buckets warehouse and flink, user $S3_ACCESS_KEY with readwrite"

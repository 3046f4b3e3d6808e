#!/bin/sh
# Starts the MQTT broker with a password file written from the environment (.env), so that no credential is stored in
# the repository or in an image. Runs at every start: changing a password in .env takes effect with a restart.
set -eu

: "${MQTT_INGEST_USERNAME:?set MQTT_INGEST_USERNAME in .env}"
: "${MQTT_INGEST_PASSWORD:?set MQTT_INGEST_PASSWORD in .env}"
: "${MQTT_DEVICE_USERNAME:?set MQTT_DEVICE_USERNAME in .env}"
: "${MQTT_DEVICE_PASSWORD:?set MQTT_DEVICE_PASSWORD in .env}"

auth_directory=/mosquitto/auth
password_file="$auth_directory/passwords"

umask 077
mkdir -p "$auth_directory"
rm -f "$password_file"
mosquitto_passwd -c -b "$password_file" "$MQTT_INGEST_USERNAME" "$MQTT_INGEST_PASSWORD"
mosquitto_passwd -b "$password_file" "$MQTT_DEVICE_USERNAME" "$MQTT_DEVICE_PASSWORD"
# The broker drops root privileges to the mosquitto user and must still read the file (for example on SIGHUP).
chown -R mosquitto:mosquitto "$auth_directory" /mosquitto/data

exec /usr/sbin/mosquitto -c /mosquitto/config/mosquitto.conf

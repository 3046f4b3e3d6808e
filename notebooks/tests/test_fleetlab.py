"""Unit tests of fleetlab that need no stack: settings, literals, and the error a stopped stack gives."""

import datetime
import os
import socket
import tempfile
import unittest

import fleetlab


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on: bound to find a free one, then released."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SettingsTest(unittest.TestCase):
    def test_defaults_are_the_ports_of_fleet_up(self):
        settings = fleetlab.Settings.from_environment({})

        self.assertEqual(
            settings,
            fleetlab.Settings(
                trino_host="127.0.0.1",
                trino_port=18443,
                trino_user="analyst",
                catalog_uri="http://127.0.0.1:18181",
                s3_endpoint="http://127.0.0.1:19000",
                s3_access_key="fleet",
                s3_secret_key="fleet-secret-key",
                s3_region="us-east-1",
            ),
        )
        self.assertEqual(settings.trino_url, "https://127.0.0.1:18443")

    def test_every_variable_overrides_its_default(self):
        settings = fleetlab.Settings.from_environment(
            {
                "FLEET_TRINO_HOST": "trino.internal",
                "FLEET_TRINO_PORT": "8080",
                "FLEET_TRINO_USER": "auditor",
                "FLEET_CATALOG_URI": "http://catalog.internal:8181/",
                "FLEET_S3_ENDPOINT": "https://s3.internal:9000",
                "FLEET_S3_ACCESS_KEY": "key",
                "FLEET_S3_SECRET_KEY": "secret",
                "FLEET_S3_REGION": "eu-west-1",
            }
        )

        self.assertEqual(settings.trino_url, "https://trino.internal:8080")
        self.assertEqual(settings.trino_user, "auditor")
        self.assertEqual(settings.catalog_uri, "http://catalog.internal:8181")
        self.assertEqual(
            settings.catalog_properties(),
            {
                "uri": "http://catalog.internal:8181",
                "py-io-impl": "pyiceberg.io.pyarrow.PyArrowFileIO",
                "s3.endpoint": "https://s3.internal:9000",
                "s3.access-key-id": "key",
                "s3.secret-access-key": "secret",
                "s3.region": "eu-west-1",
                "s3.force-virtual-addressing": "false",
            },
        )

    def test_catalog_credential_authenticates_at_the_token_endpoint_and_is_not_shown(self):
        settings = fleetlab.Settings.from_environment(
            {"FLEET_CATALOG_URI": "http://catalog.internal:8181/", "FLEET_CATALOG_CREDENTIAL": "fleet-reader:hidden"}
        )

        properties = settings.catalog_properties()

        self.assertEqual(properties["credential"], "fleet-reader:hidden")
        self.assertEqual(properties["oauth2-server-uri"], "http://catalog.internal:8181/v1/oauth/tokens")
        self.assertEqual(properties["scope"], "catalog")
        self.assertNotIn("hidden", repr(settings))

    def test_the_stack_data_folder_supplies_the_generated_secrets(self):
        with tempfile.TemporaryDirectory() as data_dir:
            os.makedirs(os.path.join(data_dir, "secrets"))
            with open(os.path.join(data_dir, "secrets", "s3.properties"), "w", encoding="utf-8") as file:
                file.write("# generated\naccess-key=generated-access\nsecret-key=generated-secret\n")
            with open(os.path.join(data_dir, "secrets", "catalog.properties"), "w", encoding="utf-8") as file:
                file.write("fleet-reader=reader-secret\nfleet-admin=admin-secret\n")

            settings = fleetlab.Settings.from_environment({"FLEET_DATA_DIR": data_dir})

        self.assertEqual(settings.s3_access_key, "generated-access")
        self.assertEqual(settings.s3_secret_key, "generated-secret")
        self.assertEqual(settings.catalog_credential, "fleet-reader:reader-secret")

    def test_secret_key_is_not_shown(self):
        settings = fleetlab.Settings.from_environment({"FLEET_S3_SECRET_KEY": "do-not-print-me"})

        self.assertNotIn("do-not-print-me", repr(settings))
        self.assertIn("s3_access_key='fleet'", repr(settings))

    def test_a_port_that_is_not_a_number_names_the_variable(self):
        with self.assertRaisesRegex(fleetlab.SettingsError, r"FLEET_TRINO_PORT='eighty' is not a port"):
            fleetlab.Settings.from_environment({"FLEET_TRINO_PORT": "eighty"})

    def test_a_port_out_of_range_is_refused(self):
        with self.assertRaisesRegex(fleetlab.SettingsError, "between 1 and 65535"):
            fleetlab.Settings.from_environment({"FLEET_TRINO_PORT": "70000"})

    def test_a_url_without_scheme_is_refused(self):
        with self.assertRaisesRegex(fleetlab.SettingsError, r"FLEET_CATALOG_URI='127.0.0.1:18181' is not a URL"):
            fleetlab.Settings.from_environment({"FLEET_CATALOG_URI": "127.0.0.1:18181"})

    def test_an_empty_value_is_refused(self):
        with self.assertRaisesRegex(fleetlab.SettingsError, "FLEET_S3_REGION is empty"):
            fleetlab.Settings.from_environment({"FLEET_S3_REGION": " "})


class ConnectTest(unittest.TestCase):
    def test_a_stopped_stack_says_where_it_looked_and_how_to_start_it(self):
        port = closed_port()
        settings = fleetlab.Settings.from_environment({"FLEET_TRINO_PORT": str(port)})

        with self.assertRaises(fleetlab.StackNotReachable) as raised:
            fleetlab.connect(settings)

        message = str(raised.exception)
        self.assertIn(f"Trino is not reachable at https://127.0.0.1:{port}", message)
        self.assertIn("FLEET_TRINO_HOST/FLEET_TRINO_PORT", message)
        self.assertIn("./fleet up", message)

    def test_the_catalog_is_checked_too(self):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as trino_stand_in:
            # Something listening where Trino should be, so that the check reaches the catalog.
            trino_stand_in.bind(("127.0.0.1", 0))
            trino_stand_in.listen()
            catalog_port = closed_port()
            settings = fleetlab.Settings.from_environment(
                {
                    "FLEET_TRINO_PORT": str(trino_stand_in.getsockname()[1]),
                    "FLEET_CATALOG_URI": f"http://127.0.0.1:{catalog_port}",
                }
            )

            with self.assertRaisesRegex(
                fleetlab.StackNotReachable,
                rf"Iceberg REST catalog is not reachable at http://127.0.0.1:{catalog_port} \(FLEET_CATALOG_URI\)",
            ):
                fleetlab.connect(settings)


class LiteralTest(unittest.TestCase):
    def test_timestamp_literal_is_utc_with_milliseconds(self):
        plus_one_hour = datetime.timezone(datetime.timedelta(hours=1))
        instant = datetime.datetime(2026, 11, 28, 23, 59, 59, 999_999, tzinfo=plus_one_hour)

        self.assertEqual(fleetlab.timestamp_literal(instant), "TIMESTAMP '2026-11-28 22:59:59.999 UTC'")

    def test_timestamp_literal_refuses_a_naive_instant(self):
        with self.assertRaisesRegex(ValueError, "has no time zone"):
            fleetlab.timestamp_literal(datetime.datetime(2026, 11, 28, 12, 0))

    def test_string_literal_doubles_quotes(self):
        self.assertEqual(fleetlab.string_literal("audit-2026-11-28"), "'audit-2026-11-28'")
        self.assertEqual(fleetlab.string_literal("it's"), "'it''s'")


if __name__ == "__main__":
    unittest.main()

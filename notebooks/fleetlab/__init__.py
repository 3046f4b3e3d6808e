"""Connections of the analyst notebooks to a running fleet stack.

Every notebook starts with ``lab = fleetlab.connect()``: SQL goes to Trino (``lab.sql``), table metadata and direct
reads go through the Iceberg REST catalog with pyiceberg (``lab.table``). Where the stack listens comes from the
``FLEET_*`` environment variables in ``ENVIRONMENT``; the defaults are the ports of ``./fleet up``.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import socket
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import pandas
import requests
import trino
import trino.auth
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.table import Table

__all__ = [
    "ENVIRONMENT",
    "FleetLab",
    "Settings",
    "SettingsError",
    "StackNotReachable",
    "connect",
    "string_literal",
    "timestamp_literal",
]

#: Environment variable -> default. The defaults match the embedded stack started by ``./fleet up``.
ENVIRONMENT: Mapping[str, str] = {
    "FLEET_TRINO_HOST": "127.0.0.1",
    "FLEET_TRINO_PORT": "18443",
    "FLEET_TRINO_USER": "analyst",
    "FLEET_CATALOG_URI": "http://127.0.0.1:18181",
    "FLEET_S3_ENDPOINT": "http://127.0.0.1:19000",
    "FLEET_S3_ACCESS_KEY": "fleet",
    "FLEET_S3_SECRET_KEY": "fleet-secret-key",
    "FLEET_S3_REGION": "us-east-1",
}

#: Trino catalog and schema of the fleet tables (io.fleetlake.model.Tables).
TRINO_CATALOG = "iceberg"
NAMESPACE = "fleet"

_INTEGER_TYPES = frozenset({"tinyint", "smallint", "integer", "bigint"})

#: How long a closed or filtered port may take to answer before the stack counts as not reachable.
PROBE_TIMEOUT_SECONDS = 3.0

_START_HINT = "Is the fleet stack running? Start it with ./fleet up (or ./fleet demo --keep-running)"


class SettingsError(ValueError):
    """A FLEET_* variable has a value that cannot work; the message names the variable and the expected form."""


class StackNotReachable(RuntimeError):
    """A component of the fleet stack does not answer; the message says where it was looked for and what to do."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """Where the notebooks find the stack. Build it with ``Settings.from_environment()``."""

    trino_host: str
    trino_port: int
    trino_user: str
    catalog_uri: str
    s3_endpoint: str
    s3_access_key: str
    s3_secret_key: str = dataclasses.field(repr=False)
    s3_region: str
    #: ``<client id>:<secret>`` of a catalog reader (``FLEET_CATALOG_CREDENTIAL``); empty for a catalog without
    #: authentication. Never printed.
    catalog_credential: str = dataclasses.field(default="", repr=False)
    #: The Trino user's password (``FLEET_TRINO_PASSWORD``; the analyst's of ``FLEET_DATA_DIR`` when unset). Trino
    #: refuses every query without one. Never printed.
    trino_password: str = dataclasses.field(default="", repr=False)
    #: The CA certificate (PEM) Trino's HTTPS certificate is signed by (``FLEET_TRINO_CA``; the embedded stack's
    #: ``<FLEET_DATA_DIR>/trino/tls/ca.pem`` when unset); empty to trust the system's certificate authorities.
    trino_ca: str = ""

    @classmethod
    def from_environment(cls, environment: Mapping[str, str] | None = None) -> Settings:
        """Reads every ``FLEET_*`` variable of ``ENVIRONMENT`` (``os.environ`` by default), falling back to its default.

        Raises ``SettingsError`` naming the variable when a value is empty, a port is not a number between 1 and
        65535, or a URL lacks its ``http://host:port`` form.
        """
        source = os.environ if environment is None else environment
        # FLEET_DATA_DIR: the embedded stack's data folder, whose generated secrets stand in for unset variables.
        stack_secrets = _stack_secrets(source.get("FLEET_DATA_DIR", "").strip())
        values = {}
        for variable, default in ENVIRONMENT.items():
            value = source.get(variable, stack_secrets.get(variable, default)).strip()
            if not value:
                raise SettingsError(f"{variable} is empty: unset it to use {default!r} or give a value")
            values[variable] = value
        return cls(
            trino_host=values["FLEET_TRINO_HOST"],
            trino_port=_port("FLEET_TRINO_PORT", values["FLEET_TRINO_PORT"]),
            trino_user=values["FLEET_TRINO_USER"],
            catalog_uri=_http_url("FLEET_CATALOG_URI", values["FLEET_CATALOG_URI"]),
            s3_endpoint=_http_url("FLEET_S3_ENDPOINT", values["FLEET_S3_ENDPOINT"]),
            s3_access_key=values["FLEET_S3_ACCESS_KEY"],
            s3_secret_key=values["FLEET_S3_SECRET_KEY"],
            s3_region=values["FLEET_S3_REGION"],
            catalog_credential=source.get(
                "FLEET_CATALOG_CREDENTIAL", stack_secrets.get("FLEET_CATALOG_CREDENTIAL", "")
            ).strip(),
            trino_password=source.get("FLEET_TRINO_PASSWORD", stack_secrets.get("FLEET_TRINO_PASSWORD", "")).strip(),
            trino_ca=source.get("FLEET_TRINO_CA", stack_secrets.get("FLEET_TRINO_CA", "")).strip(),
        )

    @property
    def trino_url(self) -> str:
        return f"https://{self.trino_host}:{self.trino_port}"

    def catalog_properties(self) -> dict[str, str]:
        """pyiceberg REST catalog properties. The storage endpoint is set here rather than taken from the catalog's
        defaults, because the notebook may reach the storage under another address than the catalog server does."""
        return {
            "uri": self.catalog_uri,
            "py-io-impl": "pyiceberg.io.pyarrow.PyArrowFileIO",
            "s3.endpoint": self.s3_endpoint,
            "s3.access-key-id": self.s3_access_key,
            "s3.secret-access-key": self.s3_secret_key,
            "s3.region": self.s3_region,
            "s3.force-virtual-addressing": "false",
            **self._catalog_authentication(),
        }

    def _catalog_authentication(self) -> dict[str, str]:
        """OAuth2 client credentials at the catalog's token endpoint, as Iceberg's Java client does."""
        if not self.catalog_credential:
            return {}
        return {
            "credential": self.catalog_credential,
            "oauth2-server-uri": self.catalog_uri.rstrip("/") + "/v1/oauth/tokens",
            "scope": "catalog",
        }


class FleetLab:
    """An open connection to the stack: ``sql`` for Trino, ``table`` and ``catalog`` for pyiceberg."""

    def __init__(self, settings: Settings, trino_connection: trino.dbapi.Connection, catalog: RestCatalog):
        self.settings = settings
        self.catalog = catalog
        self._trino = trino_connection

    def sql(self, query: str, parameters: Sequence[Any] | None = None) -> pandas.DataFrame:
        """Runs one Trino statement (catalog ``iceberg``, schema ``fleet``, session time zone UTC) and returns its rows.

        ``?`` placeholders take ``parameters``. A query without rows returns an empty frame with the query's columns.
        Trino's errors (bad SQL, unknown column or table) are raised as they are.
        """
        cursor = self._trino.cursor()
        try:
            cursor.execute(query, parameters)
            rows = cursor.fetchall()
            description = cursor.description
        finally:
            cursor.close()
        frame = pandas.DataFrame({index: _column(rows, index, column[1]) for index, column in enumerate(description)})
        frame.columns = [column[0] for column in description]
        return frame

    def table(self, name: str) -> Table:
        """Loads a fleet table through the REST catalog: ``lab.table("positions")`` is ``fleet.positions``."""
        return self.catalog.load_table(name if "." in name else f"{NAMESPACE}.{name}")

    def close(self) -> None:
        self._trino.close()

    def __repr__(self) -> str:
        return f"FleetLab({self.settings})"


def connect(settings: Settings | None = None) -> FleetLab:
    """Opens Trino and the Iceberg REST catalog and checks that the storage answers.

    Raises ``StackNotReachable`` naming the component, its address and the variable that sets it when one of them
    does not answer, so that a notebook run against a stopped stack fails in its first cell with a sentence instead of
    a connection traceback deep inside a chart.
    """
    settings = settings or Settings.from_environment()
    _require_listening("Trino", settings.trino_url, "FLEET_TRINO_HOST/FLEET_TRINO_PORT")
    _require_listening("The Iceberg REST catalog", settings.catalog_uri, "FLEET_CATALOG_URI")
    _require_listening("The S3 storage", settings.s3_endpoint, "FLEET_S3_ENDPOINT")
    if not settings.trino_password:
        raise SettingsError(
            "FLEET_TRINO_PASSWORD is not set: give the password of the Trino user "
            f"{settings.trino_user!r}, or FLEET_DATA_DIR to read the analyst's from the embedded stack's data folder"
        )
    # HTTPS only: Trino takes a password over TLS alone, and answers 403 on its plain HTTP port.
    connection = trino.dbapi.connect(
        http_session=_trino_session(settings.trino_ca),
        host=settings.trino_host,
        port=settings.trino_port,
        user=settings.trino_user,
        auth=trino.auth.BasicAuthentication(settings.trino_user, settings.trino_password),
        catalog=TRINO_CATALOG,
        schema=NAMESPACE,
        http_scheme="https",
        timezone="UTC",
        source="fleet-notebooks",
    )
    try:
        _require_trino_serving(connection, settings)
        catalog = _open_catalog(settings)
    except BaseException:
        connection.close()
        raise
    return FleetLab(settings, connection, catalog)


def string_literal(value: str) -> str:
    """A SQL string literal, for the places Trino takes no ``?`` parameter (``FOR VERSION AS OF 'tag'``)."""
    return "'" + value.replace("'", "''") + "'"


def timestamp_literal(instant: datetime.datetime | pandas.Timestamp) -> str:
    """A Trino ``TIMESTAMP '... UTC'`` literal with milliseconds, for ``FOR TIMESTAMP AS OF``.

    Raises ``ValueError`` for a naive value: an instant without a time zone is ambiguous in an audit.
    """
    if instant.tzinfo is None:
        raise ValueError(f"{instant} has no time zone: give an aware datetime, for example with tzinfo=UTC")
    utc = instant.astimezone(datetime.UTC)
    return f"TIMESTAMP '{utc.strftime('%Y-%m-%d %H:%M:%S')}.{utc.microsecond // 1000:03d} UTC'"


def _column(rows: list[list[Any]], index: int, trino_type: str) -> Any:
    values = [row[index] for row in rows]
    if trino_type in _INTEGER_TYPES:
        # Nullable integers: pandas would turn an integer column with a null into float64, which cannot hold a
        # 64-bit snapshot id exactly (a parent_id of null is common: the first snapshot has none).
        return pandas.array(values, dtype="Int64")
    return values


def _stack_secrets(data_dir: str) -> dict[str, str]:
    """The S3 keys, the catalog reader's credential, the Trino analyst's password and Trino's CA that the embedded
    stack generated in ``<data_dir>/secrets`` and ``<data_dir>/trino/tls``."""
    if not data_dir:
        return {}
    secrets = os.path.join(data_dir, "secrets")
    s3 = _properties(os.path.join(secrets, "s3.properties"))
    catalog = _properties(os.path.join(secrets, "catalog.properties"))
    found = {}
    if "access-key" in s3 and "secret-key" in s3:
        found["FLEET_S3_ACCESS_KEY"] = s3["access-key"]
        found["FLEET_S3_SECRET_KEY"] = s3["secret-key"]
    if "fleet-reader" in catalog:
        found["FLEET_CATALOG_CREDENTIAL"] = "fleet-reader:" + catalog["fleet-reader"]
    trino_secrets = _properties(os.path.join(secrets, "trino.properties"))
    if "analyst" in trino_secrets:
        found["FLEET_TRINO_PASSWORD"] = trino_secrets["analyst"]
    trino_ca = os.path.join(data_dir, "trino", "tls", "ca.pem")
    if os.path.isfile(trino_ca):
        found["FLEET_TRINO_CA"] = trino_ca
    return found


def _properties(path: str) -> dict[str, str]:
    """``name=value`` lines of an owner-only secrets file; empty when it does not exist."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except FileNotFoundError:
        return {}
    values = {}
    for line in lines:
        if line.startswith("#") or "=" not in line:
            continue
        name, value = line.split("=", 1)
        values[name.strip()] = value.strip()
    return values


def _port(variable: str, value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise SettingsError(f"{variable}={value!r} is not a port: give a number between 1 and 65535")
    return port


def _http_url(variable: str, value: str) -> str:
    parts = urlsplit(value)
    try:
        _ = parts.port  # urlsplit validates the port only when it is read
    except ValueError as error:
        raise SettingsError(f"{variable}={value!r} has an invalid port: {error}") from error
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(f"{variable}={value!r} is not a URL: give it as http://host:port")
    return value.rstrip("/")


def _require_listening(component: str, url: str, variables: str) -> None:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=PROBE_TIMEOUT_SECONDS):
            pass
    except OSError as error:
        raise StackNotReachable(
            f"{component} is not reachable at {url} ({variables}): {error.strerror or error}. "
            f"{_START_HINT}, or point {variables} at a running one."
        ) from error


def _require_trino_serving(connection: trino.dbapi.Connection, settings: Settings) -> None:
    cursor = connection.cursor()
    try:
        cursor.execute("SELECT 1")
        cursor.fetchall()
    except trino.exceptions.TrinoQueryError as error:
        if error.error_name == "SERVER_STARTING_UP":
            raise StackNotReachable(
                f"Trino at {settings.trino_url} is still starting: wait until the stack reports 'trino ready' and run "
                "this cell again"
            ) from error
        raise
    except (requests.exceptions.ConnectionError, trino.exceptions.HttpError) as error:
        raise StackNotReachable(
            f"Trino at {settings.trino_url} (FLEET_TRINO_HOST/FLEET_TRINO_PORT) does not answer queries: {error}. "
            f"{_START_HINT}."
        ) from error
    finally:
        cursor.close()


def _trino_session(ca_file: str) -> requests.Session:
    """An HTTP session that trusts ``ca_file`` (the system's authorities when empty).

    requests lets ``REQUESTS_CA_BUNDLE`` and ``CURL_CA_BUNDLE`` override a session's ``verify`` for every request, so a
    machine that sets them would reject Trino's certificate from the stack's own CA; with a CA file the session ignores
    the environment (no proxy from it either: the stack's Trino is local or on the operator's network).
    """
    session = requests.Session()
    if ca_file:
        session.verify = ca_file
        session.trust_env = False
    return session


def _open_catalog(settings: Settings) -> RestCatalog:
    try:
        # RestCatalog directly rather than pyiceberg.catalog.load_catalog: that one also merges ~/.pyiceberg.yaml and
        # PYICEBERG_* variables, and a notebook must read the stack the FLEET_* variables name, nothing else.
        return RestCatalog("fleet", **settings.catalog_properties())
    except requests.exceptions.ConnectionError as error:
        raise StackNotReachable(
            f"The Iceberg REST catalog at {settings.catalog_uri} (FLEET_CATALOG_URI) does not answer: {error}. "
            f"{_START_HINT}."
        ) from error

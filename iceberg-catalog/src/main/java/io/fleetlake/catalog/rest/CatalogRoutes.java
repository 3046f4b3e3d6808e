package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.catalog.auth.Authenticator;
import io.fleetlake.catalog.auth.OAuth2Authority;
import io.fleetlake.http.RequestObserver;
import io.fleetlake.http.Route;
import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogRole;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.view.BaseMetastoreViewCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing table of the catalog: each Iceberg REST endpoint this server implements and its handler, a thin
 * translation onto Iceberg's {@link CatalogHandlers}. {@code GET /v1/config} advertises exactly these endpoints, so
 * clients do not call the ones left out (scan planning, credentials, request signing). Views are served because the
 * catalog creates the fleet's views and Trino reads them through these endpoints.
 */
public final class CatalogRoutes {
    static final Endpoint CONFIG = Endpoint.create("GET", "/v1/config");
    /** The REST spec's OAuth2 token endpoint ({@link TokenEndpoint}). */
    static final Endpoint TOKENS = Endpoint.create("POST", CatalogAuthentication.TOKENS_PATH);
    /** The health check for probes: 200 {"status":"ok"}, without authentication. */
    static final Endpoint HEALTH = Endpoint.create("GET", CatalogAuthentication.HEALTH_PATH);

    private static final Logger LOG = LoggerFactory.getLogger(CatalogRoutes.class);

    private final Catalog catalog;
    private final SupportsNamespaces namespaces;
    private final ViewCatalog views;
    private final Map<String, String> clientDefaults;
    /**
     * Serialises table commits through this server, so that a multi-table commit is validated and written without
     * another commit in between (see {@link MultiTableCommit}). Fair, so a burst of commits cannot starve one.
     */
    private final ReentrantLock commitLock = new ReentrantLock(true);

    private final List<Route<EndpointRoute>> routes;
    private final List<Endpoint> endpoints;

    private <C extends BaseMetastoreViewCatalog & SupportsNamespaces> CatalogRoutes(
            C catalog, Map<String, String> clientDefaults, TokenEndpoint tokens) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.namespaces = catalog;
        this.views = catalog;
        this.clientDefaults = Map.copyOf(requireNonNull(clientDefaults, "clientDefaults is null"));
        RouteAccess reader = RouteAccess.role(CatalogRole.READER);
        RouteAccess writer = RouteAccess.role(CatalogRole.WRITER);
        RouteAccess admin = RouteAccess.role(CatalogRole.ADMIN);
        this.routes = List.of(
                EndpointRoute.route(TOKENS, RouteAccess.PUBLIC, request -> Optional.of(tokens.token(request))),
                EndpointRoute.route(HEALTH, RouteAccess.PUBLIC, request -> Optional.of(HealthResponse.OK)),
                EndpointRoute.route(CONFIG, reader, this::config),
                EndpointRoute.route(Endpoint.V1_LIST_NAMESPACES, reader, this::listNamespaces),
                EndpointRoute.route(Endpoint.V1_CREATE_NAMESPACE, writer, this::createNamespace),
                EndpointRoute.route(Endpoint.V1_LOAD_NAMESPACE, reader, this::loadNamespace),
                EndpointRoute.route(Endpoint.V1_NAMESPACE_EXISTS, reader, this::namespaceExists),
                EndpointRoute.route(Endpoint.V1_DELETE_NAMESPACE, admin, this::dropNamespace),
                EndpointRoute.route(Endpoint.V1_UPDATE_NAMESPACE, admin, this::updateNamespaceProperties),
                EndpointRoute.route(Endpoint.V1_LIST_TABLES, reader, this::listTables),
                EndpointRoute.route(Endpoint.V1_CREATE_TABLE, writer, this::createTable),
                EndpointRoute.route(Endpoint.V1_LOAD_TABLE, reader, this::loadTable),
                EndpointRoute.route(Endpoint.V1_TABLE_EXISTS, reader, this::tableExists),
                EndpointRoute.route(
                        Endpoint.V1_UPDATE_TABLE,
                        request -> Optional.of(CommitAccess.required(
                                request.body(UpdateTableRequest.class).updates())),
                        this::updateTable),
                EndpointRoute.route(Endpoint.V1_DELETE_TABLE, admin, this::dropTable),
                EndpointRoute.route(Endpoint.V1_RENAME_TABLE, admin, this::renameTable),
                EndpointRoute.route(Endpoint.V1_REGISTER_TABLE, admin, this::registerTable),
                // Readers report scan metrics too.
                EndpointRoute.route(Endpoint.V1_REPORT_METRICS, reader, this::reportMetrics),
                EndpointRoute.route(
                        Endpoint.V1_COMMIT_TRANSACTION, CatalogRoutes::transactionAccess, this::commitTransaction),
                EndpointRoute.route(Endpoint.V1_LIST_VIEWS, reader, this::listViews),
                EndpointRoute.route(Endpoint.V1_CREATE_VIEW, writer, this::createView),
                EndpointRoute.route(Endpoint.V1_LOAD_VIEW, reader, this::loadView),
                EndpointRoute.route(Endpoint.V1_VIEW_EXISTS, reader, this::viewExists),
                EndpointRoute.route(Endpoint.V1_UPDATE_VIEW, writer, this::updateView),
                EndpointRoute.route(Endpoint.V1_DELETE_VIEW, admin, this::dropView),
                EndpointRoute.route(Endpoint.V1_RENAME_VIEW, admin, this::renameView));
        this.endpoints = routes.stream()
                .map(route -> route.handler().endpoint())
                .filter(endpoint -> !endpoint.equals(CONFIG) && !endpoint.equals(TOKENS) && !endpoint.equals(HEALTH))
                .toList();
    }

    /**
     * The router over a catalog that asks nobody who they are ({@code catalog.authentication=none}).
     *
     * @param catalog the backing catalog; the server owns and closes it
     * @param clientDefaults properties sent to clients as {@code defaults} in {@code GET /v1/config}; never secrets
     */
    public static <C extends BaseMetastoreViewCatalog & SupportsNamespaces> RestRouter router(
            C catalog, Map<String, String> clientDefaults) {
        return router(catalog, clientDefaults, RequestObserver.NONE, Optional.empty());
    }

    /**
     * The router over a catalog, telling {@code observer} about every request it answers.
     *
     * @param authority authenticates requests and issues tokens; empty to serve everyone as an admin
     */
    public static <C extends BaseMetastoreViewCatalog & SupportsNamespaces> RestRouter router(
            C catalog,
            Map<String, String> clientDefaults,
            RequestObserver observer,
            Optional<OAuth2Authority> authority) {
        requireNonNull(authority, "authority is null");
        return new RestRouter(
                new CatalogRoutes(catalog, clientDefaults, new TokenEndpoint(authority)).routes,
                RestJson.newMapper(),
                observer,
                authority.<Authenticator>map(present -> present).orElse(Authenticator.NONE));
    }

    /** A multi-table commit needs the highest role any of its table changes needs. */
    private static Optional<CatalogRole> transactionAccess(IcebergRequest request) {
        CatalogRole required = CatalogRole.WRITER;
        for (UpdateTableRequest change :
                request.body(CommitTransactionRequest.class).tableChanges()) {
            CatalogRole needed = CommitAccess.required(change.updates());
            if (needed.includes(required)) {
                required = needed;
            }
        }
        return Optional.of(required);
    }

    // The optional "warehouse" query parameter selects a warehouse on multi-warehouse servers; this one has one.
    private Optional<RESTResponse> config(IcebergRequest request) {
        return Optional.of(ConfigResponse.builder()
                // The builder probes for a null key, which immutable maps reject with a NullPointerException.
                .withDefaults(new HashMap<>(clientDefaults))
                .withEndpoints(endpoints)
                .build());
    }

    private Optional<RESTResponse> listNamespaces(IcebergRequest request) {
        Namespace parent = request.query("parent")
                .map(value -> RESTUtil.namespaceFromQueryParam(value, IcebergRequest.NAMESPACE_SEPARATOR))
                .orElse(Namespace.empty());
        Optional<String> pageSize = request.query("pageSize");
        if (pageSize.isPresent()) {
            return Optional.of(CatalogHandlers.listNamespaces(
                    namespaces, parent, request.query("pageToken").orElse(null), pageSize.get()));
        }
        return Optional.of(CatalogHandlers.listNamespaces(namespaces, parent));
    }

    private Optional<RESTResponse> createNamespace(IcebergRequest request) {
        return Optional.of(CatalogHandlers.createNamespace(namespaces, request.body(CreateNamespaceRequest.class)));
    }

    private Optional<RESTResponse> loadNamespace(IcebergRequest request) {
        return Optional.of(CatalogHandlers.loadNamespace(namespaces, request.namespace()));
    }

    private Optional<RESTResponse> namespaceExists(IcebergRequest request) {
        CatalogHandlers.namespaceExists(namespaces, request.namespace());
        return Optional.empty();
    }

    private Optional<RESTResponse> dropNamespace(IcebergRequest request) {
        CatalogHandlers.dropNamespace(namespaces, request.namespace());
        return Optional.empty();
    }

    private Optional<RESTResponse> updateNamespaceProperties(IcebergRequest request) {
        return Optional.of(CatalogHandlers.updateNamespaceProperties(
                namespaces, request.namespace(), request.body(UpdateNamespacePropertiesRequest.class)));
    }

    private Optional<RESTResponse> listTables(IcebergRequest request) {
        Optional<String> pageSize = request.query("pageSize");
        if (pageSize.isPresent()) {
            return Optional.of(CatalogHandlers.listTables(
                    catalog, request.namespace(), request.query("pageToken").orElse(null), pageSize.get()));
        }
        return Optional.of(CatalogHandlers.listTables(catalog, request.namespace()));
    }

    private Optional<RESTResponse> createTable(IcebergRequest request) {
        CreateTableRequest create = request.body(CreateTableRequest.class);
        if (create.stageCreate()) {
            // Nothing is written: the client commits the staged table later through the table update endpoint.
            return Optional.of(CatalogHandlers.stageTableCreate(catalog, request.namespace(), create));
        }
        return Optional.of(CatalogHandlers.createTable(catalog, request.namespace(), create));
    }

    private Optional<RESTResponse> loadTable(IcebergRequest request) {
        SnapshotMode mode = request.query(RESTCatalogProperties.SNAPSHOTS_QUERY_PARAMETER)
                .map(CatalogRoutes::snapshotMode)
                .orElse(RESTCatalogProperties.SNAPSHOT_LOADING_MODE_DEFAULT);
        return Optional.of(CatalogHandlers.loadTable(catalog, request.table(), mode));
    }

    private static SnapshotMode snapshotMode(String value) {
        for (SnapshotMode mode : SnapshotMode.values()) {
            if (mode.name().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Invalid " + RESTCatalogProperties.SNAPSHOTS_QUERY_PARAMETER + " = '"
                + value + "': use " + SnapshotMode.ALL.name().toLowerCase(Locale.ROOT) + " or "
                + SnapshotMode.REFS.name().toLowerCase(Locale.ROOT));
    }

    private Optional<RESTResponse> tableExists(IcebergRequest request) {
        CatalogHandlers.tableExists(catalog, request.table());
        return Optional.empty();
    }

    private Optional<RESTResponse> updateTable(IcebergRequest request) {
        UpdateTableRequest update = request.body(UpdateTableRequest.class);
        commitLock.lock();
        try {
            return Optional.of(CatalogHandlers.updateTable(catalog, request.table(), update));
        } finally {
            commitLock.unlock();
        }
    }

    private Optional<RESTResponse> dropTable(IcebergRequest request) {
        boolean purge =
                request.query("purgeRequested").map(Boolean::parseBoolean).orElse(false);
        if (purge) {
            CatalogHandlers.purgeTable(catalog, request.table());
        } else {
            CatalogHandlers.dropTable(catalog, request.table());
        }
        return Optional.empty();
    }

    private Optional<RESTResponse> renameTable(IcebergRequest request) {
        CatalogHandlers.renameTable(catalog, request.body(RenameTableRequest.class));
        return Optional.empty();
    }

    private Optional<RESTResponse> registerTable(IcebergRequest request) {
        return Optional.of(
                CatalogHandlers.registerTable(catalog, request.namespace(), request.body(RegisterTableRequest.class)));
    }

    // Clients report scan and commit metrics after each operation; this server has no metrics store.
    private Optional<RESTResponse> reportMetrics(IcebergRequest request) {
        ReportMetricsRequest report = request.body(ReportMetricsRequest.class);
        LOG.debug("Metrics report for {}: {}", request.table(), report.reportType());
        return Optional.empty();
    }

    private Optional<RESTResponse> listViews(IcebergRequest request) {
        Optional<String> pageSize = request.query("pageSize");
        if (pageSize.isPresent()) {
            return Optional.of(CatalogHandlers.listViews(
                    views, request.namespace(), request.query("pageToken").orElse(null), pageSize.get()));
        }
        return Optional.of(CatalogHandlers.listViews(views, request.namespace()));
    }

    private Optional<RESTResponse> createView(IcebergRequest request) {
        return Optional.of(
                CatalogHandlers.createView(views, request.namespace(), request.body(CreateViewRequest.class)));
    }

    private Optional<RESTResponse> loadView(IcebergRequest request) {
        return Optional.of(CatalogHandlers.loadView(views, request.view()));
    }

    private Optional<RESTResponse> viewExists(IcebergRequest request) {
        CatalogHandlers.viewExists(views, request.view());
        return Optional.empty();
    }

    private Optional<RESTResponse> updateView(IcebergRequest request) {
        UpdateTableRequest update = request.body(UpdateTableRequest.class);
        commitLock.lock();
        try {
            return Optional.of(CatalogHandlers.updateView(views, request.view(), update));
        } finally {
            commitLock.unlock();
        }
    }

    private Optional<RESTResponse> dropView(IcebergRequest request) {
        CatalogHandlers.dropView(views, request.view());
        return Optional.empty();
    }

    private Optional<RESTResponse> renameView(IcebergRequest request) {
        CatalogHandlers.renameView(views, request.body(RenameTableRequest.class));
        return Optional.empty();
    }

    private Optional<RESTResponse> commitTransaction(IcebergRequest request) {
        CommitTransactionRequest transaction = request.body(CommitTransactionRequest.class);
        commitLock.lock();
        try {
            MultiTableCommit.commit(catalog, transaction);
        } finally {
            commitLock.unlock();
        }
        return Optional.empty();
    }
}

package io.fleetlake.flink.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The one client of the Flink REST API in the project: the stack's session cluster (submit a job jar ({@code POST
 * /jars/upload}, {@code POST /jars/:id/run} with program arguments, parallelism and the snapshot to restore), stop it
 * with a savepoint, take a savepoint, read the state of jobs, checkpoints and TaskManagers), the stack's inspection of
 * the pipeline, the dashboard's pipeline panel and the pipeline's own restart reporter ({@link #get}). Every call has a
 * timeout; failures are {@link IOException}s that name the request and quote Flink's answer.
 *
 * <p>When the REST endpoint requires mutual TLS ({@code security.ssl.rest.authentication-enabled}), the client is
 * built with {@link Builder#tls} and presents its client certificate at every connection; without it the handshake
 * fails and every call throws.
 */
public final class FlinkRestClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The default of both the connect and the call timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Running a jar runs the job's main in the JobManager: it connects to the catalog and builds the job graph. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

    private static final Duration UPLOAD_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration SAVEPOINT_POLL_INTERVAL = Duration.ofMillis(500);
    /** Longer than the JobManager's cache of checkpoint statistics (3 s by default). */
    public static final Duration STATISTICS_REFRESH = Duration.ofSeconds(15);

    private final String restUri;
    private final Duration callTimeout;
    private final HttpClient http;

    private FlinkRestClient(Builder builder) {
        this.restUri = builder.restUri;
        this.callTimeout = builder.callTimeout;
        HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(builder.connectTimeout);
        builder.tls.ifPresent(tls -> http.sslContext(tls.sslContext()));
        this.http = http.build();
    }

    /** @param restUri for example {@code https://127.0.0.1:18081}, without a trailing slash */
    public static Builder builder(String restUri) {
        return new Builder(restUri);
    }

    public String restUri() {
        return restUri;
    }

    /** Whether the JobManager answers at all. */
    public boolean reachable() {
        try {
            get("/overview");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Every job the JobManager knows, running or ended (ended ones are kept for an hour). */
    public List<JobSummary> jobs() throws IOException {
        List<JobSummary> jobs = new ArrayList<>();
        for (JsonNode job : get("/jobs/overview").path("jobs")) {
            jobs.add(new JobSummary(
                    job.path("jid").asText(),
                    job.path("name").asText(),
                    job.path("state").asText(),
                    job.path("start-time").asLong()));
        }
        return jobs;
    }

    /** One job's state and its tasks; empty when the JobManager does not know it (404). */
    public Optional<JobDetails> job(String jobId) throws IOException {
        Optional<JsonNode> job = getIfFound("/jobs/" + jobId);
        if (job.isEmpty()) {
            return Optional.empty();
        }
        List<Vertex> vertices = new ArrayList<>();
        for (JsonNode vertex : job.get().path("vertices")) {
            vertices.add(new Vertex(
                    vertex.path("name").asText(),
                    vertex.path("parallelism").asInt(),
                    vertex.path("status").asText()));
        }
        return Optional.of(new JobDetails(
                jobId,
                job.get().path("name").asText(),
                job.get().path("state").asText(),
                job.get().path("start-time").asLong(),
                vertices));
    }

    /** The job's checkpoint statistics; empty when the JobManager does not know the job. */
    public Optional<CheckpointStatistics> checkpoints(String jobId) throws IOException {
        Optional<JsonNode> statistics = getIfFound("/jobs/" + jobId + "/checkpoints");
        if (statistics.isEmpty()) {
            return Optional.empty();
        }
        JsonNode latest = statistics.get().path("latest");
        return Optional.of(new CheckpointStatistics(
                statistics.get().path("counts").path("completed").asLong(),
                snapshot(latest.path("completed")),
                snapshot(latest.path("savepoint")),
                restored(latest.path("restored"))));
    }

    /** The job's {@code numRestarts} metric, when the JobManager reports it. */
    public OptionalLong restarts(String jobId) throws IOException {
        for (JsonNode metric : get("/jobs/" + jobId + "/metrics?get=numRestarts")) {
            if ("numRestarts".equals(metric.path("id").asText())) {
                return OptionalLong.of(metric.path("value").asLong());
            }
        }
        return OptionalLong.empty();
    }

    /** The TaskManagers registered with the JobManager. */
    public List<TaskManager> taskManagers() throws IOException {
        List<TaskManager> taskManagers = new ArrayList<>();
        for (JsonNode taskManager : get("/taskmanagers").path("taskmanagers")) {
            taskManagers.add(new TaskManager(
                    taskManager.path("id").asText(),
                    taskManager.path("slotsNumber").asInt(),
                    taskManager.path("freeSlots").asInt()));
        }
        return taskManagers;
    }

    /** Uploads a job jar; returns the id the JobManager stored it under. */
    public String uploadJar(Path jar) throws IOException {
        String boundary = "fleet-" + UUID.randomUUID();
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                        + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        long length = head.length + Files.size(jar) + tail.length;
        HttpRequest request = HttpRequest.newBuilder(URI.create(restUri + "/jars/upload"))
                .timeout(UPLOAD_TIMEOUT)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.fromPublisher(
                        HttpRequest.BodyPublishers.ofInputStream(() -> concatenate(head, jar, tail)), length))
                .build();
        JsonNode answer = send(request, "POST /jars/upload " + jar.getFileName());
        String stored = answer.path("filename").asText();
        if (stored.isEmpty()) {
            throw new IOException("POST /jars/upload answered without a file name: " + answer);
        }
        return Path.of(stored).getFileName().toString();
    }

    /**
     * Runs an uploaded jar's main class in the JobManager, which submits the job; returns the job's id.
     *
     * @param savepointPath the checkpoint or savepoint to restore, for this submission only
     */
    public String runJar(String jarId, List<String> programArguments, int parallelism, Optional<String> savepointPath)
            throws IOException {
        JsonNode answer =
                post("/jars/" + jarId + "/run", runRequest(programArguments, parallelism, savepointPath), RUN_TIMEOUT);
        String jobId = answer.path("jobid").asText();
        if (jobId.isEmpty()) {
            throw new IOException("POST /jars/" + jarId + "/run answered without a job id: " + answer);
        }
        return jobId;
    }

    /**
     * The body of {@code POST /jars/:id/run}: the program arguments as a list (never one string Flink would split at
     * spaces), the parallelism, the snapshot to restore only when there is one, and never unclaimed state.
     */
    static ObjectNode runRequest(List<String> programArguments, int parallelism, Optional<String> savepointPath) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("The parallelism must be at least 1, got " + parallelism);
        }
        ObjectNode body = JSON.createObjectNode();
        body.putArray("programArgsList")
                .addAll(programArguments.stream()
                        .map(JSON.getNodeFactory()::textNode)
                        .toList());
        body.put("parallelism", parallelism);
        savepointPath.ifPresent(path -> body.put("savepointPath", path));
        // No state may go unclaimed: a snapshot that does not map onto the job's operators (an operator lost its uid)
        // is refused instead of silently restoring without that operator's state.
        body.put("allowNonRestoredState", false);
        return body;
    }

    /** Deletes an uploaded jar from the JobManager's upload folder. */
    public void deleteJar(String jarId) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(restUri + "/jars/" + jarId))
                .timeout(callTimeout)
                .DELETE()
                .build();
        send(request, "DELETE /jars/" + jarId);
    }

    /**
     * Stops the job with a savepoint in {@code directory} (its sources stop, a last savepoint is taken and committed,
     * the job ends as FINISHED) and waits for it; returns the savepoint's path. The savepoint is in Flink's canonical
     * format, which any state backend restores: the embedded pipeline's heap as well as the cluster's RocksDB.
     */
    public String stopWithSavepoint(String jobId, String directory, Duration timeout) throws IOException {
        return awaitSavepoint(
                jobId,
                post("/jobs/" + jobId + "/stop", stopRequest(directory), callTimeout)
                        .path("request-id")
                        .asText(),
                timeout);
    }

    /**
     * The body of {@code POST /jobs/:id/stop}: the canonical format, and no drain: a drain would fire windows early and
     * end the input, which Iceberg's committer commits as checkpoint {@code Long.MAX_VALUE}, after which the job's own
     * savepoint would count as older than its last commit.
     */
    static ObjectNode stopRequest(String directory) {
        ObjectNode body = JSON.createObjectNode();
        body.put("targetDirectory", directory);
        body.put("drain", false);
        body.put("formatType", "CANONICAL");
        return body;
    }

    /**
     * The completed savepoint at {@code path} among the job's snapshots the JobManager reports (the latest savepoint,
     * then the recent history): its checkpoint id and completion time, which the restore guard needs. The JobManager
     * caches checkpoint statistics for a few seconds ({@code rest.cache.checkpoint-statistics.timeout}, 3 s), so right
     * after a stop the savepoint may not be listed yet: this asks again until it is, for at most {@code timeout}.
     * Empty when the JobManager does not know the job, or still does not list that savepoint by then.
     */
    public Optional<Snapshot> completedSavepoint(String jobId, String path, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<JsonNode> statistics = getIfFound("/jobs/" + jobId + "/checkpoints");
            if (statistics.isEmpty()) {
                return Optional.empty();
            }
            Optional<Snapshot> found = savepointAt(statistics.get(), path);
            if (found.isPresent() || System.nanoTime() - deadline > 0) {
                return found;
            }
            pause("the statistics of job " + jobId);
        }
    }

    /** The completed savepoint at {@code path} in a {@code /jobs/:id/checkpoints} answer. */
    static Optional<Snapshot> savepointAt(JsonNode statistics, String path) {
        List<JsonNode> candidates = new ArrayList<>();
        candidates.add(statistics.path("latest").path("savepoint"));
        statistics.path("history").forEach(candidates::add);
        return candidates.stream()
                .filter(node -> path.equals(node.path("external_path").asText(null)))
                .filter(node -> "COMPLETED".equals(node.path("status").asText("COMPLETED")))
                .findFirst()
                .flatMap(FlinkRestClient::snapshot);
    }

    /** Takes a savepoint in {@code directory} while the job goes on, and waits for it; returns its path. */
    public String savepoint(String jobId, String directory, Duration timeout) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.put("target-directory", directory);
        body.put("cancel-job", false);
        String trigger = post("/jobs/" + jobId + "/savepoints", body, callTimeout)
                .path("request-id")
                .asText();
        return awaitSavepoint(jobId, trigger, timeout);
    }

    /** Cancels the job; its last checkpoint is retained. */
    public void cancel(String jobId) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(restUri + "/jobs/" + jobId + "?mode=cancel"))
                .timeout(callTimeout)
                .method("PATCH", HttpRequest.BodyPublishers.noBody())
                .build();
        send(request, "PATCH /jobs/" + jobId);
    }

    private String awaitSavepoint(String jobId, String trigger, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode status = get("/jobs/" + jobId + "/savepoints/" + trigger);
            if ("COMPLETED".equals(status.path("status").path("id").asText())) {
                JsonNode operation = status.path("operation");
                if (operation.hasNonNull("location")) {
                    return operation.path("location").asText();
                }
                throw new IOException("The savepoint of job " + jobId + " failed: "
                        + operation.path("failure-cause").path("stack-trace").asText(operation.toString()));
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException(
                        "The savepoint of job " + jobId + " did not complete within " + timeout.toSeconds() + " s");
            }
            pause("the savepoint of job " + jobId);
        }
    }

    private static void pause(String waitingFor) throws IOException {
        try {
            TimeUnit.MILLISECONDS.sleep(SAVEPOINT_POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while waiting for " + waitingFor, e);
        }
    }

    private static Optional<Snapshot> snapshot(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        return Optional.of(new Snapshot(
                node.path("id").asLong(),
                node.path("external_path").asText(),
                node.path("checkpointed_size").asLong(node.path("state_size").asLong()),
                node.path("state_size").asLong(),
                Duration.ofMillis(node.path("end_to_end_duration").asLong()),
                node.path("latest_ack_timestamp").asLong()));
    }

    private static Optional<String> restored(JsonNode node) {
        if (node.isMissingNode() || node.isNull() || !node.hasNonNull("external_path")) {
            return Optional.empty();
        }
        return Optional.of(node.path("external_path").asText());
    }

    /**
     * Any GET of the REST API.
     *
     * @param pathAndQuery such as {@code /jobs/overview}, already URL-encoded
     * @return the parsed JSON body of a 2xx answer
     * @throws IOException when the endpoint cannot be reached (the TLS handshake failed among others), answers with
     *     another status, or not with JSON
     */
    public JsonNode get(String pathAndQuery) throws IOException {
        requireNonNull(pathAndQuery, "pathAndQuery is null");
        HttpRequest request = HttpRequest.newBuilder(URI.create(restUri + pathAndQuery))
                .timeout(callTimeout)
                .header("Accept", "application/json")
                .GET()
                .build();
        return send(request, "GET " + pathAndQuery);
    }

    private Optional<JsonNode> getIfFound(String path) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(restUri + path))
                .timeout(callTimeout)
                .GET()
                .build();
        HttpResponse<String> response = exchange(request, "GET " + path);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        return Optional.of(parse(response, "GET " + path));
    }

    private JsonNode post(String path, JsonNode body, Duration timeout) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(restUri + path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
        return send(request, "POST " + path);
    }

    private JsonNode send(HttpRequest request, String what) throws IOException {
        return parse(exchange(request, what), what);
    }

    private HttpResponse<String> exchange(HttpRequest request, String what) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException(what + " to the Flink REST API at " + restUri + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted during " + what, e);
        }
    }

    private static JsonNode parse(HttpResponse<String> response, String what) throws IOException {
        if (response.statusCode() / 100 != 2) {
            throw new IOException(what + " answered " + response.statusCode() + ": " + errors(response.body()));
        }
        String body = response.body();
        return body == null || body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
    }

    /** Flink's {@code errors} array, the first lines of each stack trace; the body as it is otherwise. */
    private static String errors(String body) {
        try {
            JsonNode errors = JSON.readTree(body).path("errors");
            if (!errors.isArray()) {
                return body;
            }
            List<String> messages = new ArrayList<>();
            for (JsonNode error : errors) {
                messages.add(causes(error.asText()));
            }
            return String.join("; ", messages);
        } catch (IOException e) {
            return body;
        }
    }

    /** The exception and its causes of a Flink error text, without the stack frames. */
    static String causes(String error) {
        List<String> lines = new ArrayList<>();
        for (String line : error.split("\n")) {
            String trimmed = line.strip();
            if (lines.isEmpty() || trimmed.startsWith("Caused by:")) {
                lines.add(trimmed);
            }
        }
        return String.join(" / ", lines);
    }

    private static InputStream concatenate(byte[] head, Path file, byte[] tail) {
        try {
            return new SequenceInputStream(Collections.enumeration(List.of(
                    new java.io.ByteArrayInputStream(head),
                    Files.newInputStream(file),
                    new java.io.ByteArrayInputStream(tail))));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** A job as {@code /jobs/overview} lists it. */
    public record JobSummary(String id, String name, String state, long startTime) {
        public JobSummary {
            requireNonNull(id, "id is null");
            requireNonNull(name, "name is null");
            requireNonNull(state, "state is null");
        }

        /** FINISHED, CANCELED or FAILED: the job will not run again by itself. */
        public boolean ended() {
            return JobDetails.ended(state);
        }

        public boolean running() {
            return "RUNNING".equals(state);
        }
    }

    /** A job with its tasks. */
    public record JobDetails(String id, String name, String state, long startTime, List<Vertex> vertices) {
        public JobDetails {
            requireNonNull(id, "id is null");
            requireNonNull(name, "name is null");
            requireNonNull(state, "state is null");
            vertices = List.copyOf(requireNonNull(vertices, "vertices is null"));
        }

        /** The job runs and every one of its tasks is deployed and running. */
        public boolean fullyRunning() {
            return "RUNNING".equals(state)
                    && !vertices.isEmpty()
                    && vertices.stream().allMatch(vertex -> "RUNNING".equals(vertex.status()));
        }

        public boolean ended() {
            return ended(state);
        }

        /** The highest parallelism of its tasks: the job's parallelism (the route source always runs alone). */
        public int parallelism() {
            return vertices.stream().mapToInt(Vertex::parallelism).max().orElse(0);
        }

        static boolean ended(String state) {
            return "FINISHED".equals(state) || "CANCELED".equals(state) || "FAILED".equals(state);
        }
    }

    /** One task of a job (a chain of operators). */
    public record Vertex(String name, int parallelism, String status) {
        public Vertex {
            requireNonNull(name, "name is null");
            requireNonNull(status, "status is null");
        }
    }

    /**
     * What the JobManager knows about a job's checkpoints.
     *
     * @param completed how many completed
     * @param latestCheckpoint the newest completed checkpoint
     * @param latestSavepoint the newest completed savepoint
     * @param restoredFrom the snapshot the job was started from
     */
    public record CheckpointStatistics(
            long completed,
            Optional<Snapshot> latestCheckpoint,
            Optional<Snapshot> latestSavepoint,
            Optional<String> restoredFrom) {
        public CheckpointStatistics {
            requireNonNull(latestCheckpoint, "latestCheckpoint is null");
            requireNonNull(latestSavepoint, "latestSavepoint is null");
            requireNonNull(restoredFrom, "restoredFrom is null");
        }

        /** The newer of the latest checkpoint and savepoint: checkpoints and savepoints of a job share one counter. */
        public Optional<Snapshot> newest() {
            if (latestCheckpoint.isEmpty()) {
                return latestSavepoint;
            }
            if (latestSavepoint.isEmpty()) {
                return latestCheckpoint;
            }
            return latestSavepoint.get().id() > latestCheckpoint.get().id() ? latestSavepoint : latestCheckpoint;
        }
    }

    /**
     * A completed checkpoint or savepoint.
     *
     * @param checkpointedBytes what this snapshot wrote (an incremental checkpoint writes only what changed)
     * @param stateBytes the whole state it holds
     * @param duration from its trigger until every task acknowledged it
     */
    public record Snapshot(
            long id, String path, long checkpointedBytes, long stateBytes, Duration duration, long completedAt) {
        public Snapshot {
            requireNonNull(path, "path is null");
            requireNonNull(duration, "duration is null");
        }
    }

    /** A TaskManager registered with the JobManager. */
    public record TaskManager(String id, int slots, int freeSlots) {
        public TaskManager {
            requireNonNull(id, "id is null");
        }
    }

    /** Builds a {@link FlinkRestClient}; only the REST URI is required. */
    public static final class Builder {
        private final String restUri;
        private Duration connectTimeout = DEFAULT_TIMEOUT;
        private Duration callTimeout = DEFAULT_TIMEOUT;
        private Optional<FlinkRestTls> tls = Optional.empty();

        private Builder(String restUri) {
            requireNonNull(restUri, "restUri is null");
            if (!restUri.startsWith("http://") && !restUri.startsWith("https://")) {
                throw new IllegalArgumentException(
                        "The Flink REST URI must start with http:// or https://, got " + restUri);
            }
            this.restUri = restUri.replaceAll("/+$", "");
        }

        /** How long to wait for a connection (and its TLS handshake); 10 s by default. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        /** How long to wait for an answer to an ordinary call; 10 s by default (uploads and runs wait longer). */
        public Builder callTimeout(Duration callTimeout) {
            this.callTimeout = positive(callTimeout, "callTimeout");
            return this;
        }

        /** The client certificate and the trusted CA of an endpoint with mutual TLS; requires an https URI. */
        public Builder tls(FlinkRestTls tls) {
            this.tls = Optional.of(requireNonNull(tls, "tls is null"));
            return this;
        }

        public FlinkRestClient build() {
            if (tls.isPresent() && !restUri.startsWith("https://")) {
                throw new IllegalStateException("A client certificate was given for " + restUri
                        + ", which is not https: use the https URI of the REST endpoint");
            }
            return new FlinkRestClient(this);
        }

        private static Duration positive(Duration duration, String name) {
            requireNonNull(duration, name + " is null");
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + duration);
            }
            return duration;
        }
    }
}

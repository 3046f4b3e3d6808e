// Fleet operations page: live fleet from /api/vehicles and /api/summary, replay from /api/replay.
// Plain JavaScript, no library, no network access beyond this server.
'use strict';

(function () {
    const SVG = 'http://www.w3.org/2000/svg';
    const STATUSES = ['ON_ROUTE', 'DEVIATING', 'STOPPED', 'NO_ROUTE'];
    const STATUS_LABELS = {
        ON_ROUTE: 'On route', DEVIATING: 'Deviating', STOPPED: 'Stopped', NO_ROUTE: 'No route', UNKNOWN: 'Unknown',
    };
    // A request that hangs must not stop the polling: it is aborted after this long at the latest.
    const MINIMUM_REQUEST_TIMEOUT_MS = 10000;

    // Map frames (equirectangular, each scaled by the cosine of its middle latitude): the mainland with the
    // Balearic Islands, Ceuta and Melilla, and insets for the Atlantic islands, all within the viewBox 1000 x 600.
    const FRAMES = [
        {label: 'Azores', lon: [-31.5, -24.8], lat: [36.7, 40.0], box: {x: 8, y: 8, w: 284, h: 190}},
        {label: 'Madeira and Canary Islands', lon: [-18.4, -13.1], lat: [27.4, 33.3], box: {x: 8, y: 210, w: 284, h: 382}},
        {label: '', lon: [-10.0, 4.7], lat: [35.0, 44.0], box: {x: 300, y: 8, w: 692, h: 584}},
    ];

    const state = {
        mode: 'live',
        settings: {pollIntervalMs: 2000, staleAfterMs: 120000},
        vehicles: [],
        asOf: null,
        // Server clock minus browser clock, so that ages and staleness follow the server's time.
        clockOffsetMs: 0,
        selectedId: null,
        replay: null,
        // Each mode switch increments the generation; answers to requests of an older generation are dropped.
        generation: 0,
        liveTimer: null,
        inFlight: null,
        // Vehicles the server left out because their stored state is unreadable.
        skipped: [],
        lastFailure: null,
        refreshCount: 0,
    };

    const elements = {};
    const markers = new Map();
    const listItems = new Map();

    document.addEventListener('DOMContentLoaded', start);

    async function start() {
        for (const id of ['mode-banner', 'data-time', 'data-age', 'api-warning', 'back-to-live', 'map', 'region-layer',
            'frame-layer', 'markers', 'map-message', 'legend-stale-after', 'vehicle-count', 'status-counts',
            'stale-count', 'rejection-rate', 'rejection-detail', 'replay-at', 'replay-snapshot', 'snapshots-refresh',
            'snapshots-status', 'replay-start', 'replay-error', 'vehicle-details', 'vehicle-filter', 'list-count', 'vehicle-list',
            'health-status', 'health-problems']) {
            elements[id] = document.getElementById(id);
        }
        elements['vehicle-filter'].addEventListener('input', applyFilter);
        elements['replay-start'].addEventListener('click', startReplay);
        elements['back-to-live'].addEventListener('click', backToLive);
        elements['snapshots-refresh'].addEventListener('click', loadSnapshots);
        elements['replay-at'].value = localInputValue(new Date(Date.now() - 10 * 60 * 1000));
        drawFrames();
        enableSignOut();
        try {
            const settings = await fetchJson('/api/config');
            state.settings = {pollIntervalMs: settings.poll_interval_ms, staleAfterMs: settings.stale_after_ms};
        } catch (error) {
            showWarning('Cannot read /api/config (' + describe(error) + '); polling every 2 s');
        }
        elements['legend-stale-after'].textContent = formatDuration(state.settings.staleAfterMs);
        loadRegion();
        loadSnapshots();
        setInterval(tick, 1000);
        startLive();
        pollHealth();
    }

    // ---- stack health (the report of `fleet status`, computed by fleet-exporter) -------------------------------

    const HEALTH_POLL_MS = 10000;

    async function pollHealth() {
        const status = elements['health-status'];
        const problems = elements['health-problems'];
        const request = abortable(8000);
        try {
            const health = await fetchJson('/api/health', request.controller.signal);
            status.textContent = health.healthy ? (health.status === 'WARN' ? 'healthy, with warnings' : 'healthy') : 'UNHEALTHY';
            status.dataset.status = health.status;
            problems.replaceChildren(...health.checks
                .filter(check => check.status !== 'OK')
                .map(check => {
                    const item = document.createElement('li');
                    item.dataset.status = check.status;
                    item.textContent = check.area + ' / ' + check.subject + ': ' + check.detail;
                    return item;
                }));
        } catch (error) {
            status.textContent = 'unavailable';
            status.dataset.status = '';
            const item = document.createElement('li');
            item.textContent = describe(error);
            problems.replaceChildren(item);
        } finally {
            request.done();
        }
        setTimeout(pollHealth, HEALTH_POLL_MS);
    }

    // ---- session ------------------------------------------------------------------------------------------------

    // The sign-out form must carry the session's CSRF token, which the server hands out at /api/session only to the
    // signed-in page (another site cannot read it).
    async function enableSignOut() {
        try {
            const session = await fetchJson('/api/session');
            document.getElementById('sign-out-csrf').value = session.csrf_token;
            const button = document.getElementById('sign-out');
            button.title = 'Signed in as ' + session.user;
            button.disabled = false;
        } catch (error) {
            showWarning('Cannot read /api/session (' + describe(error) + ')');
        }
    }

    // ---- requests ---------------------------------------------------------------------------------------------

    async function fetchJson(url, signal) {
        const response = await fetch(url, {cache: 'no-store', headers: {Accept: 'application/json'}, signal});
        let body = null;
        try {
            body = await response.json();
        } catch (error) {
            body = null;
        }
        if (response.status === 401) {
            // The session ended (idle, lifetime, signed out elsewhere): back to the sign-in page.
            window.location.assign('/sign-in');
        }
        if (!response.ok) {
            const message = body && body.message ? body.message : 'HTTP ' + response.status;
            const failure = new Error(message);
            failure.status = response.status;
            throw failure;
        }
        return body;
    }

    function describe(error) {
        if (error.name === 'AbortError') {
            return 'the server did not answer in time';
        }
        // fetch rejects with a TypeError when the server cannot be reached at all.
        return error instanceof TypeError ? 'the dashboard server cannot be reached' : error.message;
    }

    function abortable(timeoutMs) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), timeoutMs);
        return {controller, done: () => clearTimeout(timer)};
    }

    // ---- live mode --------------------------------------------------------------------------------------------

    function startLive() {
        state.mode = 'live';
        const generation = ++state.generation;
        state.replay = null;
        elements['rejection-rate'].textContent = '--';
        elements['rejection-detail'].textContent = '';
        setBanner();
        pollLive(generation);
    }

    // One refresh at a time: the next one is scheduled only when this one has finished, whatever its outcome.
    async function pollLive(generation) {
        const request = abortable(Math.max(MINIMUM_REQUEST_TIMEOUT_MS, 3 * state.settings.pollIntervalMs));
        state.inFlight = request.controller;
        const [vehicles, summary] = await Promise.allSettled([
            fetchJson('/api/vehicles', request.controller.signal),
            fetchJson('/api/summary', request.controller.signal),
        ]);
        request.done();
        if (generation !== state.generation) {
            return;
        }
        state.inFlight = null;
        try {
            if (vehicles.status === 'fulfilled') {
                applyVehicles(vehicles.value);
            }
            if (summary.status === 'fulfilled') {
                applySummary(summary.value);
            }
            const failed = [vehicles, summary].find(result => result.status === 'rejected');
            state.lastFailure = failed ? describe(failed.reason) : null;
        } catch (error) {
            // A rendering bug must not end the polling: it is reported like a failed refresh.
            console.error(error);
            state.lastFailure = 'the page could not show the data (' + error.message + ')';
        } finally {
            state.refreshCount++;
            document.body.dataset.refreshCount = String(state.refreshCount);
            renderWarning();
            state.liveTimer = setTimeout(() => pollLive(generation), state.settings.pollIntervalMs);
        }
    }

    function stopLive() {
        clearTimeout(state.liveTimer);
        state.liveTimer = null;
        if (state.inFlight) {
            state.inFlight.abort();
            state.inFlight = null;
        }
    }

    function applyVehicles(reply) {
        const asOf = Date.parse(reply.as_of);
        // Answers never overlap, but a server clock stepping back must not bring older data over newer data.
        if (state.asOf !== null && asOf < state.asOf) {
            return;
        }
        state.asOf = asOf;
        state.clockOffsetMs = asOf - Date.now();
        state.vehicles = reply.vehicles;
        state.skipped = reply.skipped_vehicles || [];
        render();
    }

    function applySummary(summary) {
        const rate = elements['rejection-rate'];
        const detail = elements['rejection-detail'];
        if (summary.rejection_rate === null || summary.rejection_rate === undefined) {
            rate.textContent = 'unavailable';
            rate.dataset.rate = '';
            detail.textContent = summary.rejection_rate_unavailable || '';
        } else {
            rate.textContent = (summary.rejection_rate * 100).toFixed(2) + ' %';
            rate.dataset.rate = String(summary.rejection_rate);
            const pipeline = summary.pipeline;
            detail.textContent = pipeline.records_rejected.toLocaleString() + ' rejected of '
                + pipeline.records_read.toLocaleString() + ' read since the job started';
        }
    }

    // ---- replay mode ------------------------------------------------------------------------------------------

    async function startReplay() {
        const input = elements['replay-at'].value;
        const at = new Date(input);
        if (!input || Number.isNaN(at.getTime())) {
            showReplayError('Choose the instant to replay.');
            return;
        }
        const snapshot = elements['replay-snapshot'].value;
        stopLive();
        state.mode = 'replay';
        const generation = ++state.generation;
        state.replay = {at: at.toISOString(), snapshot: snapshot || null, loading: true};
        showReplayError(null);
        // Never leave live positions on the map under a replay banner.
        state.vehicles = [];
        state.skipped = [];
        state.asOf = null;
        render();
        setBanner();
        const parameters = new URLSearchParams({at: at.toISOString()});
        if (snapshot) {
            parameters.set('snapshot', snapshot);
        }
        const request = abortable(120000);
        state.inFlight = request.controller;
        try {
            const reply = await fetchJson('/api/replay?' + parameters, request.controller.signal);
            if (generation !== state.generation) {
                return;
            }
            state.replay = {at: reply.at, snapshot: reply.snapshot, loading: false, scannedFrom: reply.scanned_from};
            state.vehicles = reply.vehicles;
            state.skipped = reply.skipped_vehicles || [];
            state.asOf = Date.parse(reply.at);
            setBanner();
            render();
        } catch (error) {
            if (generation !== state.generation) {
                return;
            }
            state.replay.loading = false;
            state.replay.failed = describe(error);
            showReplayError(state.replay.failed);
            setBanner();
            render();
        } finally {
            request.done();
            if (generation === state.generation) {
                state.inFlight = null;
            }
        }
    }

    function backToLive() {
        stopLive();
        state.vehicles = [];
        state.skipped = [];
        state.asOf = null;
        state.lastFailure = null;
        showReplayError(null);
        render();
        startLive();
    }

    async function loadSnapshots() {
        const picker = elements['replay-snapshot'];
        const status = elements['snapshots-status'];
        try {
            const reply = await fetchJson('/api/snapshots');
            const selected = picker.value;
            picker.replaceChildren(option('', 'current table'));
            for (const snapshot of reply.snapshots) {
                const added = snapshot.added_records === null ? '' : ' (+' + snapshot.added_records + ' rows)';
                picker.append(option(snapshot.id, formatDateTime(new Date(snapshot.committed_at)) + ' \u00b7 '
                    + snapshot.id + added));
            }
            picker.value = [...picker.options].some(item => item.value === selected) ? selected : '';
            status.hidden = true;
            status.textContent = '';
        } catch (error) {
            picker.replaceChildren(option('', 'current table'));
            status.hidden = false;
            status.textContent = 'Snapshot list unavailable: ' + describe(error);
        }
    }

    function option(value, text) {
        const element = document.createElement('option');
        element.value = value;
        element.textContent = text;
        return element;
    }

    function showReplayError(message) {
        const element = elements['replay-error'];
        element.hidden = !message;
        element.textContent = message || '';
    }

    // ---- rendering --------------------------------------------------------------------------------------------

    function setBanner() {
        const banner = elements['mode-banner'];
        banner.dataset.mode = state.mode;
        document.body.dataset.mode = state.mode;
        elements['back-to-live'].hidden = state.mode !== 'replay';
        if (state.mode === 'live') {
            banner.textContent = 'LIVE';
            banner.dataset.at = '';
            banner.dataset.snapshot = '';
            return;
        }
        const replay = state.replay;
        const snapshot = replay.snapshot ? ' snapshot ' + replay.snapshot : '';
        let text = 'REPLAY \u2014 fleet as of ' + formatDateTime(new Date(replay.at)) + snapshot;
        if (replay.loading) {
            text += ' (loading\u2026)';
        } else if (replay.failed) {
            text += ' (failed)';
        }
        banner.textContent = text;
        banner.dataset.at = replay.at;
        banner.dataset.snapshot = replay.snapshot || '';
    }

    function render() {
        const now = serverNow();
        for (const vehicle of state.vehicles) {
            vehicle.staleNow = isStale(vehicle, now);
        }
        renderMarkers();
        renderList();
        renderCounts();
        renderDetails();
        renderClock();
        renderMapMessage();
    }

    // Live staleness follows the clock between refreshes, so a vehicle turns grey even while the API is down.
    function isStale(vehicle, now) {
        if (state.mode !== 'live') {
            return vehicle.stale;
        }
        return vehicle.stale || now - Date.parse(vehicle.event_time) > state.settings.staleAfterMs;
    }

    function serverNow() {
        return Date.now() + state.clockOffsetMs;
    }

    function tick() {
        if (state.mode !== 'live') {
            return;
        }
        const now = serverNow();
        let changed = false;
        for (const vehicle of state.vehicles) {
            const stale = isStale(vehicle, now);
            if (stale !== vehicle.staleNow) {
                vehicle.staleNow = stale;
                changed = true;
            }
        }
        if (changed) {
            renderMarkers();
            renderList();
            renderCounts();
        }
        renderClock();
        renderWarning();
    }

    function renderMarkers() {
        const layer = elements.markers;
        const present = new Set();
        for (const vehicle of state.vehicles) {
            present.add(vehicle.vehicle_id);
            let marker = markers.get(vehicle.vehicle_id);
            if (!marker) {
                marker = document.createElementNS(SVG, 'circle');
                marker.setAttribute('r', '4');
                marker.dataset.vehicleId = vehicle.vehicle_id;
                marker.append(document.createElementNS(SVG, 'title'));
                marker.addEventListener('click', () => select(vehicle.vehicle_id));
                markers.set(vehicle.vehicle_id, marker);
                layer.append(marker);
            }
            const [x, y] = project(vehicle.longitude, vehicle.latitude);
            const status = statusOf(vehicle);
            marker.setAttribute('cx', x.toFixed(1));
            marker.setAttribute('cy', y.toFixed(1));
            marker.dataset.lat = String(vehicle.latitude);
            marker.dataset.lon = String(vehicle.longitude);
            marker.dataset.status = status;
            marker.dataset.stale = String(vehicle.staleNow);
            marker.dataset.eventTime = vehicle.event_time;
            marker.setAttribute('class', 'vehicle-marker status-' + status + (vehicle.staleNow ? ' stale' : '')
                + (vehicle.vehicle_id === state.selectedId ? ' selected' : ''));
            marker.firstChild.textContent = vehicle.vehicle_id + ' \u2014 ' + STATUS_LABELS[status]
                + (vehicle.staleNow ? ' (stale)' : '') + '\n' + formatSpeed(vehicle) + ', fix '
                + formatAge(Date.parse(vehicle.event_time));
        }
        for (const [vehicleId, marker] of markers) {
            if (!present.has(vehicleId)) {
                marker.remove();
                markers.delete(vehicleId);
            }
        }
        const selected = markers.get(state.selectedId);
        if (selected) {
            // Drawn last, so that it is on top of its neighbours.
            layer.append(selected);
        }
    }

    function renderList() {
        const list = elements['vehicle-list'];
        const present = new Set();
        let previous = null;
        for (const vehicle of state.vehicles) {
            present.add(vehicle.vehicle_id);
            let item = listItems.get(vehicle.vehicle_id);
            if (!item) {
                item = document.createElement('li');
                item.dataset.vehicleId = vehicle.vehicle_id;
                for (let cell = 0; cell < 4; cell++) {
                    item.append(document.createElement('span'));
                }
                item.children[0].className = 'swatch';
                item.addEventListener('click', () => select(vehicle.vehicle_id));
                listItems.set(vehicle.vehicle_id, item);
            }
            const status = statusOf(vehicle);
            item.dataset.status = status;
            item.dataset.stale = String(vehicle.staleNow);
            item.dataset.search = [vehicle.vehicle_id, status, vehicle.route_id || '', vehicle.next_stop_id || '']
                .join(' ').toLowerCase();
            item.className = 'vehicle-item' + (vehicle.staleNow ? ' stale' : '')
                + (vehicle.vehicle_id === state.selectedId ? ' selected' : '');
            item.children[0].className = 'swatch ' + (vehicle.staleNow ? 'stale' : 'status-' + status);
            item.children[1].textContent = vehicle.vehicle_id;
            item.children[2].textContent = STATUS_LABELS[status];
            item.children[3].textContent = formatSpeed(vehicle);
            // Keeps the list in the server's order (by vehicle id) without rebuilding it.
            const expectedPosition = previous ? previous.nextSibling : list.firstChild;
            if (expectedPosition !== item) {
                list.insertBefore(item, expectedPosition);
            }
            previous = item;
        }
        for (const [vehicleId, item] of listItems) {
            if (!present.has(vehicleId)) {
                item.remove();
                listItems.delete(vehicleId);
            }
        }
        applyFilter();
    }

    function applyFilter() {
        const terms = elements['vehicle-filter'].value.trim().toLowerCase().split(/\s+/).filter(Boolean);
        let shown = 0;
        for (const item of listItems.values()) {
            const match = terms.every(term => item.dataset.search.includes(term));
            item.hidden = !match;
            if (match) {
                shown++;
            }
        }
        const count = elements['list-count'];
        count.dataset.shown = String(shown);
        count.dataset.total = String(listItems.size);
        count.textContent = shown === listItems.size ? listItems.size + ' vehicles'
            : shown + ' of ' + listItems.size + ' vehicles';
    }

    function renderCounts() {
        const counts = {UNKNOWN: 0, STALE: 0};
        for (const status of STATUSES) {
            counts[status] = 0;
        }
        for (const vehicle of state.vehicles) {
            counts[statusOf(vehicle)]++;
            if (vehicle.staleNow) {
                counts.STALE++;
            }
        }
        const total = elements['vehicle-count'];
        total.textContent = state.vehicles.length.toLocaleString();
        total.dataset.count = String(state.vehicles.length);
        for (const item of elements['status-counts'].children) {
            const count = counts[item.dataset.statusCount];
            item.dataset.count = String(count);
            item.querySelector('b').textContent = count.toLocaleString();
        }
        if (state.mode === 'replay') {
            elements['rejection-rate'].textContent = 'live only';
            elements['rejection-rate'].dataset.rate = '';
            elements['rejection-detail'].textContent = '';
        }
    }

    function renderDetails() {
        const panel = elements['vehicle-details'];
        const vehicle = state.vehicles.find(candidate => candidate.vehicle_id === state.selectedId);
        panel.dataset.vehicleId = vehicle ? vehicle.vehicle_id : '';
        if (!vehicle) {
            panel.textContent = state.selectedId
                ? 'Vehicle ' + state.selectedId + ' is not in the current data.'
                : 'Select a vehicle on the map or in the list.';
            return;
        }
        const rows = [
            ['Vehicle', vehicle.vehicle_id],
            ['Status', STATUS_LABELS[statusOf(vehicle)] + (vehicle.staleNow ? ' \u2014 STALE' : '')],
            ['Fix taken', formatDateTime(new Date(vehicle.event_time)) + ' (' + formatAge(Date.parse(vehicle.event_time)) + ')'],
            ['Position', vehicle.latitude.toFixed(5) + ', ' + vehicle.longitude.toFixed(5)],
            // Places are named in the history by fleet geocode: a replay shows them, the live state has none.
            ['Place', vehicle.place_name ? vehicle.place_name + (vehicle.province ? ', ' + vehicle.province : '')
                : (state.mode === 'replay' ? 'not geocoded yet' : '\u2014')],
            ['Speed', formatSpeed(vehicle)],
            ['Heading', vehicle.heading_deg === null ? '\u2014' : Math.round(vehicle.heading_deg) + '\u00b0'],
            ['Route', orDash(vehicle.route_id) + (vehicle.enrichment_stale ? ' (route data stale)' : '')],
            ['Next stop', orDash(vehicle.next_stop_id) + (vehicle.distance_to_next_stop_m === null ? ''
                : ' in ' + formatDistance(vehicle.distance_to_next_stop_m))],
            ['Off route', vehicle.distance_from_route_m === null ? '\u2014' : formatDistance(vehicle.distance_from_route_m)],
            ['Battery', vehicle.battery_level === null ? '\u2014' : Math.round(vehicle.battery_level) + ' %'],
            [state.mode === 'live' ? 'Written' : 'Ingested', vehicle.updated_at === null ? '\u2014'
                : formatDateTime(new Date(vehicle.updated_at))],
        ];
        const list = document.createElement('dl');
        for (const [label, value] of rows) {
            const term = document.createElement('dt');
            term.textContent = label;
            const description = document.createElement('dd');
            description.textContent = value;
            list.append(term, description);
        }
        panel.replaceChildren(list);
    }

    function renderClock() {
        const time = elements['data-time'];
        const age = elements['data-age'];
        if (state.mode === 'replay') {
            time.textContent = state.replay && !state.replay.loading && !state.replay.failed
                ? 'history as of ' + formatTime(new Date(state.replay.at)) : 'history: --:--:--';
            time.dataset.asOf = state.replay ? state.replay.at : '';
            age.textContent = state.vehicles.length + ' vehicles in the replay';
            age.dataset.ageSeconds = '';
            age.classList.remove('old');
            return;
        }
        if (state.asOf === null) {
            time.textContent = 'data as of --:--:--';
            time.dataset.asOf = '';
            age.textContent = 'newest update: none yet';
            age.dataset.ageSeconds = '';
            return;
        }
        time.textContent = 'data as of ' + formatTime(new Date(state.asOf));
        time.dataset.asOf = new Date(state.asOf).toISOString();
        let newest = null;
        for (const vehicle of state.vehicles) {
            const updated = Date.parse(vehicle.updated_at || vehicle.event_time);
            newest = newest === null || updated > newest ? updated : newest;
        }
        if (newest === null) {
            age.textContent = 'newest update: none';
            age.dataset.ageSeconds = '';
            return;
        }
        const seconds = Math.max(0, (serverNow() - newest) / 1000);
        age.textContent = 'newest update ' + formatSeconds(seconds) + ' ago';
        age.dataset.ageSeconds = seconds.toFixed(1);
        age.classList.toggle('old', seconds * 1000 > 3 * state.settings.pollIntervalMs);
    }

    function renderMapMessage() {
        const message = elements['map-message'];
        let text = '';
        if (state.mode === 'replay' && state.replay.loading) {
            text = 'Loading the fleet from the history\u2026';
        } else if (state.mode === 'replay' && state.replay.failed) {
            text = 'Replay failed: ' + state.replay.failed;
        } else if (state.mode === 'replay' && state.vehicles.length === 0) {
            text = 'No vehicle reported in the day before this instant.';
        } else if (state.mode === 'live' && state.asOf === null) {
            text = 'Loading the live fleet\u2026';
        } else if (state.mode === 'live' && state.vehicles.length === 0) {
            text = 'No vehicle has reported a position yet.';
        }
        message.hidden = !text;
        message.textContent = text;
    }

    function renderWarning() {
        const problems = [];
        if (state.mode === 'live' && state.lastFailure) {
            const since = state.asOf === null ? 'no data received yet'
                : 'showing data as of ' + formatTime(new Date(state.asOf)) + ', '
                + formatSeconds(Math.max(0, serverNow() - state.asOf) / 1000) + ' old';
            problems.push('Live data is not refreshing: ' + state.lastFailure + ' \u2014 ' + since);
        }
        if (state.skipped.length > 0) {
            problems.push(state.skipped.length + ' vehicle(s) left out, their stored state is unreadable (first: '
                + state.skipped[0].vehicle_id + ': ' + state.skipped[0].reason + ')');
        }
        const warning = elements['api-warning'];
        warning.hidden = problems.length === 0;
        warning.textContent = problems.join(' | ');
        const failing = state.mode === 'live' && state.lastFailure !== null;
        document.body.dataset.apiFailing = String(failing);
        if (state.mode === 'live') {
            elements['mode-banner'].textContent = failing ? 'LIVE \u2014 NOT REFRESHING' : 'LIVE';
        }
    }

    function showWarning(text) {
        const warning = elements['api-warning'];
        warning.hidden = false;
        warning.textContent = text;
    }

    function select(vehicleId) {
        state.selectedId = state.selectedId === vehicleId ? null : vehicleId;
        renderMarkers();
        renderList();
        renderDetails();
        const item = listItems.get(state.selectedId);
        if (item) {
            item.scrollIntoView({block: 'nearest'});
        }
    }

    // ---- map --------------------------------------------------------------------------------------------------

    for (const frame of FRAMES) {
        const middleLatitude = (frame.lat[0] + frame.lat[1]) / 2;
        const xStretch = Math.cos(middleLatitude * Math.PI / 180);
        const widthUnits = (frame.lon[1] - frame.lon[0]) * xStretch;
        const heightUnits = frame.lat[1] - frame.lat[0];
        const scale = Math.min(frame.box.w / widthUnits, frame.box.h / heightUnits);
        frame.project = (longitude, latitude) => [
            frame.box.x + (frame.box.w - widthUnits * scale) / 2 + (longitude - frame.lon[0]) * xStretch * scale,
            frame.box.y + (frame.box.h - heightUnits * scale) / 2 + (frame.lat[1] - latitude) * scale,
        ];
    }

    // The frame whose extent contains the point, else the nearest one.
    function frameFor(longitude, latitude) {
        let best = FRAMES[FRAMES.length - 1];
        let bestDistance = Infinity;
        for (const frame of FRAMES) {
            const dx = Math.max(frame.lon[0] - longitude, 0, longitude - frame.lon[1]);
            const dy = Math.max(frame.lat[0] - latitude, 0, latitude - frame.lat[1]);
            const distance = dx * dx + dy * dy;
            if (distance < bestDistance) {
                best = frame;
                bestDistance = distance;
            }
        }
        return best;
    }

    function project(longitude, latitude) {
        return frameFor(longitude, latitude).project(longitude, latitude);
    }

    function drawFrames() {
        const layer = elements['frame-layer'];
        for (const frame of FRAMES) {
            if (!frame.label) {
                continue;
            }
            const outline = document.createElementNS(SVG, 'rect');
            outline.setAttribute('class', 'frame');
            outline.setAttribute('x', frame.box.x);
            outline.setAttribute('y', frame.box.y);
            outline.setAttribute('width', frame.box.w);
            outline.setAttribute('height', frame.box.h);
            const label = document.createElementNS(SVG, 'text');
            label.setAttribute('class', 'frame-label');
            label.setAttribute('x', frame.box.x + 6);
            label.setAttribute('y', frame.box.y + 15);
            label.textContent = frame.label;
            layer.append(outline, label);
        }
    }

    async function loadRegion() {
        try {
            const region = await fetchJson('/region.geojson');
            const layer = elements['region-layer'];
            for (const feature of region.features) {
                const geometry = feature.geometry;
                const polygons = geometry.type === 'MultiPolygon' ? geometry.coordinates
                    : geometry.type === 'Polygon' ? [geometry.coordinates] : [];
                for (const polygon of polygons) {
                    const path = document.createElementNS(SVG, 'path');
                    path.setAttribute('class', 'land');
                    path.setAttribute('d', polygonPath(polygon));
                    const title = document.createElementNS(SVG, 'title');
                    title.textContent = feature.properties && feature.properties.name ? feature.properties.name : '';
                    path.append(title);
                    layer.append(path);
                }
            }
        } catch (error) {
            showWarning('Cannot load the region outline: ' + describe(error));
        }
    }

    // One island or coast stays within one frame: the frame of its outer ring's centre.
    function polygonPath(polygon) {
        const outer = polygon[0];
        let minLon = Infinity, maxLon = -Infinity, minLat = Infinity, maxLat = -Infinity;
        for (const [longitude, latitude] of outer) {
            minLon = Math.min(minLon, longitude);
            maxLon = Math.max(maxLon, longitude);
            minLat = Math.min(minLat, latitude);
            maxLat = Math.max(maxLat, latitude);
        }
        const frame = frameFor((minLon + maxLon) / 2, (minLat + maxLat) / 2);
        return polygon.map(ring => ring.map(([longitude, latitude], index) => {
            const [x, y] = frame.project(longitude, latitude);
            return (index === 0 ? 'M' : 'L') + x.toFixed(1) + ' ' + y.toFixed(1);
        }).join('') + 'Z').join('');
    }

    // ---- formatting -------------------------------------------------------------------------------------------

    function statusOf(vehicle) {
        return STATUS_LABELS[vehicle.status] ? vehicle.status : 'UNKNOWN';
    }

    function orDash(value) {
        return value === null || value === undefined ? '\u2014' : value;
    }

    function formatSpeed(vehicle) {
        return vehicle.speed_kmh === null ? '\u2014 km/h' : Math.round(vehicle.speed_kmh) + ' km/h';
    }

    function formatDistance(metres) {
        return metres >= 1000 ? (metres / 1000).toFixed(1) + ' km' : Math.round(metres) + ' m';
    }

    function formatAge(epochMillis) {
        const seconds = ((state.mode === 'live' ? serverNow() : state.asOf) - epochMillis) / 1000;
        return formatSeconds(Math.max(0, seconds)) + (state.mode === 'live' ? ' ago' : ' before');
    }

    function formatSeconds(seconds) {
        if (seconds < 60) {
            return seconds.toFixed(seconds < 10 ? 1 : 0) + ' s';
        }
        if (seconds < 3600) {
            return Math.floor(seconds / 60) + ' min ' + Math.floor(seconds % 60) + ' s';
        }
        return Math.floor(seconds / 3600) + ' h ' + Math.floor((seconds % 3600) / 60) + ' min';
    }

    function formatDuration(milliseconds) {
        return milliseconds % 60000 === 0 ? milliseconds / 60000 + ' min' : milliseconds / 1000 + ' s';
    }

    function pad(value) {
        return String(value).padStart(2, '0');
    }

    function formatTime(date) {
        return pad(date.getHours()) + ':' + pad(date.getMinutes()) + ':' + pad(date.getSeconds());
    }

    function formatDateTime(date) {
        return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate()) + ' ' + formatTime(date);
    }

    function localInputValue(date) {
        return formatDateTime(date).replace(' ', 'T');
    }
})();

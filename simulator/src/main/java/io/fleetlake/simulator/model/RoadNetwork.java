package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Cities and the roads between nearby ones; vehicles plan their routes on this graph. */
public final class RoadNetwork {
    private final List<City> cities;
    private final Map<String, City> citiesByName;
    private final List<Road> roads;
    private final Map<City, List<Road>> roadsFrom;

    public RoadNetwork(List<City> cities, List<Road> roads) {
        requireNonNull(cities, "cities is null");
        requireNonNull(roads, "roads is null");
        Map<String, City> byName = new LinkedHashMap<>();
        for (City city : cities) {
            if (byName.put(city.name(), city) != null) {
                throw new IllegalArgumentException("City " + city.name() + " is listed twice");
            }
        }
        Map<City, List<Road>> outgoing = new LinkedHashMap<>();
        cities.forEach(city -> outgoing.put(city, new ArrayList<>()));
        Set<Set<String>> connected = new HashSet<>();
        for (Road road : roads) {
            for (City end : List.of(road.from(), road.to())) {
                if (!end.equals(byName.get(end.name()))) {
                    throw new IllegalArgumentException("Road " + road.from().name() + " - "
                            + road.to().name() + " uses " + end.name() + ", which is not one of the network's cities");
                }
            }
            if (!connected.add(Set.of(road.from().name(), road.to().name()))) {
                throw new IllegalArgumentException(
                        "Road " + road.from().name() + " - " + road.to().name() + " is listed twice");
            }
            outgoing.get(road.from()).add(road);
            outgoing.get(road.to()).add(road.reversed());
        }
        this.cities = List.copyOf(cities);
        this.citiesByName = Map.copyOf(byName);
        this.roads = List.copyOf(roads);
        Map<City, List<Road>> frozen = new HashMap<>();
        outgoing.forEach((city, list) -> frozen.put(city, List.copyOf(list)));
        this.roadsFrom = Map.copyOf(frozen);
        requireConnected();
    }

    /** About forty cities of mainland Spain and Portugal and the main roads between neighbouring ones. */
    public static RoadNetwork iberia() {
        List<City> cities = List.of(
                city("Madrid", 40.4168, -3.7038, 657),
                city("Barcelona", 41.3874, 2.1686, 12),
                city("Valencia", 39.4699, -0.3763, 15),
                city("Sevilla", 37.3891, -5.9845, 7),
                city("Zaragoza", 41.6488, -0.8891, 199),
                city("Malaga", 36.7213, -4.4214, 11),
                city("Murcia", 37.9922, -1.1307, 43),
                city("Bilbao", 43.2630, -2.9350, 19),
                city("Valladolid", 41.6523, -4.7245, 698),
                city("Alicante", 38.3452, -0.4810, 3),
                city("Cordoba", 37.8882, -4.7794, 106),
                city("Granada", 37.1773, -3.5986, 738),
                city("Vigo", 42.2406, -8.7207, 31),
                city("A Coruna", 43.3623, -8.4115, 21),
                city("Santiago de Compostela", 42.8782, -8.5448, 260),
                city("Oviedo", 43.3614, -5.8593, 232),
                city("Santander", 43.4623, -3.8100, 15),
                city("San Sebastian", 43.3183, -1.9812, 6),
                city("Pamplona", 42.8125, -1.6458, 449),
                city("Burgos", 42.3439, -3.6969, 856),
                city("Leon", 42.5987, -5.5671, 837),
                city("Salamanca", 40.9701, -5.6635, 802),
                city("Badajoz", 38.8794, -6.9707, 186),
                city("Caceres", 39.4753, -6.3724, 459),
                city("Toledo", 39.8628, -4.0273, 529),
                city("Albacete", 38.9943, -1.8585, 686),
                city("Lleida", 41.6176, 0.6200, 155),
                city("Tarragona", 41.1189, 1.2445, 68),
                city("Tortosa", 40.8125, 0.5216, 12),
                city("Castellon de la Plana", 39.9864, -0.0513, 30),
                city("Girona", 41.9794, 2.8214, 75),
                city("Almeria", 36.8340, -2.4637, 16),
                city("Jerez de la Frontera", 36.6866, -6.1372, 56),
                city("Huelva", 37.2614, -6.9447, 24),
                city("Lisboa", 38.7223, -9.1393, 45),
                city("Santarem", 39.2362, -8.6859, 40),
                city("Porto", 41.1579, -8.6291, 104),
                city("Braga", 41.5454, -8.4265, 190),
                city("Coimbra", 40.2033, -8.4103, 75),
                city("Evora", 38.5714, -7.9135, 301),
                city("Faro", 37.0194, -7.9304, 14));
        Map<String, City> byName = new LinkedHashMap<>();
        cities.forEach(city -> byName.put(city.name(), city));
        RoadList roads = new RoadList(byName);
        roads.add("Madrid", "Toledo");
        roads.add("Madrid", "Valladolid");
        roads.add("Madrid", "Salamanca");
        roads.add("Madrid", "Burgos");
        roads.add("Madrid", "Zaragoza");
        roads.add("Madrid", "Albacete");
        roads.add("Zaragoza", "Lleida");
        roads.add("Zaragoza", "Pamplona");
        roads.add("Zaragoza", "Tortosa");
        roads.add("Lleida", "Barcelona");
        roads.add("Lleida", "Tarragona");
        // Via points keep coastal roads on land: they bend around bays, rias and estuaries.
        roads.add("Barcelona", "Tarragona", 41.288, 1.693);
        roads.add("Barcelona", "Girona");
        roads.add("Tarragona", "Tortosa", 41.049, 0.836);
        roads.add("Tortosa", "Castellon de la Plana");
        roads.add("Castellon de la Plana", "Valencia");
        roads.add("Valencia", "Alicante");
        roads.add("Valencia", "Albacete");
        roads.add("Alicante", "Murcia");
        roads.add("Alicante", "Albacete");
        roads.add("Murcia", "Albacete");
        roads.add("Murcia", "Almeria");
        roads.add("Almeria", "Granada");
        roads.add("Granada", "Malaga");
        roads.add("Granada", "Cordoba");
        roads.add("Malaga", "Cordoba");
        roads.add("Malaga", "Sevilla");
        roads.add("Sevilla", "Cordoba");
        roads.add("Sevilla", "Jerez de la Frontera");
        roads.add("Sevilla", "Huelva", 37.54, -6.5);
        roads.add("Sevilla", "Badajoz");
        roads.add("Huelva", "Faro", 37.228, -7.464);
        roads.add("Faro", "Evora");
        roads.add("Badajoz", "Evora");
        roads.add("Badajoz", "Caceres");
        roads.add("Caceres", "Salamanca");
        roads.add("Caceres", "Toledo");
        roads.add("Toledo", "Cordoba");
        roads.add("Salamanca", "Valladolid");
        roads.add("Valladolid", "Burgos");
        roads.add("Valladolid", "Leon");
        roads.add("Leon", "Burgos");
        roads.add("Leon", "Oviedo");
        roads.add("Oviedo", "Santander", 43.30, -4.60, 43.38, -3.90);
        roads.add("Santander", "Burgos", 43.42, -3.87, 43.30, -3.90);
        roads.add("Santander", "Bilbao", 43.40, -3.80, 43.38, -3.60);
        roads.add("Bilbao", "Burgos");
        roads.add("Bilbao", "San Sebastian", 43.147, -2.447);
        roads.add("San Sebastian", "Pamplona");
        roads.add("A Coruna", "Santiago de Compostela");
        roads.add("Santiago de Compostela", "Vigo", 42.45, -8.50, 42.30, -8.58);
        roads.add("Santiago de Compostela", "Leon");
        roads.add("Vigo", "Braga");
        roads.add("Braga", "Porto");
        roads.add("Porto", "Coimbra");
        roads.add("Coimbra", "Santarem");
        roads.add("Santarem", "Lisboa", 39.098, -9.086);
        roads.add("Santarem", "Evora");
        roads.add("Coimbra", "Caceres");
        return new RoadNetwork(cities, roads.roads);
    }

    public List<City> cities() {
        return cities;
    }

    public List<Road> roads() {
        return roads;
    }

    public City city(String name) {
        City city = citiesByName.get(name);
        if (city == null) {
            throw new IllegalArgumentException("No city named " + name + " in the road network");
        }
        return city;
    }

    /** The roads leaving a city, each oriented so that it starts there. */
    public List<Road> roadsFrom(City city) {
        List<Road> outgoing = roadsFrom.get(city);
        if (outgoing == null) {
            throw new IllegalArgumentException("City " + city.name() + " is not part of the road network");
        }
        return outgoing;
    }

    private void requireConnected() {
        if (cities.isEmpty()) {
            throw new IllegalArgumentException("A road network needs at least one city");
        }
        Set<City> reached = new HashSet<>();
        Deque<City> pending = new ArrayDeque<>(List.of(cities.get(0)));
        while (!pending.isEmpty()) {
            City city = pending.pop();
            if (reached.add(city)) {
                roadsFrom.get(city).forEach(road -> pending.push(road.to()));
            }
        }
        for (City city : cities) {
            if (!reached.contains(city)) {
                throw new IllegalArgumentException("City " + city.name() + " cannot be reached from "
                        + cities.get(0).name() + " by road");
            }
        }
    }

    private static City city(String name, double latitude, double longitude, double elevationMeters) {
        return new City(name, new GeoPoint(latitude, longitude), elevationMeters);
    }

    /** Collects roads given by city names and via coordinates. */
    private static final class RoadList {
        private final Map<String, City> cities;
        private final List<Road> roads = new ArrayList<>();

        RoadList(Map<String, City> cities) {
            this.cities = cities;
        }

        void add(String from, String to, double... viaLatitudeLongitudePairs) {
            List<GeoPoint> via = new ArrayList<>();
            for (int i = 0; i + 1 < viaLatitudeLongitudePairs.length; i += 2) {
                via.add(new GeoPoint(viaLatitudeLongitudePairs[i], viaLatitudeLongitudePairs[i + 1]));
            }
            roads.add(new Road(city(from), city(to), via));
        }

        private City city(String name) {
            City city = cities.get(name);
            if (city == null) {
                throw new IllegalArgumentException("No city named " + name + " in the road table");
            }
            return city;
        }
    }
}

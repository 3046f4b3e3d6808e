// Writes the bundled operating region of the validation module: Spain and Portugal (with Ceuta, Melilla, the Balearic
// and Canary Islands, Madeira and the Azores) from Natural Earth's 1:10m countries, as a GeoJSON FeatureCollection.
// Run `npm ci && npm run generate` in this directory; see README.md.
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { feature } from "topojson-client";

const COUNTRIES = ["Spain", "Portugal"];
const SOURCE =
  "Natural Earth 4.1.0 1:10m Admin 0 countries (public domain), via npm world-atlas@2.0.2 countries-10m.json";
// Four decimals is ~11 m, far below the ~200-300 m quantisation of the 10m TopoJSON, so rounding loses nothing.
const DECIMALS = 4;

const here = dirname(fileURLToPath(import.meta.url));
const output = resolve(
  here,
  "../../src/main/resources/io/fleetlake/validation/iberia-operating-region.geojson",
);

const require = createRequire(import.meta.url);
const topology = JSON.parse(await readFile(require.resolve("world-atlas/countries-10m.json"), "utf8"));

const round = (value) => Number(value.toFixed(DECIMALS));

function roundRing(ring) {
  const rounded = [];
  for (const [longitude, latitude] of ring) {
    const point = [round(longitude), round(latitude)];
    const last = rounded[rounded.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) {
      rounded.push(point);
    }
  }
  return rounded;
}

function roundPolygon(name, polygon) {
  // A ring needs at least four positions (three corners plus the closing one) to stay a valid GeoJSON ring; the
  // quantised data holds islets that collapsed to a single point and carry no area.
  const rings = polygon.map(roundRing);
  for (const ring of rings.filter((candidate) => candidate.length < 4)) {
    console.log(`${name}: dropped a ring collapsed to ${ring.length} position(s) at ${JSON.stringify(ring[0])}`);
  }
  // Without its outer ring a polygon is gone, holes included.
  return rings[0].length < 4 ? [] : rings.filter((ring) => ring.length >= 4);
}

function toMultiPolygon(name, geometry) {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  return polygons.map((polygon) => roundPolygon(name, polygon)).filter((polygon) => polygon.length > 0);
}

const features = COUNTRIES.map((name) => {
  const country = topology.objects.countries.geometries.find((candidate) => candidate.properties.name === name);
  if (!country) {
    throw new Error(`${name} is missing from world-atlas countries-10m.json`);
  }
  const geometry = feature(topology, country).geometry;
  const coordinates = toMultiPolygon(name, geometry);
  console.log(`${name}: ${coordinates.length} polygons, ${coordinates.flat(2).length} positions`);
  return {
    type: "Feature",
    properties: { name, source: SOURCE },
    geometry: { type: "MultiPolygon", coordinates },
  };
});

// A FeatureCollection with one feature per line: compact, yet each country is one line for grep and diff.
const text = `{"type":"FeatureCollection","features":[\n${features.map((item) => JSON.stringify(item)).join(",\n")}\n]}\n`;
await writeFile(output, text, "utf8");
console.log(`Wrote ${output} (${Buffer.byteLength(text)} bytes)`);

#!/usr/bin/env bash
# Builds the container images of our services (fleetlake/*:<version>) used by docker-compose.yml.
#
#   deploy/build-images.sh                               # every image
#   deploy/build-images.sh iceberg-catalog dashboard     # some of them
#   deploy/build-images.sh --prepare-only                # only the build contexts; needs no Docker
#
# Images (folders of deploy/images/): iceberg-catalog, ingest-connect, simulator (also runs the planning API),
# dashboard, table-maintenance, spark-jobs (the daily reverse geocoding), and flink-pipeline (the official Flink image
# plus the pipeline's shaded job jar from flink-jobs).
#
# Each Java service image is built from its module folder: Maven puts the module jar in <module>/target/image/app/
# and its runtime dependencies in <module>/target/image/lib/ (target/launch/classpath.txt lists absolute ~/.m2 paths,
# which a build context cannot hold), then `docker build` runs with the Dockerfile of deploy/images/<image>/.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() {
    echo "Usage: $0 [--prepare-only] [iceberg-catalog|ingest-connect|simulator|dashboard|table-maintenance|spark-jobs|flink-pipeline|fleet-exporter|kafka ...]" >&2
    exit 2
}

# The Maven module whose build output goes into an image.
module_of() {
    case "$1" in
        iceberg-catalog|ingest-connect|simulator|dashboard|table-maintenance|spark-jobs) echo "$1" ;;
        flink-pipeline) echo flink-jobs ;;
        fleet-exporter) echo operations ;;
        # The Kafka image only adds the JMX exporter agent the stack copies.
        kafka) echo stack ;;
        *) echo "Unknown image '$1'" >&2; usage ;;
    esac
}

prepare_only=false
images=()
for argument in "$@"; do
    case "$argument" in
        --prepare-only) prepare_only=true ;;
        -h|--help) usage ;;
        -*) usage ;;
        *) module_of "$argument" > /dev/null; images+=("$argument") ;;
    esac
done
if [ ${#images[@]} -eq 0 ]; then
    images=(iceberg-catalog ingest-connect simulator dashboard table-maintenance spark-jobs flink-pipeline fleet-exporter kafka)
fi

# The project version from the root pom: the first <version> after the parent's coordinates.
version=$(sed -n 's:^    <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
if [ -z "$version" ]; then
    echo "Cannot read the project version from pom.xml" >&2
    exit 1
fi

java_modules=()
build_flink_job=false
for image in "${images[@]}"; do
    module=$(module_of "$image")
    if [ "$module" = flink-jobs ]; then
        build_flink_job=true
    elif [ "$image" = kafka ]; then
        # Only stack/target/agents/, which the stack's package build writes.
        java_modules+=("stack")
    else
        java_modules+=("$module")
        rm -rf "$module/target/image"
    fi
done
# Two images may name one module.
if [ ${#java_modules[@]} -gt 0 ]; then
    mapfile -t java_modules < <(printf '%s\n' "${java_modules[@]}" | sort -u)
fi

if [ ${#java_modules[@]} -gt 0 ]; then
    module_list=$(IFS=,; echo "${java_modules[*]}")
    # One reactor build: the modules and what they depend on are packaged, and copy-dependencies runs after `package`
    # in each module, so sibling modules (common, model, ...) resolve to the jars just built, not to ~/.m2.
    echo "Building $module_list $version with Maven"
    mvn -B -q -DskipTests -pl "$module_list" -am package \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=target/image/lib
    for module in "${java_modules[@]}"; do
        mkdir -p "$module/target/image/app"
        cp "$module/target/$module-$version.jar" "$module/target/image/app/"
        echo "Prepared $module/target/image ($(find "$module/target/image/lib" -name "*.jar" | wc -l) libraries)"
    done
    if [[ " ${java_modules[*]} " == *" ingest-connect "* ]]; then
        # The Connect worker's metrics: the Prometheus JMX exporter agent the stack module copies at package time.
        mvn -B -q -DskipTests -pl stack -am package
        mkdir -p ingest-connect/target/image/agents
        cp stack/target/agents/jmx_prometheus_javaagent.jar ingest-connect/target/image/agents/
    fi
fi

if [ "$build_flink_job" = true ]; then
    echo "Building flink-jobs $version with Maven (shaded job jar)"
    mvn -B -q -DskipTests -pl flink-jobs -am package
    job_jar="flink-jobs/target/flink-jobs-$version-job.jar"
    if [ ! -f "$job_jar" ]; then
        echo "$job_jar is missing: the flink-jobs build must produce the shaded job jar" >&2
        exit 1
    fi
    echo "Prepared $job_jar"
    # The fleet metric reporter, a Flink plugin in the same image.
    mvn -B -q -DskipTests -pl flink-metrics -am package
    mkdir -p flink-jobs/target/image/plugins/fleet-metrics
    cp "flink-metrics/target/flink-metrics-$version-plugin.jar" flink-jobs/target/image/plugins/fleet-metrics/
fi

if [ "$prepare_only" = true ]; then
    exit 0
fi

for image in "${images[@]}"; do
    tag="fleetlake/$image:$version"
    build_arguments=()
    if [ "$image" = flink-pipeline ]; then
        # The job jar's file name carries the version.
        build_arguments=(--build-arg "FLEET_VERSION=$version")
    fi
    echo "Building image $tag"
    docker build --file "deploy/images/$image/Dockerfile" ${build_arguments[@]+"${build_arguments[@]}"} \
        --tag "$tag" "$(module_of "$image")"
done

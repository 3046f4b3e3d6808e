#!/bin/sh
# One-shot check before anything else starts (service preflight in docker-compose.yml; every other service depends on
# its success): refuses a deployment whose .env still holds a value of .env.example's "change-me-..." placeholders or
# leaves a variable empty. The checked variables are the preflight service's CHECK_<NAME> environment entries, the one
# list of them. Prints names only, never values.
set -eu

checked=$(env | sed -n 's/^CHECK_\([A-Za-z0-9_]*\)=.*$/\1/p' | sort)
if [ -z "$checked" ]; then
    echo "preflight: no CHECK_<NAME> variable given: the preflight service of docker-compose.yml checks nothing" >&2
    exit 2
fi

problems=$(env | sort | sed -n 's/^CHECK_\([A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' | while read -r name value; do
    case "$value" in
        "") echo "  $name is unset or empty" ;;
        change-me*) echo "  $name still holds the change-me placeholder of .env.example" ;;
    esac
done)

if [ -n "$problems" ]; then
    {
        echo "preflight: refusing to start the fleet lakehouse; in .env:"
        echo "$problems"
        echo "Generate every secret with ./fleet secrets init (or one with ./fleet secrets rotate NAME), then start again."
    } >&2
    exit 1
fi
echo "preflight: $(echo "$checked" | wc -l) variables set, none a placeholder"

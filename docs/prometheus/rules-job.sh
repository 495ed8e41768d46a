#!/bin/sh
# rules-job.sh JOB [RULES]: rapolicy.rules.yml with its one job selector,
# up{job="node"} (the scrape job of the node_exporter that reads the
# textfile), set to JOB; on stdout.
set -eu
[ $# -ge 1 ] || { echo "usage: rules-job.sh JOB [RULES]" >&2; exit 2; }
case $1 in
'' | *[!A-Za-z0-9_.:-]*)
	echo "rules-job.sh: '$1' is not a job name (letters, digits, _ . : -)" >&2
	exit 2
	;;
esac
exec sed "s/up{job=\"node\"}/up{job=\"$1\"}/" "${2:-$(dirname "$0")/rapolicy.rules.yml}"

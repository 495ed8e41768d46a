#!/bin/bash
# Generated patterns for the stream tracker (tests/unit/pattern_stream.c),
# TAP: PATTERN_DRAWS seeded draws (3000) from PATTERN_SEED (1), files of
# up to PATTERN_PAGES pages (16384), the claimed classes as tests and the
# others as comments. A failing draw prints its
# seed and the command that replays it.
#   run-patterns.sh [-a]     -a: every class is a test (make patterns)
# PATTERN_BEST=1: the draws under the profile best's decisions (-r: the
# tracker, then random_miss), what users run.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/unit"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -g -I"$top/tests/unit" \
	-o "$top/build/unit/pattern_stream" "$top/tests/unit/pattern_stream.c"
exec "$top/build/unit/pattern_stream" ${PATTERN_BEST:+"-r"} "$@" -n "${PATTERN_DRAWS:-3000}" \
	-s "${PATTERN_SEED:-1}" -p "${PATTERN_PAGES:-16384}"

#!/bin/bash
# Host unit tests of module/stream.c, the stream tracker, driven by a model
# of the mmap fault path over a fake page cache (TAP).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/unit"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -g -I"$top/tests/unit" \
	-o "$top/build/unit/test_stream" "$top/tests/unit/test_stream.c"
"$top/build/unit/test_stream"
# The tracker's cost per decision on this CPU (informational, no test)
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -I"$top/tests/unit" \
	-o "$top/build/unit/bench_stream" "$top/tests/unit/bench_stream.c"
"$top/build/unit/bench_stream" | sed 's/^/# /'

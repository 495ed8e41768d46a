#!/bin/bash
# Host unit tests of module/random.c, random_miss, driven by a model of the
# read-around fault path over a fake page cache (TAP).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/unit"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -g -I"$top/tests/unit" \
	-o "$top/build/unit/test_random" "$top/tests/unit/test_random.c"
"$top/build/unit/test_random"

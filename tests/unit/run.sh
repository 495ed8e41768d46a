#!/bin/bash
# Host unit tests of module/policy.c against a fake page cache (TAP).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/unit"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O1 -g -I"$top/tests/unit" \
	-o "$top/build/unit/test_policy" "$top/tests/unit/test_policy.c"
"$top/build/unit/test_policy"

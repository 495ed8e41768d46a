#!/bin/sh
# Print module/table.h for shell scripts, through the C preprocessor:
#   policy NAME ORDERS VALUE...   (ORDERS 1: also takes a folio order)
#   stat NAME
top=$(cd "$(dirname "$0")/.." && pwd)
printf '%s\n' '#define RAP_POLICY(n, o, h, ...) policy n o __VA_ARGS__' \
	'#define RAP_STAT(n, h) stat n' '#include "table.h"' |
	cpp -P -I"$top/module" - | tr -d '",' | sed 's/  */ /g; /^ *$/d'

#!/bin/bash
# The Debian packages of one README entry point, installed when missing:
#
#   tests/deps.sh demo|check|bench|deb        install what is missing (root)
#   tests/deps.sh --list demo|check|bench|deb print the packages
#
# tests/deps/ENTRY.list holds them, one a line; "@other" takes in another
# entry point's list. Each make target calls this first, so a machine
# without the packages gets them from the command it ran, and CI (.ci/run)
# installs nothing of its own. tests/fresh-demo.sh proves demo.list
# complete in a minimal Debian root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

list_only=0
[ "${1:-}" != --list ] || { list_only=1; shift; }
[ $# = 1 ] && [ -f "$here/deps/$1.list" ] ||
	{ echo "usage: tests/deps.sh [--list] demo|check|bench|deb" >&2; exit 2; }

# packages ENTRY: the list, includes expanded
packages() {
	local line
	while read -r line; do
		case $line in
		'' | '#'*) ;;
		@*) packages "${line#@}" ;;
		*) echo "$line" ;;
		esac
	done <"$here/deps/$1.list"
}

mapfile -t pkgs < <(packages "$1" | sort -u)
if [ "$list_only" = 1 ]; then
	printf '%s\n' "${pkgs[@]}"
	exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "make $1 needs: apt-get install ${missing[*]} (or run it as root)" >&2
	exit 1
fi
echo "[rapolicy] make $1: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
install=(apt-get install -y -q --no-install-recommends "${missing[@]}")
if ! "${install[@]}" >&2; then
	apt-get update -q >&2
	"${install[@]}" >&2
fi

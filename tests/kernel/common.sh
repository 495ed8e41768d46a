# Shared settings for the test-kernel scripts; sourced, not run.
# shellcheck shell=bash

RAPOLICY_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# Everything expensive lives outside the checkout, so a fresh clone on the
# same machine (CI) reuses it.
if [ -z "${RAPOLICY_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		RAPOLICY_CACHE=/var/cache/rapolicy
	else
		RAPOLICY_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/rapolicy
	fi
fi
export RAPOLICY_CACHE

# The kernel series to build and test, from the environment: 7.3 (the
# default, what the hook series targets), 7.2 or 6.12. Each is Debian's
# linux-source-$KERNEL_SERIES from the suites in KERNEL_SUITES (the first is
# the package's home; later ones may carry updates of it).
KERNEL_SERIES=${KERNEL_SERIES:-7.3}
case $KERNEL_SERIES in
7.3|7.2) KERNEL_SUITES="trixie-backports" ;;
6.12) KERNEL_SUITES="trixie trixie-security" ;;
*) printf '[rapolicy] error: KERNEL_SERIES=%s: not one of 7.3, 7.2, 6.12\n' \
	"$KERNEL_SERIES" >&2; exit 1 ;;
esac
export KERNEL_SERIES KERNEL_SUITES
# The patches for a series, one path a line: patches/series for 7.3; for
# 7.2 first patches/7.2/prerequisites (backports the series builds on),
# then patches/series, each taken from patches/7.2/ where 7.2 needs its own
# form of it; patches/6.12/series, the port, for 6.12.
kernel_series_patches() {
	local dir=$RAPOLICY_TOP/patches p
	[ "$KERNEL_SERIES" != 6.12 ] || dir=$dir/6.12
	[ -f "$dir/series" ] || die "$dir/series is missing"
	if [ "$KERNEL_SERIES" = 7.2 ] && [ -f "$dir/7.2/prerequisites" ]; then
		grep -Ev '^(#|$)' "$dir/7.2/prerequisites" | sed "s|^|$dir/7.2/|"
	fi
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		if [ "$KERNEL_SERIES" = 7.2 ] && [ -f "$dir/7.2/$p" ]; then
			echo "$dir/7.2/$p"
		else
			echo "$dir/$p"
		fi
	done <"$dir/series"
}

log() { printf '[rapolicy] %s\n' "$*" >&2; }
die() { printf '[rapolicy] error: %s\n' "$*" >&2; exit 1; }

# run_logged LOG COMMAND...: run COMMAND with its output in LOG and, so a
# long build is not a silent terminal, a progress line every 30 s.
run_logged() {
	local logf=$1 pid start rc
	shift
	start=$(date +%s)
	"$@" >"$logf" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		if [ $((($(date +%s) - start) % 30)) -lt 5 ] && kill -0 "$pid" 2>/dev/null; then
			log "... $(grep -c '^  CC' "$logf") files compiled, $(($(date +%s) - start)) s"
		fi
	done
	wait "$pid"
	rc=$?
	return "$rc"
}

# Install missing Debian packages given as "command:package" pairs.
need_pkgs() {
	local missing=() pair
	for pair in "$@"; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || die "missing ${missing[*]}: run as root or apt-get install them"
	log "installing ${missing[*]}"
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2; then
		apt-get update -q >&2 || die "apt-get update failed"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 ||
			die "apt-get install ${missing[*]} failed"
	fi
}

# debian_uri SUFFIX: the first URI of the machine's apt sources that ends
# in /SUFFIX (debian, debian-security).
debian_uri() {
	local f uri re="/$1/?\$"
	# deb822 sources first, then one-line sources.
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		uri=$(awk -v re="$re" '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ re) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		uri=$(awk -v re="^[a-z]+://.*$re" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ re) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return; }
	done
	die "no /$1 archive URI found in /etc/apt/sources.list*"
}

# suite_uri SUITE: where SUITE lives. With no security source configured,
# the security archive is assumed beside the main one.
suite_uri() {
	local uri
	case $1 in
	*-security)
		uri=$(debian_uri debian-security 2>/dev/null) ||
			uri=$(debian_uri debian)-security
		echo "$uri" ;;
	*) debian_uri debian ;;
	esac
}

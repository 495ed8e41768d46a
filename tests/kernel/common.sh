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

# The kernel the hook series targets: Debian's linux-source package for it.
KERNEL_SERIES=7.3
KERNEL_SUITE=trixie-backports

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

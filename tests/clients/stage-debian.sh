#!/bin/bash
# stage-debian.sh DIR PROGRAM...: copy unmodified, dynamically linked Debian
# programs into DIR so that the busybox guest (no libc) can run them
# through their own loader:
#   DIR/bin/PROGRAM, DIR/lib/<every library ldd lists>, DIR/ld-linux-x86-64.so.2
# and DIR/VERSIONS (the Debian package and version of each file).
# In the guest (vm-run --add DIR):
#   /add/NAME/ld-linux-x86-64.so.2 --library-path /add/NAME/lib /add/NAME/bin/PROGRAM ARGS...
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: stage-debian.sh DIR PROGRAM..." >&2; exit 2; }
dir=$1
shift
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib"
: >"$dir/VERSIONS"
version() {
	local pkg
	pkg=$(dpkg -S "$(readlink -f "$1")" 2>/dev/null | head -n 1 | cut -d: -f1) ||
		pkg=$(dpkg -S "$1" 2>/dev/null | head -n 1 | cut -d: -f1) || true
	[ -n "$pkg" ] || { echo "$1 (no package)"; return; }
	echo "$1 $pkg $(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null)"
}
for prog in "$@"; do
	[ -x "$prog" ] || { echo "stage-debian: no $prog (apt-get install it)" >&2; exit 1; }
	cp -L "$prog" "$dir/bin/"
	version "$prog" >>"$dir/VERSIONS"
	# "libfoo.so.1 => /lib/.../libfoo.so.1 (0x...)" and the loader line
	ldd "$prog" | while read -r name arrow path _; do
		case $name in
		linux-vdso*) ;;
		*/ld-linux*)
			cp -L "$name" "$dir/ld-linux-x86-64.so.2"
			version "$name" >>"$dir/VERSIONS" ;;
		*)
			if [ "$arrow" != "=>" ] || [ ! -f "$path" ]; then
				echo "stage-debian: $prog: cannot resolve $name" >&2
				exit 1
			fi
			cp -L "$path" "$dir/lib/"
			version "$path" >>"$dir/VERSIONS" ;;
		esac
	done
done
sort -u -o "$dir/VERSIONS" "$dir/VERSIONS"

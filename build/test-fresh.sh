#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-fresh.sh REPO ROOT [TARGET]
#
# The README's set-up on a machine that has nothing: build a minimal
# Debian 12 root in ROOT with mmdebstrap (minbase plus make, from the same
# Debian registry that this machine's apt uses), copy REPO's tracked files
# into it and, inside it, as a new user would:
#   1. `make` as a normal user before any install: must stop at once and
#      say to run `sudo make deps`;
#   2. `make deps` as root;
#   3. `make TARGET` (default: run) as the normal user, with an empty
#      FTA_CACHE in that user's home.
# Prints how long each step took.  Needs root (chroot, mounts).  On
# success ROOT is removed unless FRESH_KEEP is set; on failure it stays.
set -euo pipefail

repo=$1
root=$2
target=${3:-run}
user=fta
home=/home/$user
log=$root.log

say() { echo "fresh: $*"; }
die() { echo "fresh: ERROR: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot and mounts): run 'sudo make test-fresh'"

times=()
step() {
	local name=$1 t0=$SECONDS rc=0
	shift
	say "== $name"
	"$@" || rc=$?
	times+=("$(printf '%-46s %5ds  (%dm%02ds)' "$name" $((SECONDS - t0)) \
		$(((SECONDS - t0) / 60)) $(((SECONDS - t0) % 60)))")
	return $rc
}

report() {
	local t
	say "times:"
	for t in "${times[@]}"; do
		say "  $t"
	done
}

umount_all() {
	local m
	for m in dev/pts dev proc sys; do
		mountpoint -q "$root/$m" && umount -l "$root/$m"
	done
	return 0
}
trap 'umount_all; report' EXIT

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb "$@"; }
as_user() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
		/usr/sbin/runuser -u "$user" -- /usr/bin/env HOME="$home" \
		/bin/bash -c "cd $home/ftrace-args && $*"
}

bootstrap() {
	local sources=()
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		 /etc/apt/sources.list.d/*.sources; do
		[ -s "$f" ] && grep -q '^[^#]' "$f" && sources+=("$f")
	done
	[ ${#sources[@]} -gt 0 ] || die "no apt sources on this machine to bootstrap from"
	umount_all
	rm -rf "$root"
	mmdebstrap --variant=minbase --include=make,ca-certificates bookworm "$root" \
		"${sources[@]}" > "$log" 2>&1 ||
		{ tail -n 20 "$log"; die "mmdebstrap failed (log: $log)"; }
	say "root: $(du -sh "$root" | cut -f1) in $root"
}

setup_root() {
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	in_root useradd -m -s /bin/bash "$user"
	mkdir -p "$root$home/ftrace-args"
	(cd "$repo" && git ls-files -z | rsync -a --from0 --files-from=- ./ "$root$home/ftrace-args/")
	in_root chown -R "$user:$user" "$home"
	mount --bind /dev "$root/dev"
	mount --bind /dev/pts "$root/dev/pts"
	mount -t proc proc "$root/proc"
	mount -t sysfs sys "$root/sys"
}

# As the user, before any install: a clear message, no apt-get.
make_before_deps() {
	local out
	out=$(as_user make 2>&1) && die "make succeeded before 'make deps': $out"
	echo "$out"
	grep -q "run 'sudo make deps' once" <<< "$out" ||
		die "make before 'make deps' did not say to run 'sudo make deps'"
}

step "mmdebstrap bookworm minbase + make" bootstrap
step "copy the repository, add user $user" setup_root
step "make as $user before deps (must refuse)" make_before_deps
step "make deps (root)" in_root /bin/bash -c "cd $home/ftrace-args && make deps"
step "make $target ($user, empty cache)" as_user make "$target"
say "done: README set-up passed in a fresh Debian 12 root"
# The root holds a whole build (about 7 GB): keep it only when asked.
if [ -z "${FRESH_KEEP:-}" ]; then
	umount_all
	rm -rf "$root" "$log"
	say "removed $root (FRESH_KEEP=1 keeps it)"
fi

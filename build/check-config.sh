#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-config.sh FRAGMENT CONFIG: every option the fragment sets must be set
# that way in the final .config; a silently dropped option is an error.
set -euo pipefail
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		want=$line ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		want="# $opt is not set" ;;
	*) continue ;;
	esac
	got=$(grep -E "^$opt=|^# $opt is not set" "$2" || true)
	if [ "$want" = "# $opt is not set" ] && [ -z "$got" ]; then
		continue
	fi
	if [ "$got" != "$want" ]; then
		echo "config: $opt: want '$want', got '${got:-absent}'" >&2
		bad=1
	fi
done < "$1"
if [ $bad != 0 ]; then
	echo "config: ERROR: the fragment does not hold (see above)" >&2
	exit 1
fi

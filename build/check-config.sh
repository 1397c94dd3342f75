#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-config.sh FRAGMENT... CONFIG: every option the fragments set (the
# last fragment that names an option wins, as in merge_config.sh) must be
# set that way in the final .config; a silently dropped option is an error.
set -euo pipefail
config=${*: -1}
frags=("${@:1:$#-1}")
bad=0
# One line per option: its last setting in the fragments.
wanted=$(for f in "${frags[@]}"; do
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1 &/p' \
	       -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 &/p' "$f"
done | awk '{ opt = $1; sub(/^[^ ]* /, ""); last[opt] = $0; if (!(opt in seen)) { seen[opt] = 1; order[++n] = opt } }
	    END { for (i = 1; i <= n; i++) print last[order[i]] }')
while read -r want; do
	case "$want" in
	CONFIG_*=*) opt=${want%%=*} ;;
	"# CONFIG_"*) opt=${want#\# }; opt=${opt%% *} ;;
	*) continue ;;
	esac
	got=$(grep -E "^$opt=|^# $opt is not set" "$config" || true)
	if [ "$want" = "# $opt is not set" ] && [ -z "$got" ]; then
		continue
	fi
	if [ "$got" != "$want" ]; then
		echo "config: $opt: want '$want', got '${got:-absent}'" >&2
		bad=1
	fi
done <<< "$wanted"
if [ $bad != 0 ]; then
	echo "config: ERROR: the fragment does not hold (see above)" >&2
	exit 1
fi

# SPDX-License-Identifier: GPL-2.0
# Helpers of the direct-* cases, which source this file (ftracetest runs
# only *.tc files).

# check_agree: every function in direct_functions has D in
# enabled_functions, and every D is in direct_functions
check_agree() {
	cut -d' ' -f1 direct_functions | sort > $TMPDIR/df
	grep -E '^[^ ]+ \([0-9]+\)( R|  )( I|  ) D' enabled_functions |
		cut -d' ' -f1 | sort > $TMPDIR/ef
	diff $TMPDIR/df $TMPDIR/ef
}

# SPDX-License-Identifier: GPL-2.0
#
# Statistics of `make bench` (sourced by guest-bench.sh, and by
# host-tests.sh, which checks them on numbers with known answers).
#
# A row's overhead is measured in repetitions: in each, the untraced loop,
# the traced loop(s), the untraced loop again.  For a quantity Q, the file
# Q holds one value a repetition.  The noise that a row's values must
# clear is the larger of
#   - the median distance between the two untraced loops of a repetition
#     (file NOISE: how far the machine drifts within one repetition), and
#   - half the interquartile range of Q's own values (how much Q spreads).
# A value is clear of its noise when its median is at least 3 times its
# noise and above 0.  A row prints a ratio only when every quantity in it
# is clear of its noise; otherwise it prints noise(+-N), N the largest of
# their noises.

# median: the median of the numbers on stdin (one a line)
median() {
	sort -g | awk '{ v[NR] = $1 }
		END {
			if (!NR)
				exit 1
			m = int((NR + 1) / 2)
			print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2
		}'
}

# distance A B: |A - B|, the noise of one repetition from its two untraced
# loops
distance() {
	echo "$1 $2" | awk '{ d = $1 - $2; print d < 0 ? -d : d }'
}

# spread FILE: half the interquartile range of the numbers in FILE
spread() {
	sort -g "$1" | awk '{ v[NR] = $1 }
		END { print (v[int(NR * 3 / 4) + 1] - v[int(NR / 4) + 1]) / 2 }'
}

# noise Q NOISE: the noise of quantity Q (see above), one decimal
noise() {
	echo "$(median < "$2") $(spread "$1")" |
		awk '{ printf "%.1f\n", ($1 > $2 ? $1 : $2) }'
}

# clear_of_noise Q NOISE: is Q's median at least 3 times its noise, and
# above 0?
clear_of_noise() {
	echo "$(median < "$1") $(noise "$1" "$2")" |
		awk '{ exit !($1 >= 3 * $2 && $1 > 0) }'
}

# ratio_or_noise R NOISE Q...: the median of R (a ratio a repetition, two
# decimals) if every Q is clear of its noise, else noise(+-N)
ratio_or_noise() {
	local r=$1 nf=$2 q n worst=0 ok=1
	shift 2
	for q in "$@"; do
		clear_of_noise "$q" "$nf" || ok=0
		n=$(noise "$q" "$nf")
		worst=$(echo "$worst $n" | awk '{ print ($2 > $1 ? $2 : $1) }')
	done
	if [ $ok = 1 ]; then
		median < "$r" | xargs printf '%.2f\n'
	else
		printf 'noise(+-%s)\n' "$worst"
	fi
}

# time_ratio A B: for two times measured in repetitions (files A and B),
# median(A) / median(B), two decimals, if each median is at least 3 times
# its own spread and there are 3 repetitions or more, else noise(+-N)
time_ratio() {
	local q n worst=0 ok=1
	for q in "$1" "$2"; do
		[ "$(wc -l < "$q")" -ge 3 ] || ok=0
		n=$(spread "$q" | xargs printf '%.1f')
		echo "$(median < "$q") $n" | awk '{ exit !($1 >= 3 * $2 && $1 > 0) }' || ok=0
		worst=$(echo "$worst $n" | awk '{ print ($2 > $1 ? $2 : $1) }')
	done
	if [ $ok = 1 ]; then
		echo "$(median < "$1") $(median < "$2")" | awk '{ printf "%.2f\n", $1 / $2 }'
	else
		printf 'noise(+-%s)\n' "$worst"
	fi
}

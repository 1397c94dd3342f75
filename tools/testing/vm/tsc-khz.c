// SPDX-License-Identifier: GPL-2.0
/*
 * fta-tsc-khz: print this machine's TSC rate in kHz, measured against
 * CLOCK_MONOTONIC_RAW, the median of three 100 ms runs.
 *
 * vm-run gives the rate to a microvm guest (tsc_early_khz=): its kernel
 * has no HPET, ACPI PM timer or PIT gate to calibrate the TSC against,
 * and under QEMU's TCG the guest's TSC counts the host's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long one_run(void)
{
	struct timespec d = { 0, 100000000 };
	unsigned long long t0, t1, c0, c1;

	t0 = now_ns();
	c0 = __rdtsc();
	nanosleep(&d, NULL);
	t1 = now_ns();
	c1 = __rdtsc();
	/* cycles per ms */
	return (c1 - c0) * 1000000ULL / (t1 - t0);
}

int main(void)
{
	unsigned long long k[3], t;
	int i, j;

	for (i = 0; i < 3; i++)
		k[i] = one_run();
	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			if (k[j] < k[i]) {
				t = k[i];
				k[i] = k[j];
				k[j] = t;
			}
	if (!k[1]) {
		fprintf(stderr, "fta-tsc-khz: the TSC does not count\n");
		return 1;
	}
	printf("%llu\n", k[1]);
	return 0;
}

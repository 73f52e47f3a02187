/*
 * compare-mem.c: the reference side of scripts/compare-mem.sh.
 *
 * A plain C measurement of the C library's memcpy and memset bandwidth and
 * of random pointer-chasing latency, made the same way boardbench's mem
 * command makes them (pinned CPU, page-aligned buffers touched first, one
 * warm-up, passes repeated to fill each sample, median of the samples), so
 * that the two can be compared on one machine in one run.
 *
 * usage: compare-mem CPU BUFFER_BYTES LATENCY_BLOCK_BYTES
 * prints: memcpy_mb_s=..., memset_mb_s=..., latency_ns=...
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof v[0], cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Calls through volatile pointers: real calls into the C library. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;
static void *(*volatile fill_fn)(void *, int, size_t) = memset;

enum { BW_SAMPLES = 5, LAT_SAMPLES = 3 };
static const double bw_sample_seconds = 0.1, lat_sample_seconds = 0.01;

static double bandwidth(int fill, char *dst, const char *src, size_t n)
{
	double t = now();
	if (fill)
		fill_fn(dst, 0x5a, n);
	else
		copy_fn(dst, src, n);
	double per = now() - t;
	long passes = per > 0 ? (long)(bw_sample_seconds / per) + 1 : 1;
	double s[BW_SAMPLES];
	for (int i = 0; i < BW_SAMPLES; i++) {
		t = now();
		for (long k = 0; k < passes; k++) {
			if (fill)
				fill_fn(dst, 0x5a, n);
			else
				copy_fn(dst, src, n);
		}
		s[i] = (double)n * passes / (now() - t) / 1e6;
	}
	return median(s, BW_SAMPLES);
}

static uint64_t rng_state = 0x853c49e6748fea9bULL;

static uint64_t rng_next(void)
{
	/* xorshift64*: any decent generator will do for a random cycle. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void *chase(void *p, long n)
{
	void **q = p;
	for (; n >= 8; n -= 8) {
		q = *q; q = *q; q = *q; q = *q;
		q = *q; q = *q; q = *q; q = *q;
	}
	for (; n > 0; n--)
		q = *q;
	return q;
}

static double latency(char *buf, size_t block)
{
	const size_t line = 64;
	size_t slots = block / line;
	uint32_t *next = malloc(slots * sizeof *next);
	if (!next)
		return -1;
	/* A random cyclic permutation of the slots: swap each slot with a
	 * strictly earlier one (Sattolo). */
	for (size_t i = 0; i < slots; i++)
		next[i] = i;
	for (size_t i = slots - 1; i > 0; i--) {
		size_t j = rng_next() % i;
		uint32_t t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
	for (size_t i = 0; i < slots; i++)
		*(void **)(buf + i * line) = buf + (size_t)next[i] * line;
	free(next);

	void *p = buf;
	long n = 4096;
	double el;
	for (;;) {
		double t = now();
		p = chase(p, n);
		el = now() - t;
		if (el >= 1e-3 || n >= (1L << 30))
			break;
		n *= 2;
	}
	long steps = (long)(n * lat_sample_seconds / el);
	if (steps < 1024)
		steps = 1024;
	p = chase(p, steps);
	double s[LAT_SAMPLES];
	for (int i = 0; i < LAT_SAMPLES; i++) {
		double t = now();
		p = chase(p, steps);
		s[i] = (now() - t) * 1e9 / steps;
	}
	if (p == NULL)
		printf("unreachable\n");
	return median(s, LAT_SAMPLES);
}

static char *alloc_touched(size_t n, int value)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, n) != 0)
		return NULL;
	memset(p, value, n);
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s CPU BUFFER_BYTES LATENCY_BLOCK_BYTES\n", argv[0]);
		return 2;
	}
	int cpu = atoi(argv[1]);
	size_t size = strtoull(argv[2], NULL, 10), block = strtoull(argv[3], NULL, 10);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		perror("sched_setaffinity");
		return 1;
	}
	char *src = alloc_touched(size, 1), *dst = alloc_touched(size, 2);
	if (!src || !dst) {
		fprintf(stderr, "cannot allocate 2 x %zu bytes\n", size);
		return 1;
	}
	printf("memcpy_mb_s=%.1f\n", bandwidth(0, dst, src, size));
	printf("memset_mb_s=%.1f\n", bandwidth(1, dst, src, size));
	free(src);
	free(dst);
	char *buf = alloc_touched(block, 3);
	if (!buf) {
		fprintf(stderr, "cannot allocate %zu bytes\n", block);
		return 1;
	}
	printf("latency_ns=%.2f\n", latency(buf, block));
	free(buf);
	return 0;
}

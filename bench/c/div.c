// The C ceiling of bench/run.sh: f32 and f64 division, the i64 and u64
// division loops (IDIV and DIV: no compiler vectorises them), and the
// c = a + b streams for 8-, 16-, 32- and 64-bit elements (u8, u16, f32,
// f64: an add stream moves the same bytes for every type of one width),
// built with gcc -O3 -march=native and -mprefer-vector-width=WIDTH (256 or
// 512, passed as -DWIDTH; a build for 256-bit vectors uses no 512-bit
// instruction, so it runs where AVX-512 is missing or turned off with
// -mno-avx512f). Prints "c<WIDTH>-div/<type>/same/<N> ns/elem" and
// "c<WIDTH>-add/<type>/same/<N>" lines, each the best of 7 windows of at
// least 20 ms (BENCH_WINDOWS, BENCH_WINDOW_MS), the way bench/run.sh times
// every peer. At 16Mi it also
// prints "c<WIDTH>-addnt/<type>/same/16Mi": the add stream again, written
// with non-temporal stores (intrinsics; gcc never emits them for a loop),
// which skip reading the output's lines before overwriting them, as
// irdiv's large same-shape divisions do.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef WIDTH
#define WIDTH 0
#endif

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void divf(float *restrict c, const float *restrict a, const float *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] / b[i];
}

__attribute__((noinline)) static void addf(float *restrict c, const float *restrict a, const float *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
}

__attribute__((noinline)) static void divd(double *restrict c, const double *restrict a, const double *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] / b[i];
}

__attribute__((noinline)) static void addd(double *restrict c, const double *restrict a, const double *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
}

__attribute__((noinline)) static void add8(uint8_t *restrict c, const uint8_t *restrict a, const uint8_t *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
}

__attribute__((noinline)) static void add16(uint16_t *restrict c, const uint16_t *restrict a, const uint16_t *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
}

__attribute__((noinline)) static void divi64(int64_t *restrict c, const int64_t *restrict a, const int64_t *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] / b[i];
}

__attribute__((noinline)) static void divu64(uint64_t *restrict c, const uint64_t *restrict a, const uint64_t *restrict b, long n) {
	for (long i = 0; i < n; i++) c[i] = a[i] / b[i];
}

// addnt adds bytes/64 64-byte lines of 32-bit lanes (an add stream does not
// care about the element type) and writes them with non-temporal stores;
// c must be 64-byte aligned.
__attribute__((noinline)) static void addnt(uint8_t *restrict c, const uint8_t *restrict a, const uint8_t *restrict b, long bytes) {
#if WIDTH == 512
	for (long i = 0; i < bytes; i += 64)
		_mm512_stream_si512((void *)(c + i), _mm512_add_epi32(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i)));
#else
	for (long i = 0; i < bytes; i += 32)
		_mm256_stream_si256((__m256i *)(c + i), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(a + i)), _mm256_loadu_si256((const __m256i *)(b + i))));
#endif
	_mm_sfence();
}

// windows and window are how bench/run.sh times every peer: the best of
// BENCH_WINDOWS (7) windows of at least BENCH_WINDOW_MS (20) ms.
static int windows = 7;
static double window = 0.02;

// MEASURE sets best to the best ns/elem of f(c, a, b, n) over the windows.
#define MEASURE(best, f, c, a, b, n) \
	do { \
		best = 1e30; \
		for (int rep = 0; rep < windows; rep++) { \
			long calls = 0; \
			double t0 = now(), t; \
			do { \
				f(c, a, b, n); \
				calls++; \
				t = now() - t0; \
			} while (t < window); \
			double per = t / calls / n * 1e9; \
			if (per < best) best = per; \
		} \
	} while (0)

int main(void) {
	if (getenv("BENCH_WINDOWS")) windows = atoi(getenv("BENCH_WINDOWS"));
	if (getenv("BENCH_WINDOW_MS")) window = atof(getenv("BENCH_WINDOW_MS")) / 1000;
	long sizes[] = {1 << 10, 64 << 10, 1 << 20, 16 << 20};
	const char *names[] = {"1Ki", "64Ki", "1Mi", "16Mi"};
	for (int s = 0; s < 4; s++) {
		long n = sizes[s];
		float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4), *c = aligned_alloc(64, n * 4);
		double *ad = aligned_alloc(64, n * 8), *bd = aligned_alloc(64, n * 8), *cd = aligned_alloc(64, n * 8);
		srand(1);
		for (long i = 0; i < n; i++) {
			a[i] = (float)rand() / RAND_MAX * 200 - 100;
			b[i] = 1 + (float)rand() / RAND_MAX;
			c[i] = 0;
			ad[i] = a[i], bd[i] = b[i], cd[i] = 0;
		}
		double best;
		MEASURE(best, divf, c, a, b, n);
		printf("c%d-div/f32/same/%s %.4f\n", WIDTH, names[s], best);
		MEASURE(best, divd, cd, ad, bd, n);
		printf("c%d-div/f64/same/%s %.4f\n", WIDTH, names[s], best);
		{
			// The data of ops.BenchmarkDivide: signed dividends below
			// 2^61 in magnitude and divisors in +-[1, 1000]; unsigned
			// dividends over the whole range and divisors in [1, 255].
			int64_t *ai = (int64_t *)ad, *bi = (int64_t *)bd, *ci = (int64_t *)cd;
			uint64_t x = 0x9e3779b97f4a7c15u;
			for (long i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				ai[i] = (int64_t)x >> 2;
				bi[i] = (long)(x % 1000) + 1;
				if (x & (1u << 20)) bi[i] = -bi[i];
			}
			MEASURE(best, divi64, ci, ai, bi, n);
			printf("c%d-div/i64-trunc/same/%s %.4f\n", WIDTH, names[s], best);
			uint64_t *au = (uint64_t *)ad, *bu = (uint64_t *)bd, *cu = (uint64_t *)cd;
			for (long i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				au[i] = x;
				bu[i] = x % 255 + 1;
			}
			MEASURE(best, divu64, cu, au, bu, n);
			printf("c%d-div/u64/same/%s %.4f\n", WIDTH, names[s], best);
			for (long i = 0; i < n; i++) ad[i] = a[i], bd[i] = b[i], cd[i] = 0;
		}
		MEASURE(best, addf, c, a, b, n);
		printf("c%d-add/f32/same/%s %.4f\n", WIDTH, names[s], best);
		MEASURE(best, addd, cd, ad, bd, n);
		printf("c%d-add/f64/same/%s %.4f\n", WIDTH, names[s], best);
		// The f32 and f64 buffers, reused: an add stream does not care what the bytes hold.
		MEASURE(best, add8, (uint8_t *)c, (uint8_t *)a, (uint8_t *)b, n);
		printf("c%d-add/u8/same/%s %.4f\n", WIDTH, names[s], best);
		MEASURE(best, add16, (uint16_t *)c, (uint16_t *)a, (uint16_t *)b, n);
		printf("c%d-add/u16/same/%s %.4f\n", WIDTH, names[s], best);
		if (n == 16 << 20) {
			const char *widths[] = {"u8", "u16", "f32", "f64"};
			for (int w = 0; w < 4; w++) {
				long size = 1L << w;
				uint8_t *x = (uint8_t *)(size == 8 ? (void *)ad : (void *)a), *y = (uint8_t *)(size == 8 ? (void *)bd : (void *)b), *z = (uint8_t *)(size == 8 ? (void *)cd : (void *)c);
				long bytes = n * size;
				MEASURE(best, addnt, z, x, y, bytes);
				printf("c%d-addnt/%s/same/%s %.4f\n", WIDTH, widths[w], names[s], best * size); // MEASURE gave ns per byte
			}
		}
		free(a), free(b), free(c), free(ad), free(bd), free(cd);
	}
	return 0;
}

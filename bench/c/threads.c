// The two-thread reference of bench/run.sh: f16 division with F16C
// (vcvtph2ps, vdivps, vcvtps2ph), each OpenMP thread on a fixed half,
// compiled with gcc -O3 -march=native -fopenmp. Prints
// "c-threads/f16/<N>/threads=<T> ns/elem" lines, the minimum over
// BENCH_WINDOWS (7) repetitions of at least BENCH_WINDOW_MS (20) ms each.
#include <immintrin.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void divf16(uint16_t *c, const uint16_t *a, const uint16_t *b, long n) {
	for (long i = 0; i < n; i += 8) {
		__m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const void *)(a + i)));
		__m256 y = _mm256_cvtph_ps(_mm_loadu_si128((const void *)(b + i)));
		_mm_storeu_si128((void *)(c + i), _mm256_cvtps_ph(_mm256_div_ps(x, y), _MM_FROUND_TO_NEAREST_INT));
	}
}

int main(void) {
	int windows = getenv("BENCH_WINDOWS") ? atoi(getenv("BENCH_WINDOWS")) : 7;
	double window = getenv("BENCH_WINDOW_MS") ? atof(getenv("BENCH_WINDOW_MS")) / 1000 : 0.02;
	long sizes[] = {1 << 20, 16 << 20};
	const char *names[] = {"1Mi", "16Mi"};
	for (int s = 0; s < 2; s++) {
		long n = sizes[s];
		uint16_t *a = aligned_alloc(64, n * 2), *b = aligned_alloc(64, n * 2), *c = aligned_alloc(64, n * 2);
		srand(1);
		for (long i = 0; i < n; i++) {
			a[i] = _cvtss_sh((float)rand() / RAND_MAX * 200 - 100, 0); // as the Go benchmarks
			b[i] = _cvtss_sh(1 + (float)rand() / RAND_MAX, 0);
			c[i] = 0;
		}
		for (int threads = 1; threads <= 2; threads++) {
			double best = 1e30;
			for (int rep = 0; rep < windows; rep++) {
				long calls = 0;
				double t0 = now(), t;
				do {
#pragma omp parallel num_threads(threads)
					{
						long per = n / threads, lo = omp_get_thread_num() * per;
						divf16(c + lo, a + lo, b + lo, per);
					}
					calls++;
					t = now() - t0;
				} while (t < window);
				double per = t / calls / n * 1e9;
				if (per < best) best = per;
			}
			printf("c-threads/f16/%s/threads=%d %.4f\n", names[s], threads, best);
		}
		free(a), free(b), free(c);
	}
	return 0;
}

// The C ceiling of bench/run.sh: f32 division and the c = a + b stream,
// compiled with gcc -O3 -march=native. Prints "name ns/elem" lines, the
// minimum over repetitions of at least 20 ms each.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

static double measure(void (*f)(float *, const float *, const float *, long), float *c, float *a, float *b, long n) {
	double best = 1e30;
	for (int rep = 0; rep < 7; rep++) {
		long calls = 0;
		double t0 = now(), t;
		do {
			f(c, a, b, n);
			calls++;
			t = now() - t0;
		} while (t < 0.02);
		double per = t / calls / n * 1e9;
		if (per < best) best = per;
	}
	return best;
}

int main(void) {
	long sizes[] = {1 << 10, 64 << 10, 1 << 20, 16 << 20};
	const char *names[] = {"1Ki", "64Ki", "1Mi", "16Mi"};
	for (int s = 0; s < 4; s++) {
		long n = sizes[s];
		float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4), *c = aligned_alloc(64, n * 4);
		srand(1);
		for (long i = 0; i < n; i++) {
			a[i] = (float)rand() / RAND_MAX * 200 - 100;
			b[i] = 1 + (float)rand() / RAND_MAX;
			c[i] = 0;
		}
		printf("c-div/f32/same/%s %.4f\n", names[s], measure(divf, c, a, b, n));
		printf("c-add/f32/same/%s %.4f\n", names[s], measure(addf, c, a, b, n));
		free(a), free(b), free(c);
	}
	return 0;
}

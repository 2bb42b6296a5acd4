// SPDX-License-Identifier: GPL-2.0
/*
 * age-numbers.c - hc-age's numbers: the xoshiro256** streams, ln() and
 * exp() of IEEE arithmetic alone (libm picks CPU variants at run time),
 * and Impressions' file sizes (the contract in age.h).
 */
#include <math.h>
#include "age.h"

#define LN_MU		9.48	/* Impressions, FAST '09, Table 2 */
#define LN_SIGMA	2.46
#define BODY_P		0.99994
#define PARETO_K	0.91
#define PARETO_XM	(512.0 * 1024 * 1024)
#define ROTL(x, k)	(((x) << (k)) | ((x) >> (64 - (k))))

void rng_seed(uint64_t *s, uint64_t x)
{
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		s[i] = z ^ (z >> 31);
	}
}

uint64_t rng_next(uint64_t *s)
{
	uint64_t res = ROTL(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ROTL(s[3], 45);
	return res;
}

static double rng_unit(void)	/* [0, 1) */
{
	return (rng_next(ops_rng) >> 11) * 0x1.0p-53;
}

/*
 * log and exp of IEEE arithmetic alone (frexp, ldexp and floor are exact):
 * the same bits on every x86-64, whichever libm variant the CPU gets.
 */
static double hc_ln(double x)
{
	double m, s, p = 1.0 / 21;
	int e, k;

	m = frexp(x, &e);
	if (m < M_SQRT1_2) {
		m *= 2;
		e--;
	}
	s = (m - 1) / (m + 1);		/* |s| < 0.172: the atanh series */
	for (k = 19; k >= 1; k -= 2)
		p = p * s * s + 1.0 / k;
	return 2 * s * p + e * M_LN2;
}

static double hc_exp(double x)
{
	double k, r, t = 1, p = 1;
	int i;

	if (x > 700 || x < -700)
		return x > 0 ? HUGE_VAL : 0;
	k = floor(x / M_LN2 + 0.5);
	r = x - k * M_LN2;		/* |r| <= 0.35: the Taylor series */
	for (i = 1; i <= 18; i++) {
		t *= r / i;
		p += t;
	}
	return ldexp(p, (int)k);
}

/* Impressions' hybrid: lognormal body (Marsaglia's polar normal), Pareto tail */
uint64_t draw_size(void)
{
	double u, v, s, x;

	if (rng_unit() < BODY_P) {
		do {
			u = 2 * rng_unit() - 1;
			v = 2 * rng_unit() - 1;
			s = u * u + v * v;
		} while (s >= 1 || s == 0);
		x = hc_exp(LN_MU + LN_SIGMA * u * sqrt(-2 * hc_ln(s) / s));
	} else {
		x = PARETO_XM * hc_exp(-hc_ln(1 - rng_unit()) / PARETO_K);
	}
	if (!(x < (double)opt_max_file))
		return opt_max_file;
	return x < 1 ? 1 : (uint64_t)x;
}

/*
   Single-source bodies of the real transforms of PC fftptdma on a device back end: each of
   FFTW's real kinds that src/fft/fft1d.c uses (R2HC, HC2R, REDFT00/01/10/11, RODFT00/01/10/11,
   FFTW's definitions and normalisation) is one complex DFT of length L between a
   pre-processing and a post-processing pass:

     z_j = x_j e^{-2 pi i j b / L}  (j < n; zero for n <= j < L)     pre
     W   = DFT_L(z)                                                  the FFT library
     S_k = e^{-2 pi i a (k + b) / L} W_k                             post
     Y_k = 2 Re S_k (REDFT) or -2 Im S_k (RODFT), minus the end-point terms of the kind

   since sum_j x_j e^{-2 pi i (j + a)(k + b) / L} = S_k, and every DCT/DST kind is twice the
   real or imaginary part of such a sum over j < n with L = 2 (n - 1), 2 (n + 1) or 2 n and
   shifts a, b in {0, 1/2, 1}, except for end points that FFTW weighs once (x_0 of REDFT00 and
   REDFT01, x_{n-1} of REDFT00 and RODFT01), which the post pass subtracts. R2HC is the DFT of
   length n in halfcomplex order; HC2R is the real part of the DFT of the conjugated Hermitian
   coefficients. The zero padding to L costs up to twice the work of a transform of the
   symmetric extension, and keeps one code path for all ten kinds.

   Lines: a box of extents (n0, n1, n2), x fastest, transformed along direction d: line l has
   its first element at (l % inner) + (l / inner) inner n and stride inner, inner = 1 (d = 0)
   or n0 (d = 1). The complex buffer holds the lines' L values one line after the other,
   interleaved (re, im), which is the batched layout of cuFFT and VkFFT. The pre pass also
   keeps x_0 and x_{n-1} of each line (two doubles per line), since the post pass writes
   over x.
*/
#ifndef PPE_KERNELS_FFT_H
#define PPE_KERNELS_FFT_H

#include <math.h>

#include "hd.h"

/* The real kinds (the order of FFTW's names). */
enum {
  PPE_FFT_R2HC,
  PPE_FFT_HC2R,
  PPE_FFT_REDFT00,
  PPE_FFT_REDFT01,
  PPE_FFT_REDFT10,
  PPE_FFT_REDFT11,
  PPE_FFT_RODFT00,
  PPE_FFT_RODFT01,
  PPE_FFT_RODFT10,
  PPE_FFT_RODFT11,
  PPE_FFT_NKINDS
};

/* The transform of a batch of lines. */
typedef struct {
  int  kind;   /* PPE_FFT_* */
  long n;      /* points per line */
  long L;      /* length of the complex DFT */
  int  a2, b2; /* 2a and 2b of the shifts */
  long inner;  /* stride of a line's elements; lines with the same l / inner are n inner apart */
  long lines;  /* lines of the batch */
} ppe_fft_lines;

#define PPE_FFT_PI 3.14159265358979323846

/* Fills L, a2, b2 of a kind for lines of n points (host); 0, or -1 for a bad kind or size. */
static inline int ppe_fft_setup(int kind, long n, long inner, long lines, ppe_fft_lines *F)
{
  /*                      R2HC HC2R E00 E01 E10 E11 O00 O01 O10 O11 */
  const int a2[] = {0, 0, 0, 0, 1, 1, 2, 2, 1, 1};
  const int b2[] = {0, 0, 0, 1, 0, 1, 2, 1, 2, 1};

  if (kind < 0 || kind >= PPE_FFT_NKINDS || n < 2 || inner < 1 || lines < 0) return -1;
  F->kind  = kind;
  F->n     = n;
  F->L     = kind <= PPE_FFT_HC2R ? n : kind == PPE_FFT_REDFT00 ? 2 * (n - 1) : kind == PPE_FFT_RODFT00 ? 2 * (n + 1) : 2 * n;
  F->a2    = a2[kind];
  F->b2    = b2[kind];
  F->inner = inner;
  F->lines = lines;
  return 0;
}

/* Offset of element j of line l. */
PPE_HD long ppe_fft_offset(const ppe_fft_lines *F, long l, long j)
{
  return (l % F->inner) + (l / F->inner) * F->inner * F->n + j * F->inner;
}

/* cos and sin of -pi m / q, m reduced modulo 2 q first so that the argument stays in
   (-2 pi, 0]. */
PPE_HD void ppe_fft_phase(long m, long q, double *c, double *s)
{
  double th = -PPE_FFT_PI * (double)(m % (2 * q)) / (double)q;

  *c = cos(th);
  *s = sin(th);
}

/* Pre pass, element j < L of line l: z[2 (l L + j) + {0, 1}] from the line of x; element 0
   also keeps x_0 and x_{n-1} in ends[2 l + {0, 1}]. */
PPE_HD void ppe_fft_pre(const ppe_fft_lines *F, const double *x, long l, long j, double *z, double *ends)
{
  double *zj = z + 2 * (l * F->L + j), re = 0.0, im = 0.0;
  long    n = F->n;

  if (j == 0) {
    ends[2 * l]     = x[ppe_fft_offset(F, l, 0)];
    ends[2 * l + 1] = x[ppe_fft_offset(F, l, n - 1)];
  }
  if (F->kind == PPE_FFT_HC2R) {
    /* y_j = Re sum_k conj(c_k) e^{-2 pi i j k / n}: c_0 = r_0, c_k = 2 (r_k + i i_k) for
       0 < k < n - k, c_{n/2} = r_{n/2}; r_k = x_k, i_k = x_{n-k} */
    if (j == 0 || 2 * j == n) re = x[ppe_fft_offset(F, l, j)];
    else if (2 * j < n) {
      re = 2.0 * x[ppe_fft_offset(F, l, j)];
      im = -2.0 * x[ppe_fft_offset(F, l, n - j)];
    }
  } else if (j < n) {
    double v = x[ppe_fft_offset(F, l, j)], c = 1.0, s = 0.0;

    if (F->b2) ppe_fft_phase(j * F->b2, F->L, &c, &s); /* e^{-i pi j b2 / L} */
    re = v * c;
    im = v * s;
  }
  zj[0] = re;
  zj[1] = im;
}

/* Post pass, output k < n of line l: y's element k from the DFT in z and the ends. */
PPE_HD void ppe_fft_post(const ppe_fft_lines *F, const double *z, const double *ends, long l, long k, double *y)
{
  const double *w = z + 2 * l * F->L;
  long          n = F->n;
  double        v, re, im, c = 1.0, s = 0.0, sr, si, alt = (k % 2) ? -1.0 : 1.0;

  switch (F->kind) {
  case PPE_FFT_R2HC:
    v = 2 * k <= n ? w[2 * k] : w[2 * (n - k) + 1];
    break;
  case PPE_FFT_HC2R:
    v = w[2 * k];
    break;
  default:
    re = w[2 * k];
    im = w[2 * k + 1];
    if (F->a2) ppe_fft_phase(F->a2 * (2 * k + F->b2), 2 * F->L, &c, &s); /* e^{-i pi a2 (2k + b2) / (2L)} */
    sr = re * c - im * s;
    si = re * s + im * c;
    if (F->kind <= PPE_FFT_REDFT11) v = 2.0 * sr;
    else v = -2.0 * si;
    if (F->kind == PPE_FFT_REDFT00) v -= ends[2 * l] + alt * ends[2 * l + 1];
    else if (F->kind == PPE_FFT_REDFT01) v -= ends[2 * l];
    else if (F->kind == PPE_FFT_RODFT01) v -= alt * ends[2 * l + 1];
    break;
  }
  y[ppe_fft_offset(F, l, k)] = v;
}

#endif

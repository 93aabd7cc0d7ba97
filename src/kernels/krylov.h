/*
   Single-source bodies of the fused vector kernels of Bi-CGSTAB (Pennati et al. (2025),
   Algorithm 3)
   and of the local dot products that the fused stencil apply accumulates.

   Plain C over arrays of n local values (no PETSc objects), so that the host loops below
   and a device kernel share the arithmetic. Dot products are local partial sums: the caller
   merges the sums of one stage into a single global reduction.

   Partial sums use four independent accumulators (i mod 4), added as (s0 + s1) + (s2 + s3):
   the order is fixed, so the result depends only on the data and n, never on timing.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025: Algorithm 3 (Bi-CGSTAB with fused
     kernels and merged reductions).
*/
#ifndef PPE_KERNELS_KRYLOV_H
#define PPE_KERNELS_KRYLOV_H

#include "hd.h"

/* sum_i y[i] u[i] over n values. */
PPE_HD double ppe_dot_seg(long n, const double *y, const double *u)
{
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  long   i  = 0;

  for (; i + 3 < n; i += 4) {
    s0 += y[i] * u[i];
    s1 += y[i + 1] * u[i + 1];
    s2 += y[i + 2] * u[i + 2];
    s3 += y[i + 3] * u[i + 3];
  }
  for (; i < n; i++) s0 += y[i] * u[i];
  return (s0 + s1) + (s2 + s3);
}

/* KernelBiCGS2: r <- r - alpha w */
PPE_HD void ppe_bcgs_axpy(long n, double alpha, const double *w, double *r)
{
  for (long i = 0; i < n; i++) r[i] = r[i] - alpha * w[i];
}

/* KernelBiCGS4: x <- x + alpha ph + omega rh */
PPE_HD void ppe_bcgs_update_x(long n, double alpha, double omega, const double *ph, const double *rh, double *x)
{
  for (long i = 0; i < n; i++) x[i] = x[i] + alpha * ph[i] + omega * rh[i];
}

/* KernelBiCGS5: r <- r - omega t, and the local sums rt'r (s[0]) and r'r (s[1]) of the new r */
PPE_HD void ppe_bcgs_update_r(long n, double omega, const double *t, const double *rt, double *r, double s[2])
{
  double a0 = 0.0, a1 = 0.0, b0 = 0.0, b1 = 0.0;
  long   i  = 0;

  for (; i + 1 < n; i += 2) {
    double r0 = r[i] - omega * t[i], r1 = r[i + 1] - omega * t[i + 1];
    r[i]     = r0;
    r[i + 1] = r1;
    a0 += rt[i] * r0;
    a1 += rt[i + 1] * r1;
    b0 += r0 * r0;
    b1 += r1 * r1;
  }
  for (; i < n; i++) {
    double r0 = r[i] - omega * t[i];
    r[i]      = r0;
    a0 += rt[i] * r0;
    b0 += r0 * r0;
  }
  s[0] = a0 + a1;
  s[1] = b0 + b1;
}

/* KernelBiCGS6: p <- r + beta (p - omega w) */
PPE_HD void ppe_bcgs_update_p(long n, double beta, double omega, const double *r, const double *w, double *p)
{
  for (long i = 0; i < n; i++) p[i] = r[i] + beta * (p[i] - omega * w[i]);
}

/* y <- a x + b y + c: copies, scalings, shifts and the axpy family of the device-resident
   Krylov iterations (a = 0: x is not read; b = 0: y is not read, so it may hold anything) */
PPE_HD void ppe_axpbyc(long n, double a, const double *x, double b, double *y, double c)
{
  for (long i = 0; i < n; i++) y[i] = (a != 0.0 ? a * x[i] : 0.0) + (b != 0.0 ? b * y[i] : 0.0) + c;
}

#endif

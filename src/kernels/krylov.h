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
  long   i = 0;

  for (; i + 3 < n; i += 4) {
    s0 += y[i] * u[i];
    s1 += y[i + 1] * u[i + 1];
    s2 += y[i + 2] * u[i + 2];
    s3 += y[i + 3] * u[i + 3];
  }
  for (; i < n; i++) s0 += y[i] * u[i];
  return (s0 + s1) + (s2 + s3);
}

/* sum_i x[i] over n values, in the order of ppe_dot_seg (x[i] * 1.0 is x[i]: the bits of a dot
   product with a vector of ones) */
PPE_HD double ppe_sum_seg(long n, const double *x)
{
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  long   i = 0;

  for (; i + 3 < n; i += 4) {
    s0 += x[i];
    s1 += x[i + 1];
    s2 += x[i + 2];
    s3 += x[i + 3];
  }
  for (; i < n; i++) s0 += x[i];
  return (s0 + s1) + (s2 + s3);
}

/* y . u over one row of xm values of a stencil box, in the order of the host's fused apply
   + dot (src/backend/host/stencil_host_body.h): with lo (hi) set, the row's first (last) point
   is computed in the surface phase, after the others, and its product is added last. */
PPE_HD double ppe_s7_row_dot(long xm, int lo, int hi, const double *y, const double *u)
{
  long   ia = lo ? 1 : 0, ib = hi ? xm - 1 : xm;
  double s = ib > ia ? ppe_dot_seg(ib - ia, y + ia, u + ia) : 0.0;

  if (lo) s += ppe_dot_seg(1, y, u);
  if (hi && (xm > 1 || !lo)) s += ppe_dot_seg(1, y + xm - 1, u + xm - 1);
  return s;
}

/*
   Sums in the device's order. A device reduction (PPEDevReduce, src/backend/device/
   krylov_dev.h) adds its values in groups of PPE_RED_CHUNK consecutive values, each group
   from 0.0 in index order, then the group sums the same way, level after level, until at most
   PPE_RED_CHUNK values remain, which are added in order from 0.0. ppe_red streams values in
   that order with no storage (a group moves up one level when the next value arrives, and the
   unfinished groups move up at the end), so that a host sum and a device sum of the same
   values give the same bits. Eight levels hold 256^8 values.
*/
#define PPE_RED_CHUNK  256
#define PPE_RED_LEVELS 8

typedef struct {
  double acc[PPE_RED_LEVELS]; /* the running sum of the open group of each level */
  int    cnt[PPE_RED_LEVELS]; /* values in that group */
  int    top;                 /* highest level that has received a value */
} ppe_red;

PPE_HD void ppe_red_init(ppe_red *r)
{
  for (int l = 0; l < PPE_RED_LEVELS; l++) {
    r->acc[l] = 0.0;
    r->cnt[l] = 0;
  }
  r->top = 0;
}

/* add v at level l: the full groups from level l up move up first, highest first */
PPE_HD void ppe_red_push_at(ppe_red *r, int l, double v)
{
  int m = l;

  while (m < PPE_RED_LEVELS - 1 && r->cnt[m] == PPE_RED_CHUNK) m++;
  for (int k = m; k > l; k--) {
    r->acc[k] += r->acc[k - 1];
    r->cnt[k]++;
    r->acc[k - 1] = 0.0;
    r->cnt[k - 1] = 0;
  }
  if (m > r->top) r->top = m;
  r->acc[l] += v;
  r->cnt[l]++;
}

PPE_HD void ppe_red_push(ppe_red *r, double v)
{
  ppe_red_push_at(r, 0, v);
}

/* the sum of every value pushed (r is spent) */
PPE_HD double ppe_red_sum(ppe_red *r)
{
  for (int l = 0; l < r->top; l++) {
    double g = r->acc[l];

    r->acc[l] = 0.0;
    r->cnt[l] = 0;
    ppe_red_push_at(r, l + 1, g);
  }
  return r->acc[r->top];
}

/* sum of w[0..n) in the device's order */
PPE_HD double ppe_red_array(long n, const double *w)
{
  ppe_red r;

  ppe_red_init(&r);
  for (long i = 0; i < n; i++) ppe_red_push(&r, w[i]);
  return ppe_red_sum(&r);
}

/* y . u in the device's order (PPEDevDot): ppe_dot_seg over chunks of PPE_RED_CHUNK values,
   whose sums are reduced as above */
PPE_HD double ppe_dot_tree(long n, const double *y, const double *u)
{
  ppe_red r;

  ppe_red_init(&r);
  for (long p0 = 0; p0 < n; p0 += PPE_RED_CHUNK) ppe_red_push(&r, ppe_dot_seg(n - p0 < PPE_RED_CHUNK ? n - p0 : PPE_RED_CHUNK, y + p0, u + p0));
  return ppe_red_sum(&r);
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
  long   i = 0;

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

/* ppe_bcgs_update_r with its sums in the device's order (PPEDevBCGSUpdateR): chunk by
   chunk, the chunk sums reduced as by ppe_red */
PPE_HD void ppe_bcgs_update_r_tree(long n, double omega, const double *t, const double *rt, double *r, double s[2])
{
  ppe_red a, b;

  ppe_red_init(&a);
  ppe_red_init(&b);
  for (long p0 = 0; p0 < n; p0 += PPE_RED_CHUNK) {
    double c[2];

    ppe_bcgs_update_r(n - p0 < PPE_RED_CHUNK ? n - p0 : PPE_RED_CHUNK, omega, t + p0, rt + p0, r + p0, c);
    ppe_red_push(&a, c[0]);
    ppe_red_push(&b, c[1]);
  }
  s[0] = ppe_red_sum(&a);
  s[1] = ppe_red_sum(&b);
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

/*
   Single-source point bodies of the Chebyshev iteration (Pennati et al. (2025), Algorithms 2
   and 4)
   for M x = b with the operator P = D^-1 A, D a positive diagonal (the grid's volume
   weights W, or the identity), eigenvalues of P in [alpha, beta]:

     theta = (beta + alpha)/2, delta = (beta - alpha)/2, sigma = theta/delta

     first step (KernelCI1):  z = b/theta,  y = (2 rho/delta) (2 b - (P b)/theta)
     later steps (KernelCI2): w = rho (2 sigma y + (2/delta)(b - P y) - rho_old z)

   where b is already D^-1 times the caller's right-hand side and P y = dinv * (A y) is
   formed here from t = A y. Plain C over arrays; dinv == NULL means D = I. The host stencil
   can also evaluate KernelCI2 inside its sweep (src/backend/host), point by point with
   ppe_ci_point(), without storing t.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025: Algorithms 2 and 4 (the Chebyshev
     iteration and its kernels KernelCI1, KernelCI2).
*/
#ifndef PPE_KERNELS_CHEBYCI_H
#define PPE_KERNELS_CHEBYCI_H

#include "hd.h"

/* b <- dinv * b_in (the scaled right-hand side) */
PPE_HD void ppe_ci_scale(long n, const double *dinv, const double *bin, double *b)
{
  for (long i = 0; i < n; i++) b[i] = dinv[i] * bin[i];
}

/* KernelCI1: z = b/theta, y = c1 (2 b - (dinv t)/theta), c1 = 2 rho/delta, t = A b */
PPE_HD void ppe_ci_first(long n, double theta, double c1, const double *dinv, const double *b, const double *t, double *z, double *y)
{
  if (dinv) {
    for (long i = 0; i < n; i++) {
      z[i] = b[i] / theta;
      y[i] = c1 * (2.0 * b[i] - (dinv[i] * t[i]) / theta);
    }
  } else {
    for (long i = 0; i < n; i++) {
      z[i] = b[i] / theta;
      y[i] = c1 * (2.0 * b[i] - t[i] / theta);
    }
  }
}

/* One point of KernelCI2, s2 = 2 sigma, d2 = 2/delta, t = (A y) at the point, dinv = 1 when
   D = I. The stencil's fused sweep calls the same function, so both give the same bits. */
PPE_HD double ppe_ci_point(double rho, double rho_old, double s2, double d2, double dinv, double b, double t, double y, double z)
{
  return rho * (s2 * y + d2 * (b - dinv * t) - rho_old * z);
}

/* KernelCI2: w = rho (2 sigma y + (2/delta)(b - dinv t) - rho_old z), t = A y */
PPE_HD void ppe_ci_step(long n, double rho, double rho_old, double s2, double d2, const double *dinv, const double *b, const double *t, const double *y, const double *z, double *w)
{
  if (dinv) {
    for (long i = 0; i < n; i++) w[i] = ppe_ci_point(rho, rho_old, s2, d2, dinv[i], b[i], t[i], y[i], z[i]);
  } else {
    for (long i = 0; i < n; i++) w[i] = ppe_ci_point(rho, rho_old, s2, d2, 1.0, b[i], t[i], y[i], z[i]);
  }
}

#endif

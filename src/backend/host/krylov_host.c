/*
   Host launchers of the Krylov and Chebyshev vector kernels (src/kernels/krylov.h,
   chebyci.h) for the back-end table: one pass over the array each. The dot products sum in
   the grouped order of the device reductions (ppe_dot_tree, ppe_bcgs_update_r_tree), so the
   host and every device back end give the same bits. The sum of a vector's entries is a
   plain loop (the host's bits of KSP cbcg's null-space removal; a device sums in its order).
*/
#include <backend/host/host.h>

int PPEHostDot(long n, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream)
{
  (void)work;
  (void)stream;
  if (nd > 0) s[0] = ppe_dot_tree(n, y, u0);
  if (nd > 1) s[1] = ppe_dot_tree(n, y, u1);
  return 0;
}

/* the entries added one after the other from 0 (a device adds them in its reduction order) */
int PPEHostSum(long n, const double *x, double *work, double *s, void *stream)
{
  double sum = 0.0;

  (void)work;
  (void)stream;
  for (long i = 0; i < n; i++) sum += x[i];
  *s = sum;
  return 0;
}

int PPEHostCIScale(long n, const double *dinv, const double *bin, double *b, void *stream)
{
  (void)stream;
  ppe_ci_scale(n, dinv, bin, b);
  return 0;
}

int PPEHostCIFirst(long n, double theta, double c1, const double *dinv, const double *b, const double *t, double *z, double *y, void *stream)
{
  (void)stream;
  ppe_ci_first(n, theta, c1, dinv, b, t, z, y);
  return 0;
}

int PPEHostCIStep(long n, double rho, double rho_old, double s2, double d2, const double *dinv, const double *b, const double *t, const double *y, const double *z, double *w, void *stream)
{
  (void)stream;
  ppe_ci_step(n, rho, rho_old, s2, d2, dinv, b, t, y, z, w);
  return 0;
}

int PPEHostBCGSAxpy(long n, double alpha, const double *w, double *r, void *stream)
{
  (void)stream;
  ppe_bcgs_axpy(n, alpha, w, r);
  return 0;
}

int PPEHostBCGSUpdateX(long n, double alpha, double omega, const double *ph, const double *rh, double *x, void *stream)
{
  (void)stream;
  ppe_bcgs_update_x(n, alpha, omega, ph, rh, x);
  return 0;
}

int PPEHostBCGSUpdateR(long n, double omega, const double *t, const double *rt, double *r, double *work, double *s, void *stream)
{
  (void)work;
  (void)stream;
  ppe_bcgs_update_r_tree(n, omega, t, rt, r, s);
  return 0;
}

int PPEHostBCGSUpdateP(long n, double beta, double omega, const double *r, const double *w, double *p, void *stream)
{
  (void)stream;
  ppe_bcgs_update_p(n, beta, omega, r, w, p);
  return 0;
}

int PPEHostAXPBYC(long n, double alpha, const double *x, double beta, double *y, double gamma, void *stream)
{
  (void)stream;
  ppe_axpbyc(n, alpha, x, beta, y, gamma);
  return 0;
}

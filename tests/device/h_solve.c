/*
   Harness family "solve": a whole preconditioned CG solve built from the launchers, run two
   ways on the same problem, to measure what keeping the Krylov vectors on the device is
   worth:

     device-resident  every vector lives in device memory; the operator (stencil), the
                      preconditioner (the Chebyshev iteration of PC chebyci: ci_scale,
                      ci_first, the fused stencil + Chebyshev step), the updates (bcgs_axpy,
                      bcgs_update_p) and the dot products run on the device; only the
                      right-hand side goes in, the solution comes out, and the dot products'
                      scalars cross per iteration;
     copying          the library's path on a device back end with host vectors today: the
                      Krylov vectors and their updates and dot products stay on the host, and
                      each application of the operator or the preconditioner copies its input
                      to the device and its output back.

   The problem is the 7-point Laplacian with homogeneous Dirichlet ends on m^3 points,
   A = W (-Lap_h) with uniform weights (symmetric positive definite), and the preconditioner is
   a Chebyshev iteration of fixed degree in D^-1 A with the exact eigenvalue bounds of -Lap_h,
   a fixed polynomial positive on the spectrum, so CG stays valid (Pennati et al. 2025,
   Algorithms 2 and 4). The two runs differ only in the order of their dot products' sums:
   the check asserts the same iteration count (within one), the true residual below the
   tolerance, and the solutions within a few times the tolerance of each other. Host<->device
   bytes are counted per solve for both. 128^3 on a GPU, 16^3 in emulation.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025.
*/
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CG stops at this relative residual (preconditioned-free: the true ||r|| / ||b||). */
#define SOLVE_RTOL 1e-8
/* Degree of the Chebyshev preconditioner (applications of A per PC apply). */
#define SOLVE_CHEB_ITS 4
/* pi, for the eigenvalue bounds (M_PI is not C11) */
#define SOLVE_PI 3.14159265358979323846
/* Most CG iterations. */
#define SOLVE_MAXITS 500

typedef struct {
  long        m;
  size_t      n;
  double     *tab[3][4]; /* host tables of the three directions: w, tlo, thi, d */
  double     *dtab[3][4];
  ppe_dev_box B;
  double      dinv_val;
  double     *dinv, *ddinv; /* host, device */
  double      theta, delta, sigma;
  double      bytes;        /* host<->device bytes of the current solve */
} Problem;

static void ProblemCreate(Problem *P, long m)
{
  double h = 1.0 / (double)(m + 1), lmin, lmax, s, c;

  memset(P, 0, sizeof(*P));
  P->m = m;
  P->n = (size_t)m * (size_t)m * (size_t)m;
  for (int d = 0; d < 3; d++) {
    for (int a = 0; a < 4; a++) P->tab[d][a] = HMallocHost((size_t)m);
    for (long i = 0; i < m; i++) {
      P->tab[d][0][i] = h;
      /* the 1D tables carry the weight: w (1/h^2) (-1, 2, -1) */
      P->tab[d][1][i] = i > 0 ? 1.0 / h : 0.0;
      P->tab[d][2][i] = i < m - 1 ? 1.0 / h : 0.0;
      P->tab[d][3][i] = 2.0 / h;
    }
    for (int a = 0; a < 4; a++) P->dtab[d][a] = HUpload(P->tab[d][a], (size_t)m);
  }
  memset(&P->B, 0, sizeof(P->B));
  P->B.X.w   = P->dtab[0][0];
  P->B.X.tlo = P->dtab[0][1];
  P->B.X.thi = P->dtab[0][2];
  P->B.X.d   = P->dtab[0][3];
  P->B.Y.w   = P->dtab[1][0];
  P->B.Y.tlo = P->dtab[1][1];
  P->B.Y.thi = P->dtab[1][2];
  P->B.Y.d   = P->dtab[1][3];
  P->B.Z.w   = P->dtab[2][0];
  P->B.Z.tlo = P->dtab[2][1];
  P->B.Z.thi = P->dtab[2][2];
  P->B.Z.d   = P->dtab[2][3];
  for (int d = 0; d < 3; d++) P->B.N[d] = m;
  P->B.xm = P->B.ym = P->B.zm = m;
  /* D = W: dinv = 1/h^3 at every point */
  P->dinv_val = 1.0 / (h * h * h);
  P->dinv     = HMallocHost(P->n);
  for (size_t t = 0; t < P->n; t++) P->dinv[t] = P->dinv_val;
  P->ddinv = HUpload(P->dinv, P->n);
  /* eigenvalues of -Lap_h, Dirichlet: 3 (4/h^2) sin^2 and cos^2 of pi h / 2 */
  s          = sin(0.5 * SOLVE_PI * h);
  c          = cos(0.5 * SOLVE_PI * h);
  lmin       = 12.0 * s * s / (h * h);
  lmax       = 12.0 * c * c / (h * h);
  P->theta   = 0.5 * (lmax + lmin);
  P->delta   = 0.5 * (lmax - lmin);
  P->sigma   = P->theta / P->delta;
}

static void ProblemDestroy(Problem *P)
{
  for (int d = 0; d < 3; d++)
    for (int a = 0; a < 4; a++) {
      free(P->tab[d][a]);
      HFree(P->dtab[d][a]);
    }
  free(P->dinv);
  HFree(P->ddinv);
}

/* Device work of the preconditioner and the operator. */
typedef struct {
  double *b, *t, *z, *y, *w; /* Chebyshev: scaled rhs, A b, and the rotating iterates */
  double *in, *out;          /* copying path: the staged input and output */
  double *red;               /* reduction work */
} Work;

static void WorkCreate(Work *W, size_t n)
{
  W->b   = HAlloc(n);
  W->t   = HAlloc(n);
  W->z   = HAlloc(n);
  W->y   = HAlloc(n);
  W->w   = HAlloc(n);
  W->in  = HAlloc(n);
  W->out = HAlloc(n);
  W->red = HAlloc(PPE_DEV_RED_WORK((long)n, 2));
}

static void WorkDestroy(Work *W)
{
  HFree(W->b);
  HFree(W->t);
  HFree(W->z);
  HFree(W->y);
  HFree(W->w);
  HFree(W->in);
  HFree(W->out);
  HFree(W->red);
}

static void Apply(Problem *P, const double *x, double *y)
{
  ppe_dev_halo none;

  for (int f = 0; f < 6; f++) none.f[f] = NULL;
  HCALL(H.ops->stencil(&P->B, x, &none, y, PPE_DEV_ALL, NULL, H.stream));
}

/* out = p(D^-1 A) D^-1 r on the device (PC chebyci, the fused step); out != r. */
static void Cheb(Problem *P, Work *W, const double *r, double *out)
{
  double      rho_old = 1.0 / P->sigma, rho = 1.0 / (2.0 * P->sigma - rho_old);
  double     *z = W->z, *y = W->y, *w = W->w;
  ppe_dev_halo none;

  for (int f = 0; f < 6; f++) none.f[f] = NULL;
  HCALL(H.ops->ci_scale((long)P->n, P->ddinv, r, W->b, H.stream));
  Apply(P, W->b, W->t);
  HCALL(H.ops->ci_first((long)P->n, P->theta, 2.0 * rho / P->delta, P->ddinv, W->b, W->t, z, SOLVE_CHEB_ITS == 1 ? out : y, H.stream));
  for (int i = 2; i <= SOLVE_CHEB_ITS; i++) {
    double    *o = i == SOLVE_CHEB_ITS ? out : w;
    ppe_dev_ci ci;

    rho_old    = rho;
    rho        = 1.0 / (2.0 * P->sigma - rho_old);
    ci.rho     = rho;
    ci.rho_old = rho_old;
    ci.s2      = 2.0 * P->sigma;
    ci.d2      = 2.0 / P->delta;
    ci.b       = W->b;
    ci.z       = z;
    ci.dinv    = P->ddinv;
    ci.w       = o;
    HCALL(H.ops->stencil(&P->B, y, &none, NULL, PPE_DEV_ALL, &ci, H.stream));
    if (o == w) {
      double *tmp = z;
      z           = y;
      y           = w;
      w           = tmp;
    }
  }
}

/* A host vector through a device operation: copy in, run, copy out (counted). */
static void Staged(Problem *P, Work *W, int pc, const double *hin, double *hout)
{
  HPut(W->in, hin, P->n);
  if (pc) Cheb(P, W, W->in, W->out);
  else Apply(P, W->in, W->out);
  HGet(hout, W->out, P->n);
  P->bytes += 2.0 * 8.0 * (double)P->n;
}

static double HostDot(size_t n, const double *a, const double *b)
{
  return ppe_dot_seg((long)n, a, b);
}

/* PCG from x = 0, device-resident. Returns the iterations; x (device) the solution. */
static int SolveDevice(Problem *P, Work *W, const double *hb, double *hx)
{
  size_t  n  = P->n;
  double *b  = HAlloc(n), *x = HAlloc(n), *r = HAlloc(n), *z = HAlloc(n), *p = HAlloc(n), *q = HAlloc(n);
  double  s[2], rz, bnorm, pq;
  int     its = 0;

  P->bytes = 0.0;
  HPut(b, hb, n);
  P->bytes += 8.0 * (double)n;
  HCALL(H.ops->copy(r, b, n * sizeof(double), PPE_DEV_D2D, H.stream));
  HCALL(H.ops->copy(x, b, n * sizeof(double), PPE_DEV_D2D, H.stream));
  HCALL(H.ops->bcgs_axpy((long)n, 1.0, b, x, H.stream)); /* x = b - 1 b = 0 exactly, without a host copy */
  HCALL(H.ops->dot((long)n, 1, r, r, NULL, W->red, s, H.stream));
  P->bytes += 8.0;
  bnorm = sqrt(s[0]);
  Cheb(P, W, r, z);
  HCALL(H.ops->copy(p, z, n * sizeof(double), PPE_DEV_D2D, H.stream));
  HCALL(H.ops->dot((long)n, 1, r, z, NULL, W->red, s, H.stream));
  P->bytes += 8.0;
  rz = s[0];
  while (its < SOLVE_MAXITS) {
    double alpha, beta;

    Apply(P, p, q);
    HCALL(H.ops->dot((long)n, 1, p, q, NULL, W->red, s, H.stream));
    P->bytes += 8.0;
    pq    = s[0];
    alpha = rz / pq;
    HCALL(H.ops->bcgs_axpy((long)n, -alpha, p, x, H.stream));
    HCALL(H.ops->bcgs_axpy((long)n, alpha, q, r, H.stream));
    its++;
    Cheb(P, W, r, z);
    HCALL(H.ops->dot((long)n, 2, r, z, r, W->red, s, H.stream));
    P->bytes += 16.0;
    if (sqrt(s[1]) <= SOLVE_RTOL * bnorm) break;
    beta = s[0] / rz;
    rz   = s[0];
    HCALL(H.ops->bcgs_update_p((long)n, beta, 0.0, z, q, p, H.stream));
  }
  HGet(hx, x, n);
  P->bytes += 8.0 * (double)n;
  HFree(b);
  HFree(x);
  HFree(r);
  HFree(z);
  HFree(p);
  HFree(q);
  return its;
}

/* The same PCG with host vectors: each operator and preconditioner application copies. */
static int SolveCopying(Problem *P, Work *W, const double *hb, double *x)
{
  size_t  n = P->n;
  double *r = HMallocHost(n), *z = HMallocHost(n), *p = HMallocHost(n), *q = HMallocHost(n);
  double  rz, bnorm, pq;
  int     its = 0;

  P->bytes = 0.0;
  memset(x, 0, n * sizeof(double));
  memcpy(r, hb, n * sizeof(double));
  bnorm = sqrt(HostDot(n, r, r));
  Staged(P, W, 1, r, z);
  memcpy(p, z, n * sizeof(double));
  rz = HostDot(n, r, z);
  while (its < SOLVE_MAXITS) {
    double alpha, beta, rr;

    Staged(P, W, 0, p, q);
    pq    = HostDot(n, p, q);
    alpha = rz / pq;
    ppe_bcgs_axpy((long)n, -alpha, p, x);
    ppe_bcgs_axpy((long)n, alpha, q, r);
    its++;
    Staged(P, W, 1, r, z);
    rr = HostDot(n, r, r);
    if (sqrt(rr) <= SOLVE_RTOL * bnorm) break;
    beta = HostDot(n, r, z) / rz;
    rz   = HostDot(n, r, z);
    ppe_bcgs_update_p((long)n, beta, 0.0, z, q, p);
  }
  free(r);
  free(z);
  free(p);
  free(q);
  return its;
}

/* ||b - A x|| / ||b|| with the operator on the device (not counted). */
static double TrueResidual(Problem *P, Work *W, const double *hb, const double *hx)
{
  double *ax = HMallocHost(P->n), num = 0.0, den = 0.0;

  HPut(W->in, hx, P->n);
  Apply(P, W->in, W->out);
  HGet(ax, W->out, P->n);
  for (size_t t = 0; t < P->n; t++) {
    num += (hb[t] - ax[t]) * (hb[t] - ax[t]);
    den += hb[t] * hb[t];
  }
  free(ax);
  return sqrt(num / den);
}

void HFamily_solve(void)
{
  long    m = H.emu ? 16 : 128;
  Problem P;
  Work    W;
  double *hb, *xd, *xc, tdev = 0.0, tcopy = 0.0, bdev, bcopy, resd, resc, dx;
  int     itd = 0, itc = 0;
  char    size[32];

  ProblemCreate(&P, m);
  WorkCreate(&W, P.n);
  hb = HMallocHost(P.n);
  xd = HMallocHost(P.n);
  xc = HMallocHost(P.n);
  HFill(hb, P.n, -1.0, 1.0);
  snprintf(size, sizeof(size), "%ld^3", m);
  HTIME(tdev, itd = SolveDevice(&P, &W, hb, xd));
  bdev = P.bytes;
  HTIME(tcopy, itc = SolveCopying(&P, &W, hb, xc));
  bcopy = P.bytes;
  resd  = TrueResidual(&P, &W, hb, xd);
  resc  = TrueResidual(&P, &W, hb, xc);
  dx    = HRelDiff(xd, xc, P.n);
  HCheck("solve pcg+chebyci", itd > 1 && abs(itd - itc) <= 1 && resd <= 2 * SOLVE_RTOL && resc <= 2 * SOLVE_RTOL && dx <= 1e3 * SOLVE_RTOL,
         "%s, Chebyshev degree %d, rtol %.0e: device-resident %d iterations, true residual %.2e, %.3g MB host<->device; copying path %d iterations, %.2e, %.3g MB; solutions' relative difference %.2e", size, SOLVE_CHEB_ITS, SOLVE_RTOL, itd, resd, bdev / 1e6, itc, resc, bcopy / 1e6, dx);
  HCheck("solve pcg+chebyci", bdev <= 2.0 * 8.0 * (double)P.n + 8.0 * (2.0 + 3.0 * itd), "%s: the device-resident solve moves b in and x out and %d scalars (%.0f bytes), not a vector per iteration", size, 2 + 3 * itd, bdev);
  HTiming("pcg+chebyci device-resident", size, tdev, 0.0, "copying path", tcopy);
  free(hb);
  free(xd);
  free(xc);
  WorkDestroy(&W);
  ProblemDestroy(&P);
}

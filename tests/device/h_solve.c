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
  double      bytes; /* host<->device bytes of the current solve */
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
  s        = sin(0.5 * SOLVE_PI * h);
  c        = cos(0.5 * SOLVE_PI * h);
  lmin     = 12.0 * s * s / (h * h);
  lmax     = 12.0 * c * c / (h * h);
  P->theta = 0.5 * (lmax + lmin);
  P->delta = 0.5 * (lmax - lmin);
  P->sigma = P->theta / P->delta;
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
  double       rho_old = 1.0 / P->sigma, rho = 1.0 / (2.0 * P->sigma - rho_old);
  double      *z = W->z, *y = W->y, *w = W->w;
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
  size_t  n = P->n;
  double *b = HAlloc(n), *x = HAlloc(n), *r = HAlloc(n), *z = HAlloc(n), *p = HAlloc(n), *q = HAlloc(n);
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

/* ---- s-step CG with a Chebyshev basis: the iteration of KSP cbcg ----

   Each block builds s basis vectors S_j = T_j(xi(M A)) M r with the Chebyshev recurrence
   (ts_cheb) on the interval of M A, where xi maps [lmin, lmax] onto [-1, 1], makes them
   A-conjugate to the previous block (one reduction: AQ_old' S, then ts_combine on S and AS),
   takes the block's step from one more reduction (S' [AS r], ts_gram) and updates x and r in
   one pass (ts_axpy): the two global reductions per block of Ali et al. (2019), Algorithm 1,
   with the residual norm as a third scalar reduction at the block's start. The preconditioner
   is the Chebyshev iteration above: M A has its eigenvalues in [1 - 1/T_m(sigma),
   1 + 1/T_m(sigma)] (m its degree, T_m the Chebyshev polynomial), the interval of the basis.

   Reference: Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of
   communication avoiding Chebyshev basis conjugate gradient solver for multiphase CFD
   simulations", ScalA workshop at SC19, 2019. */

/* block size (cbcg's default; a multiple of PPE_TS_TB) */
#define CBCG_S 8
/* rows per chunk of the host loops of the copying path (PPE_TS_CHUNK of the library) */
#define HOST_CHUNK 128

typedef struct {
  int     dev;                          /* vectors in device memory, else host (applications staged) */
  double *S[2][CBCG_S], *AS[2][CBCG_S]; /* the basis being built and the previous block Q, AQ */
  double *tmp;                          /* M A S_j */
  double *red, *comb;                   /* device work of ts_gram and ts_combine */
  double  lmin, lmax;                   /* interval of M A */
} CBlocks;

static void CBlocksCreate(Problem *P, CBlocks *C, int dev)
{
  size_t n  = P->n;
  double t0 = 1.0, t1 = P->sigma, t;

  memset(C, 0, sizeof(*C));
  C->dev = dev;
  for (int c = 0; c < 2; c++)
    for (int j = 0; j < CBCG_S; j++) {
      C->S[c][j]  = dev ? HAlloc(n) : HMallocHost(n);
      C->AS[c][j] = dev ? HAlloc(n) : HMallocHost(n);
    }
  C->tmp = dev ? HAlloc(n) : HMallocHost(n);
  if (dev) {
    C->red  = HAlloc(PPE_DEV_RED_WORK((long)n, CBCG_S * (CBCG_S + 1)));
    C->comb = HAlloc(PPE_DEV_TS_COMBINE_WORK(CBCG_S, CBCG_S));
  }
  /* T_m(sigma) by the three-term recurrence */
  for (int i = 2; i <= SOLVE_CHEB_ITS; i++) {
    t  = 2.0 * P->sigma * t1 - t0;
    t0 = t1;
    t1 = t;
  }
  C->lmin = 1.0 - 1.0 / t1;
  C->lmax = 1.0 + 1.0 / t1;
}

static void CBlocksDestroy(CBlocks *C)
{
  void (*rel)(void *) = C->dev ? HFree : free;

  for (int c = 0; c < 2; c++)
    for (int j = 0; j < CBCG_S; j++) {
      rel(C->S[c][j]);
      rel(C->AS[c][j]);
    }
  rel(C->tmp);
  if (C->dev) {
    HFree(C->red);
    HFree(C->comb);
  }
}

/* y = A x, or y = M x (pc), on the vectors' side: in place on the device, staged from the host */
static void CApply(Problem *P, Work *W, const CBlocks *C, int pc, const double *x, double *y)
{
  if (!C->dev) Staged(P, W, pc, x, y);
  else if (pc) Cheb(P, W, x, y);
  else Apply(P, x, y);
}

/* out[a + nx b] = x_a . y_b (full nx x ny product); the scalars cross to the host */
static void CGram(Problem *P, CBlocks *C, int nx, double *const *x, int ny, double *const *y, double *out)
{
  if (C->dev) {
    HCALL(H.ops->ts_gram((long)P->n, nx, (const double *const *)x, ny, (const double *const *)y, nx, C->red, out, H.stream));
    P->bytes += 8.0 * nx * ny;
  } else { /* the library's host loops: rows in chunks of HOST_CHUNK, tiles of TA x TB columns */
    const double *xp[CBCG_S + 4], *yp[CBCG_S + 4];
    int           nta = (nx + PPE_TS_TA - 1) / PPE_TS_TA, ntb = (ny + PPE_TS_TB - 1) / PPE_TS_TB;
    double        acc[(CBCG_S + 4) * (CBCG_S + 4)];

    for (int a = 0; a < nta * PPE_TS_TA; a++) xp[a] = x[a < nx ? a : nx - 1];
    for (int b = 0; b < ntb * PPE_TS_TB; b++) yp[b] = y[b < ny ? b : ny - 1];
    memset(acc, 0, sizeof(acc));
    for (long p0 = 0; p0 < (long)P->n; p0 += HOST_CHUNK) {
      long p1 = p0 + HOST_CHUNK < (long)P->n ? p0 + HOST_CHUNK : (long)P->n;
      for (int tb = 0; tb < ntb; tb++)
        for (int ta = 0; ta < nta; ta++) {
          double t[PPE_TS_TA * PPE_TS_TB];
          ppe_ts_gram_tile(xp + ta * PPE_TS_TA, yp + tb * PPE_TS_TB, p0, p1, t);
          for (int bb = 0; bb < PPE_TS_TB; bb++)
            for (int aa = 0; aa < PPE_TS_TA; aa++) acc[ta * PPE_TS_TA + aa + nta * PPE_TS_TA * (tb * PPE_TS_TB + bb)] += t[aa + PPE_TS_TA * bb];
        }
    }
    for (int b = 0; b < ny; b++)
      for (int a = 0; a < nx; a++) out[a + nx * b] = acc[a + nta * PPE_TS_TA * b];
  }
}

/* S_j -= sum_i Q_i B(i, j) for k columns Q and m columns S (B column-major, k x m) */
static void CCombine(Problem *P, CBlocks *C, int k, double *const *q, int m, double *const *s, const double *B)
{
  if (C->dev) HCALL(H.ops->ts_combine((long)P->n, k, (const double *const *)q, m, s, B, C->comb, H.stream));
  else { /* the library's host loops: chunks of rows, TB columns at a time (m a multiple of TB) */
    for (long p0 = 0; p0 < (long)P->n; p0 += HOST_CHUNK) {
      long p1 = p0 + HOST_CHUNK < (long)P->n ? p0 + HOST_CHUNK : (long)P->n;
      for (int jt = 0; jt < m; jt += PPE_TS_TB) {
        double *t[PPE_TS_TB];
        for (int j = 0; j < PPE_TS_TB; j++) t[j] = s[jt + j] + p0;
        ppe_ts_combine_tile(k, (const double *const *)q, (const double *const *)(s + jt), B + (size_t)k * jt, k, PPE_TS_TB, p0, p1, t);
      }
    }
  }
}

/* Cholesky factor (lower, in place) of the symmetric part of the k x k matrix G; 0 when not
   positive definite */
static int CChol(int k, double *G)
{
  for (int j = 0; j < k; j++)
    for (int i = j + 1; i < k; i++) G[i + k * j] = G[j + k * i] = 0.5 * (G[i + k * j] + G[j + k * i]);
  for (int j = 0; j < k; j++) {
    double d = G[j + k * j];
    for (int q = 0; q < j; q++) d -= G[j + k * q] * G[j + k * q];
    if (!(d > 0.0)) return 0;
    G[j + k * j] = sqrt(d);
    for (int i = j + 1; i < k; i++) {
      double v = G[i + k * j];
      for (int q = 0; q < j; q++) v -= G[i + k * q] * G[j + k * q];
      G[i + k * j] = v / G[j + k * j];
    }
  }
  return 1;
}

/* B = L^-T L^-1 B for nrhs columns of length k */
static void CCholSolve(int k, const double *L, int nrhs, double *B)
{
  for (int c = 0; c < nrhs; c++) {
    double *b = B + (size_t)k * c;
    for (int i = 0; i < k; i++) {
      for (int q = 0; q < i; q++) b[i] -= L[i + k * q] * b[q];
      b[i] /= L[i + k * i];
    }
    for (int i = k - 1; i >= 0; i--) {
      for (int q = i + 1; q < k; q++) b[i] -= L[q + k * i] * b[q];
      b[i] /= L[i + k * i];
    }
  }
}

/* cbcg from x = 0 on either side. Returns the iterations (s per block), -1 on a breakdown;
   hx (host) the solution. */
static int SolveCBCG(Problem *P, Work *W, CBlocks *C, const double *hb, double *hx)
{
  size_t  n = P->n, vb = n * sizeof(double);
  double *b, *x, *r, *y[CBCG_S + 1], G[CBCG_S * (CBCG_S + 1)], Wf[2][CBCG_S * CBCG_S], Bm[CBCG_S * CBCG_S], g[CBCG_S], rr, bnorm;
  double  c1 = 2.0 / (C->lmax - C->lmin), c2 = (C->lmax + C->lmin) / (C->lmax - C->lmin);
  int     its = 0, cur = 0, haveold = 0;

  P->bytes = 0.0;
  if (C->dev) {
    b = HAlloc(n);
    x = HAlloc(n);
    r = HAlloc(n);
    HPut(b, hb, n);
    P->bytes += 8.0 * (double)n;
    HCALL(H.ops->copy(r, b, vb, PPE_DEV_D2D, H.stream));
    HCALL(H.ops->copy(x, b, vb, PPE_DEV_D2D, H.stream));
    HCALL(H.ops->bcgs_axpy((long)n, 1.0, b, x, H.stream)); /* x = 0 without a host copy */
  } else {
    b = NULL;
    x = hx;
    r = HMallocHost(n);
    memset(x, 0, vb);
    memcpy(r, hb, vb);
  }
  while (its < SOLVE_MAXITS) {
    double *const *S = C->S[cur], *const *AS = C->AS[cur], *const *Q = C->S[!cur], *const *AQ = C->AS[!cur];

    if (C->dev) {
      double s[2];
      HCALL(H.ops->dot((long)n, 1, r, r, NULL, W->red, s, H.stream));
      P->bytes += 8.0;
      rr = s[0];
    } else rr = HostDot(n, r, r);
    if (its == 0) bnorm = sqrt(rr);
    if (sqrt(rr) <= SOLVE_RTOL * bnorm) break;
    /* the basis: S_0 = M r, S_1 = xi(M A) S_0, S_j+1 = 2 xi(M A) S_j - S_j-1, and A S_j */
    CApply(P, W, C, 1, r, S[0]);
    CApply(P, W, C, 0, S[0], AS[0]);
    for (int j = 1; j < CBCG_S; j++) {
      CApply(P, W, C, 1, AS[j - 1], C->tmp);
      if (C->dev) HCALL(H.ops->ts_cheb((long)n, j == 1 ? c1 : 2.0 * c1, C->tmp, j == 1 ? c2 : 2.0 * c2, S[j - 1], j == 1 ? NULL : S[j - 2], S[j], H.stream));
      else ppe_ts_cheb_rows(j == 1 ? c1 : 2.0 * c1, C->tmp, j == 1 ? c2 : 2.0 * c2, S[j - 1], j == 1 ? NULL : S[j - 2], 0, (long)n, S[j]);
      CApply(P, W, C, 0, S[j], AS[j]);
    }
    /* A-conjugate to the previous block: S -= Q B, AS -= AQ B, B = (Q' A Q)^-1 AQ' S */
    if (haveold) {
      CGram(P, C, CBCG_S, AQ, CBCG_S, S, Bm);
      CCholSolve(CBCG_S, Wf[!cur], CBCG_S, Bm);
      CCombine(P, C, CBCG_S, Q, CBCG_S, S, Bm);
      CCombine(P, C, CBCG_S, AQ, CBCG_S, AS, Bm);
    }
    /* the step: (S' A S) a = S' r, x += S a, r -= A S a */
    for (int j = 0; j < CBCG_S; j++) y[j] = AS[j];
    y[CBCG_S] = r;
    CGram(P, C, CBCG_S, S, CBCG_S + 1, y, G);
    memcpy(Wf[cur], G, sizeof(Wf[cur]));
    if (!CChol(CBCG_S, Wf[cur])) {
      its = -1;
      break;
    }
    memcpy(g, G + CBCG_S * CBCG_S, sizeof(g));
    CCholSolve(CBCG_S, Wf[cur], 1, g);
    if (C->dev) HCALL(H.ops->ts_axpy((long)n, CBCG_S, (const double *const *)S, (const double *const *)AS, g, x, r, H.stream));
    else ppe_ts_axpy_rows(CBCG_S, (const double *const *)S, (const double *const *)AS, g, 0, (long)n, x, r);
    its += CBCG_S;
    haveold = 1;
    cur     = !cur;
  }
  if (C->dev) {
    HGet(hx, x, n);
    P->bytes += 8.0 * (double)n;
    HFree(b);
    HFree(x);
    HFree(r);
  } else free(r);
  return its;
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
         "%s, Chebyshev degree %d, rtol %.0e: device-resident %d iterations (> 1), true residual %.2e, %.3g MB host<->device; copying "
         "path %d iterations (within 1), %.2e, %.3g MB (residuals <= 2 rtol); solutions' relative difference %.2e (<= 1e3 rtol)",
         size, SOLVE_CHEB_ITS, SOLVE_RTOL, itd, resd, bdev / 1e6, itc, resc, bcopy / 1e6, dx);
  HCheck("solve pcg+chebyci", bdev <= 2.0 * 8.0 * (double)P.n + 8.0 * (2.0 + 3.0 * itd), "%s: the device-resident solve moves b in and x out and %d scalars (%.0f bytes), not a vector per iteration", size, 2 + 3 * itd, bdev);
  HTiming("pcg+chebyci device-resident", size, tdev, 0.0, "copying path", tcopy);
  {
    CBlocks Cd, Ch;
    double  tcd = 0.0, tcc = 0.0, bcd, bcc, rcd, rcc, dcx;
    int     icd = 0, icc = 0, blocks;

    CBlocksCreate(&P, &Cd, 1);
    CBlocksCreate(&P, &Ch, 0);
    HTIME(tcd, icd = SolveCBCG(&P, &W, &Cd, hb, xd));
    bcd = P.bytes;
    HTIME(tcc, icc = SolveCBCG(&P, &W, &Ch, hb, xc));
    bcc    = P.bytes;
    rcd    = TrueResidual(&P, &W, hb, xd);
    rcc    = TrueResidual(&P, &W, hb, xc);
    dcx    = HRelDiff(xd, xc, P.n);
    blocks = icd > 0 ? icd / CBCG_S : 0;
    HCheck("solve cbcg+chebyci", icd > 0 && abs(icc - icd) <= CBCG_S && rcd <= 2 * SOLVE_RTOL && rcc <= 2 * SOLVE_RTOL && dcx <= 1e3 * SOLVE_RTOL && icd <= itd + 2 * CBCG_S,
           "%s, s = %d, Chebyshev basis on [%.4g, %.4g], rtol %.0e: device-resident %d iterations (%d blocks; want > 0 and <= PCG's + 2 s), true residual %.2e, %.3g MB "
           "host<->device; copying path %d iterations (within s), %.2e, %.3g MB (residuals <= 2 rtol); solutions' relative difference %.2e (<= 1e3 rtol); PCG took %d",
           size, CBCG_S, Cd.lmin, Cd.lmax, SOLVE_RTOL, icd, blocks, rcd, bcd / 1e6, icc, rcc, bcc / 1e6, dcx, itd);
    HCheck("solve cbcg+chebyci", bcd <= 2.0 * 8.0 * (double)P.n + 8.0 * (blocks + 1) * (1.0 + 2.0 * CBCG_S * CBCG_S + CBCG_S),
           "%s: the device-resident solve moves b in, x out and per block the Gram scalars (%.0f bytes in all), not a vector per iteration; the copying path moves %.3g MB", size, bcd, bcc / 1e6);
    HTiming("cbcg+chebyci device-resident", size, tcd, 0.0, "copying path", tcc);
    CBlocksDestroy(&Cd);
    CBlocksDestroy(&Ch);
  }
  { /* what one staged application pays in copies alone: the vector in and out */
    double tpc = 0.0;
    HTIME(tpc, HPut(W.in, hb, P.n); HGet(xc, W.out, P.n));
    HTiming("host->device + device->host copy of a vector", size, tpc, 2.0 * 8.0 * (double)P.n, NULL, 0.0);
  }
  free(hb);
  free(xd);
  free(xc);
  WorkDestroy(&W);
  ProblemDestroy(&P);
}

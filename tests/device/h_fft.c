/*
   Device harness, family fft: the real transforms of PC fftptdma (src/kernels/fft.h, launched
   by src/backend/device/fft_dev.h: cuFFT on CUDA, FFTW in the emulation) and the one-rank
   device pipeline of fftptdma (src/fft/fftdevice.c: forward transforms along x and y, the
   tridiagonal solve along z with the eigenvalues of x and y on the diagonal, backward
   transforms), built from H.ops launchers only.

   Checks:
     fft_pre, fft_post   each launcher alone against a host loop calling ppe_fft_pre /
                         ppe_fft_post on the same input, every kind, along x and y, line
                         lengths 2 ... 97: the same bits in emulation; on a GPU the phases come
                         from the device's cos and sin (not glibc's), so there the check is
                         relative <= 1e-15 and the text says whether the bits agree.
     fft <KIND>          pre + the library's complex DFT + post, for each of the ten kinds,
                         against FFTW's defining sum of that kind evaluated in long double
                         (an O(n^2) matrix per line length), relative <= 1e-13.
     tridiag z           the z solve alone (Thomas with factors on the fly, natural layout of
                         the y-pencil, one lane per (x, y) line): the same bits as the host
                         body ppe_td_thomas_fly over the same lanes (tridiag.h promises it).
     fftptdma x=<BC>     the whole one-rank pipeline on a 3D separable Poisson problem for each
                         of the nine x boundary pairs (periodic, cell N-N/D-D/N-D/D-N, vertex
                         N-N/D-D/N-D/D-N) against every y pair and Dirichlet or Neumann z, on
                         16x12x10 (Neumann z) and 15x9x7 (Dirichlet z): against a host
                         reference (naive transforms and Thomas per line, long double),
                         relative <= 1e-12, and the residual of the 7-point operator,
                         max |A u - b| / max |b| <= 1e-11.

   Timing (256^3 and 512^3 on a GPU: the 512^3 pipeline holds about 5 GiB; 24x20x16 in
   emulation): the pipeline for periodic x and y and Neumann z (forward pre + DFT + post in x
   and y, z solve, backward), against "bare FFT", the four fft_exec calls of the same plans on
   the same buffer alone; fft_pre and fft_post alone; the z solve alone.

   What the pipeline leaves out of fftdevice.c: the transposes (one rank, so the x- and
   y-pencils are the array itself), the zero mean of a singular operator (every case here has
   a Dirichlet face or a shift sigma > 0), row scales and the distributed z solvers.
*/
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI_L 3.141592653589793238462643383279502884L

static const char *kind_name[PPE_FFT_NKINDS] = {"R2HC", "HC2R", "REDFT00", "REDFT01", "REDFT10", "REDFT11", "RODFT00", "RODFT01", "RODFT10", "RODFT11"};

/* cos and sin of pi num / den in long double, num reduced modulo 2 den first */
static long double CosPi(long num, long den)
{
  return cosl(PI_L * (long double)(num % (2 * den)) / (long double)den);
}

static long double SinPi(long num, long den)
{
  return sinl(PI_L * (long double)(num % (2 * den)) / (long double)den);
}

/* M[k n + j]: FFTW's real transform of kind q on n points (unnormalised, FFTW's manual,
   "What FFTW Really Computes"), output k from input j, as written there. */
static void RefMatrix(int q, long n, long double *M)
{
  for (long k = 0; k < n; k++)
    for (long j = 0; j < n; j++) {
      long double v = 0.0L, alt = (k % 2) ? -1.0L : 1.0L;
      switch (q) {
      case PPE_FFT_R2HC: /* halfcomplex: r_k at k <= n/2, i_k at n - k */
        v = 2 * k <= n ? CosPi(2 * j * k, n) : -SinPi(2 * j * (n - k), n);
        break;
      case PPE_FFT_HC2R: /* output k from the halfcomplex input j */
        if (j == 0) v = 1.0L;
        else if (2 * j == n) v = alt;
        else if (2 * j < n) v = 2.0L * CosPi(2 * j * k, n);
        else v = -2.0L * SinPi(2 * (n - j) * k, n);
        break;
      case PPE_FFT_REDFT00:
        v = j == 0 ? 1.0L : j == n - 1 ? alt : 2.0L * CosPi(j * k, n - 1);
        break;
      case PPE_FFT_REDFT01:
        v = j == 0 ? 1.0L : 2.0L * CosPi(j * (2 * k + 1), 2 * n);
        break;
      case PPE_FFT_REDFT10:
        v = 2.0L * CosPi((2 * j + 1) * k, 2 * n);
        break;
      case PPE_FFT_REDFT11:
        v = 2.0L * CosPi((2 * j + 1) * (2 * k + 1), 4 * n);
        break;
      case PPE_FFT_RODFT00:
        v = 2.0L * SinPi((j + 1) * (k + 1), n + 1);
        break;
      case PPE_FFT_RODFT01:
        v = j == n - 1 ? alt : 2.0L * SinPi((j + 1) * (2 * k + 1), 2 * n);
        break;
      case PPE_FFT_RODFT10:
        v = 2.0L * SinPi((2 * j + 1) * (k + 1), 2 * n);
        break;
      default: /* RODFT11 */
        v = 2.0L * SinPi((2 * j + 1) * (2 * k + 1), 4 * n);
        break;
      }
      M[k * n + j] = v;
    }
}

/* out = M in along direction d (0: x, 1: y) of a box of extents e, x fastest, each line
   through a long double copy (in and out may be the same array). */
static void ApplyLines(const long double *M, int d, const long e[3], long double *in, long double *out, long double *line)
{
  long n = e[d], inner = d ? e[0] : 1, outer = d ? e[2] : e[1] * e[2], nin = d ? e[0] : 1;

  for (long o = 0; o < outer; o++)
    for (long i = 0; i < nin; i++) {
      long base = i + o * inner * n;
      for (long j = 0; j < n; j++) line[j] = in[base + j * inner];
      for (long k = 0; k < n; k++) {
        long double s = 0.0L;
        for (long j = 0; j < n; j++) s += M[k * n + j] * line[j];
        out[base + k * inner] = s;
      }
    }
}

/* ---------------------------------------------------------------------------------------
   The launchers alone, and each kind's transform
   --------------------------------------------------------------------------------------- */

/* One kind q along d, lines of n points in a box {n, 6, 7} (d = 0) or {5, n, 7} (d = 1):
   fft_pre, fft_exec and fft_post on the device, each output fetched; host loops of the bodies
   on the device's own inputs; the whole against the long double sum. */
static void CheckKind(int q, int d, long n, int *pre_same, double *pre_rel, int *post_same, double *post_rel, double *rel)
{
  long          e[3] = {d ? 5 : n, d ? n : 6, 7}, np = e[0] * e[1] * e[2], lines = np / n;
  ppe_fft_lines F;
  double       *x, *y, *zh, *zr, *eh, *er, *yr, diff;
  long double  *M, *lx, *ly, *line;
  double       *dx, *dz, *de;
  void         *plan = NULL;
  size_t        nz;

  if (ppe_fft_setup(q, n, d ? e[0] : 1, lines, &F)) {
    HCheck("fft setup", 0, "ppe_fft_setup refused %s on %ld points", kind_name[q], n);
    return;
  }
  nz = (size_t)(2 * lines * F.L);
  x  = HMallocHost((size_t)np);
  y  = HMallocHost((size_t)np);
  yr = HMallocHost((size_t)np);
  zh = HMallocHost(nz);
  zr = HMallocHost(nz);
  eh = HMallocHost((size_t)(2 * lines));
  er = HMallocHost((size_t)(2 * lines));
  HFill(x, (size_t)np, -1.0, 1.0);
  dx = HUpload(x, (size_t)np);
  dz = HAlloc(nz);
  de = HAlloc((size_t)(2 * lines));
  HCALL(H.ops->fft_plan(F.L, lines, dz, &plan, H.stream));
  /* pre: device vs host body */
  HCALL(H.ops->fft_pre(&F, dx, dz, de, H.stream));
  HGet(zh, dz, nz);
  HGet(eh, de, (size_t)(2 * lines));
  for (long l = 0; l < lines; l++)
    for (long j = 0; j < F.L; j++) ppe_fft_pre(&F, x, l, j, zr, er);
  *pre_same = *pre_same && HBitwise(zh, zr, nz, &diff) && HBitwise(eh, er, (size_t)(2 * lines), &diff);
  *pre_rel  = fmax(*pre_rel, fmax(HRelDiff(zh, zr, nz), HRelDiff(eh, er, (size_t)(2 * lines))));
  /* the DFT, then post: device vs host body on the device's DFT */
  HCALL(H.ops->fft_exec(plan, dz, H.stream));
  HGet(zh, dz, nz);
  HCALL(H.ops->fft_post(&F, dz, de, dx, H.stream)); /* in place: y = x, as fftdevice.c */
  HGet(y, dx, (size_t)np);
  for (long l = 0; l < lines; l++)
    for (long k = 0; k < n; k++) ppe_fft_post(&F, zh, eh, l, k, yr);
  *post_same = *post_same && HBitwise(y, yr, (size_t)np, &diff);
  *post_rel  = fmax(*post_rel, HRelDiff(y, yr, (size_t)np));
  HCALL(H.ops->fft_destroy(plan));
  HFree(dx);
  HFree(dz);
  HFree(de);
  /* the defining sum */
  M = (long double *)malloc(sizeof(long double) * (size_t)(n * n + 2 * np + n));
  if (!M) {
    fprintf(stderr, "h_fft: no host memory\n");
    exit(2);
  }
  lx   = M + n * n;
  ly   = lx + np;
  line = ly + np;
  RefMatrix(q, n, M);
  for (long i = 0; i < np; i++) lx[i] = x[i];
  ApplyLines(M, d, e, lx, ly, line);
  for (long i = 0; i < np; i++) yr[i] = (double)ly[i];
  *rel = fmax(*rel, HRelDiff(y, yr, (size_t)np));
  free(M);
  free(x);
  free(y);
  free(yr);
  free(zh);
  free(zr);
  free(eh);
  free(er);
}

static void CheckTransforms(void)
{
  const long sizes[]  = {2, 3, 4, 5, 8, 13, 64, 97};
  const int  ns       = (int)(sizeof(sizes) / sizeof(sizes[0]));
  int        pre_same = 1, post_same = 1;
  double     pre_rel = 0.0, post_rel = 0.0;
  /* the GPU's cos and sin are not glibc's: a phase may differ by an ulp there */
  const double phase_tol = H.emu ? 0.0 : 1e-15;

  for (int q = 0; q < PPE_FFT_NKINDS; q++) {
    double rel = 0.0;
    for (int d = 0; d < 2; d++)
      for (int s = 0; s < ns; s++) CheckKind(q, d, sizes[s], &pre_same, &pre_rel, &post_same, &post_rel, &rel);
    HCheck("fft", rel <= 1e-13, "%s: pre + fft_exec + post vs FFTW's defining sum in long double, along x of {n,6,7} and y of {5,n,7}, n = 2 3 4 5 8 13 64 97: max relative difference %.2e", kind_name[q], rel);
  }
  HCheck("fft_pre", H.emu ? pre_same : pre_rel <= phase_tol, "every kind, x and y, n = 2 ... 97: device vs host ppe_fft_pre (complex buffer and ends): %s, max relative difference %.2e", pre_same ? "same bits" : "bits differ", pre_rel);
  HCheck("fft_post", H.emu ? post_same : post_rel <= phase_tol, "every kind, x and y, n = 2 ... 97: device vs host ppe_fft_post on the device's DFT: %s, max relative difference %.2e", post_same ? "same bits" : "bits differ", post_rel);
}

/* ---------------------------------------------------------------------------------------
   The one-rank fftptdma pipeline
   --------------------------------------------------------------------------------------- */

/* The boundary pairs of a direction (fft1d.c's table): forward and backward kinds, the
   normalisation backward(forward(x)) = norm x, and K, the unit second difference. */
typedef struct {
  const char *name;
  int         per, cell, lo_d, hi_d; /* periodic; cell (else vertex); Dirichlet at lo, hi */
  int         fwd, bwd;
} BCPair;

static const BCPair pairs[9] = {
  {"periodic",   1, 1, 0, 0, PPE_FFT_R2HC,    PPE_FFT_HC2R   },
  {"cell N-N",   0, 1, 0, 0, PPE_FFT_REDFT10, PPE_FFT_REDFT01},
  {"cell D-D",   0, 1, 1, 1, PPE_FFT_RODFT10, PPE_FFT_RODFT01},
  {"cell N-D",   0, 1, 0, 1, PPE_FFT_REDFT11, PPE_FFT_REDFT11},
  {"cell D-N",   0, 1, 1, 0, PPE_FFT_RODFT11, PPE_FFT_RODFT11},
  {"vertex N-N", 0, 0, 0, 0, PPE_FFT_REDFT00, PPE_FFT_REDFT00},
  {"vertex D-D", 0, 0, 1, 1, PPE_FFT_RODFT00, PPE_FFT_RODFT00},
  {"vertex N-D", 0, 0, 0, 1, PPE_FFT_REDFT01, PPE_FFT_REDFT10},
  {"vertex D-N", 0, 0, 1, 0, PPE_FFT_RODFT01, PPE_FFT_RODFT10},
};

static double PairNorm(const BCPair *p, long n)
{
  if (p->per) return (double)n;
  if (!p->cell && !p->lo_d && !p->hi_d) return 2.0 * (double)(n - 1);
  if (!p->cell && p->lo_d && p->hi_d) return 2.0 * (double)(n + 1);
  return 2.0 * (double)n;
}

/* Eigenvalue of K in output slot k of the forward transform: 4 sin^2(pi m / (2 M)) with the
   wavenumber m and period M of the pair's eigenvectors (fft1d.c's table). */
static double PairEig(const BCPair *p, long k, long n)
{
  long double t;

  if (p->per) t = PI_L * (long double)k / (long double)n; /* slot k > n/2: wavenumber n - k, same value */
  else if (p->lo_d != p->hi_d) t = PI_L * (long double)(2 * k + 1) / (long double)(4 * n);
  else if (p->cell) t = PI_L * (long double)(p->lo_d ? k + 1 : k) / (long double)(2 * n);
  else if (p->lo_d) t = PI_L * (long double)(k + 1) / (long double)(2 * (n + 1));
  else t = PI_L * (long double)k / (long double)(2 * (n - 1));
  return (double)(4.0L * sinl(t) * sinl(t));
}

/* Row i of K on n points: the diagonal and the weights of the left and right neighbours
   (periodic: wrapped). Cell pairs put the boundary half a cell out (ghost = +-u), vertex
   pairs on the first/last point (Neumann: mirror ghost) or one point out (Dirichlet). */
static void PairRow(const BCPair *p, long n, long i, double *diag, double *wl, double *wr)
{
  *diag = 2.0;
  *wl   = -1.0;
  *wr   = -1.0;
  if (p->per) return;
  if (i == 0) {
    *wl = 0.0;
    if (p->cell) *diag = p->lo_d ? 3.0 : 1.0;
    else if (!p->lo_d) *wr = -2.0;
  }
  if (i == n - 1) {
    *wr = 0.0;
    if (p->cell) *diag = p->hi_d ? 3.0 : 1.0;
    else if (!p->hi_d) *wl = -2.0;
  }
}

/* The device data of the pipeline on an (nx, ny, nz) box. */
typedef struct {
  long          n[3], N;
  ppe_fft_lines F[2][2]; /* [direction][forward, backward] */
  void         *plan[2];
  double       *u, *z, *ends;
  double       *a, *e, *c, *w, *shift, *mask, *s, *t; /* z solve: coefficients, scratch */
  PPETdArgs     args;
  ppe_td_lanes  R;
  /* host copies of the z coefficients (reference) */
  double *ha, *hb, *hc, *hshift;
} Pipe;

static void PipeCreate(Pipe *P, const BCPair *px, const BCPair *py, const BCPair *pz, const long n[3], const double cf[3], double sigma)
{
  long   nx = n[0], ny = n[1], nz = n[2], nl = nx * ny;
  double S = PairNorm(px, nx) * PairNorm(py, ny), one = 1.0, *he, *hw;
  size_t ncx, ncy;

  memset(P, 0, sizeof(*P));
  memcpy(P->n, n, sizeof(P->n));
  P->N = nx * ny * nz;
  /* the x lines are contiguous; the y lines have stride nx (fftdevice.c's pencils, P1 = 1) */
  if (ppe_fft_setup(px->fwd, nx, 1, ny * nz, &P->F[0][0]) || ppe_fft_setup(px->bwd, nx, 1, ny * nz, &P->F[0][1]) || ppe_fft_setup(py->fwd, ny, nx, nx * nz, &P->F[1][0]) || ppe_fft_setup(py->bwd, ny, nx, nx * nz, &P->F[1][1]) ||
      P->F[0][0].L != P->F[0][1].L || P->F[1][0].L != P->F[1][1].L) {
    fprintf(stderr, "h_fft: ppe_fft_setup refused a pipeline transform\n");
    exit(2);
  }
  ncx     = (size_t)(2 * P->F[0][0].lines * P->F[0][0].L);
  ncy     = (size_t)(2 * P->F[1][0].lines * P->F[1][0].L);
  P->u    = HAlloc((size_t)P->N);
  P->z    = HAlloc(ncx > ncy ? ncx : ncy);
  P->ends = HAlloc((size_t)(2 * (nx * nz > ny * nz ? nx * nz : ny * nz)));
  for (int d = 0; d < 2; d++) HCALL(H.ops->fft_plan(P->F[d][0].L, P->F[d][0].lines, P->z, &P->plan[d], H.stream));
  /* z systems S (cz Kz + lambda_x + lambda_y + sigma) (fftsetup.c's SetUpZ): shared
     coefficients, the diagonal as its row excess e = b + a + c (exact: small integers times
     S cz) plus the per-line shift, weight 1 */
  P->ha     = HMallocHost((size_t)nz);
  P->hb     = HMallocHost((size_t)nz);
  P->hc     = HMallocHost((size_t)nz);
  P->hshift = HMallocHost((size_t)nl);
  he        = HMallocHost((size_t)nz);
  hw        = HMallocHost((size_t)nz);
  for (long k = 0; k < nz; k++) {
    double dg, wl, wr;
    PairRow(pz, nz, k, &dg, &wl, &wr);
    P->ha[k] = S * cf[2] * wl;
    P->hb[k] = S * cf[2] * dg;
    P->hc[k] = S * cf[2] * wr;
    he[k]    = S * cf[2] * (dg + wl + wr);
    hw[k]    = 1.0;
  }
  {
    double *lx = HMallocHost((size_t)nx), *ly = HMallocHost((size_t)ny);
    for (long i = 0; i < nx; i++) lx[i] = cf[0] * PairEig(px, i, nx);
    for (long j = 0; j < ny; j++) ly[j] = cf[1] * PairEig(py, j, ny);
    for (long j = 0; j < ny; j++)
      for (long i = 0; i < nx; i++) P->hshift[i + nx * j] = S * (lx[i] + ly[j] + sigma);
    free(lx);
    free(ly);
  }
  P->a     = HUpload(P->ha, (size_t)nz);
  P->e     = HUpload(he, (size_t)nz);
  P->c     = HUpload(P->hc, (size_t)nz);
  P->w     = HUpload(hw, (size_t)nz);
  P->shift = HUpload(P->hshift, (size_t)nl);
  P->mask  = HUpload(&one, 1);
  P->s     = HAlloc((size_t)P->N);
  P->t     = HAlloc((size_t)P->N);
  HSync(); /* he, hw and one are freed or leave scope */
  free(he);
  free(hw);
  /* views: one group, lane l = line i + nx j, row k at stride nx ny (the y-pencil in place) */
  memset(&P->args, 0, sizeof(P->args));
  {
    ppe_td_carr sh = {NULL, 0, 1, 0}, ln = {NULL, 0, 0, 1}, all = {NULL, 0, 0, 0};
    ppe_td_arr  dv  = {NULL, 0, nl, 1};
    P->args.a       = sh;
    P->args.a.v     = P->a;
    P->args.e       = sh;
    P->args.e.v     = P->e;
    P->args.c       = sh;
    P->args.c.v     = P->c;
    P->args.w       = sh;
    P->args.w.v     = P->w;
    P->args.shift   = ln;
    P->args.shift.v = P->shift;
    P->args.mask    = all;
    P->args.mask.v  = P->mask;
    P->args.d       = dv;
    P->args.d.v     = P->u;
    P->args.s       = dv;
    P->args.s.v     = P->s;
    P->args.t       = dv;
    P->args.t.v     = P->t;
  }
  P->R.g0 = 0;
  P->R.g1 = 1;
  P->R.l0 = 0;
  P->R.l1 = (int)nl;
}

static void PipeDestroy(Pipe *P)
{
  for (int d = 0; d < 2; d++) HCALL(H.ops->fft_destroy(P->plan[d]));
  HFree(P->u);
  HFree(P->z);
  HFree(P->ends);
  HFree(P->a);
  HFree(P->e);
  HFree(P->c);
  HFree(P->w);
  HFree(P->shift);
  HFree(P->mask);
  HFree(P->s);
  HFree(P->t);
  free(P->ha);
  free(P->hb);
  free(P->hc);
  free(P->hshift);
}

/* Transform s (0 forward, 1 backward) along d, in place on u (fftdevice.c's Transform). */
static void PipeTransform(Pipe *P, int d, int s)
{
  HCALL(H.ops->fft_pre(&P->F[d][s], P->u, P->z, P->ends, H.stream));
  HCALL(H.ops->fft_exec(P->plan[d], P->z, H.stream));
  HCALL(H.ops->fft_post(&P->F[d][s], P->z, P->ends, P->u, H.stream));
}

static void PipeZSolve(Pipe *P)
{
  HCALL(H.ops->tridiag(PPE_TD_K_THOMAS, 1, P->R, P->n[2], &P->args, H.stream));
}

/* u = the solution for the right-hand side in u (asynchronous). */
static void PipeSolve(Pipe *P)
{
  PipeTransform(P, 0, 0);
  PipeTransform(P, 1, 0);
  PipeZSolve(P);
  PipeTransform(P, 1, 1);
  PipeTransform(P, 0, 1);
}

/* The bare DFTs of the pipeline: the same plans on the same buffer. */
static void PipeBare(Pipe *P)
{
  HCALL(H.ops->fft_exec(P->plan[0], P->z, H.stream));
  HCALL(H.ops->fft_exec(P->plan[1], P->z, H.stream));
  HCALL(H.ops->fft_exec(P->plan[1], P->z, H.stream));
  HCALL(H.ops->fft_exec(P->plan[0], P->z, H.stream));
}

/* The host reference of the pipeline in long double: naive transforms, Thomas per (x, y)
   line on the same systems, backward transforms. */
static void RefSolve(const Pipe *P, const BCPair *px, const BCPair *py, const double *b, double *uref)
{
  long         nx = P->n[0], ny = P->n[1], nz = P->n[2], N = P->N, mx = nx > ny ? nx : ny;
  long double *v = (long double *)malloc(sizeof(long double) * (size_t)(N + 2 * mx * mx + mx + 2 * nz));
  long double *M1, *M2, *line, *cp, *dp;

  if (!v) {
    fprintf(stderr, "h_fft: no host memory\n");
    exit(2);
  }
  M1   = v + N;
  M2   = M1 + mx * mx;
  line = M2 + mx * mx;
  cp   = line + mx;
  dp   = cp + nz;
  for (long i = 0; i < N; i++) v[i] = b[i];
  RefMatrix(px->fwd, nx, M1);
  ApplyLines(M1, 0, P->n, v, v, line);
  RefMatrix(py->fwd, ny, M2);
  ApplyLines(M2, 1, P->n, v, v, line);
  for (long l = 0; l < nx * ny; l++) { /* Thomas: A_k u_{k-1} + (B_k + shift) u_k + C_k u_{k+1} = d_k */
    long double den;
    for (long k = 0; k < nz; k++) {
      long double bk = (long double)P->hb[k] + (long double)P->hshift[l], ak = k ? P->ha[k] : 0.0L;
      den   = bk - (k ? ak * cp[k - 1] : 0.0L);
      cp[k] = (long double)P->hc[k] / den;
      dp[k] = (v[l + k * nx * ny] - (k ? ak * dp[k - 1] : 0.0L)) / den;
    }
    for (long k = nz - 1; k >= 0; k--) v[l + k * nx * ny] = dp[k] - (k < nz - 1 ? cp[k] * v[l + (k + 1) * nx * ny] : 0.0L);
  }
  RefMatrix(py->bwd, ny, M2);
  ApplyLines(M2, 1, P->n, v, v, line);
  RefMatrix(px->bwd, nx, M1);
  ApplyLines(M1, 0, P->n, v, v, line);
  for (long i = 0; i < N; i++) uref[i] = (double)v[i];
  free(v);
}

/* max |A u - b| / max |b|, A = cx Kx + cy Ky + cz Kz + sigma (the 7-point operator). */
static double Residual(const BCPair *const p[3], const long n[3], const double cf[3], double sigma, const double *u, const double *b)
{
  long        st[3] = {1, n[0], n[0] * n[1]};
  long double rmax = 0.0L, bmax = 0.0L;

  for (long k = 0; k < n[2]; k++)
    for (long j = 0; j < n[1]; j++)
      for (long i = 0; i < n[0]; i++) {
        long        id[3] = {i, j, k}, o = i + st[1] * j + st[2] * k;
        long double r = (long double)sigma * u[o] - b[o];
        for (int d = 0; d < 3; d++) {
          double dg, wl, wr;
          long   im = id[d] ? id[d] - 1 : n[d] - 1, ip = id[d] < n[d] - 1 ? id[d] + 1 : 0;
          PairRow(p[d], n[d], id[d], &dg, &wl, &wr);
          r += (long double)cf[d] * (dg * (long double)u[o] + (wl != 0.0 ? wl * (long double)u[o + (im - id[d]) * st[d]] : 0.0L) + (wr != 0.0 ? wr * (long double)u[o + (ip - id[d]) * st[d]] : 0.0L));
        }
        if (fabsl(r) > rmax) rmax = fabsl(r);
        if (fabsl((long double)b[o]) > bmax) bmax = fabsl((long double)b[o]);
      }
  return (double)(rmax / bmax);
}

static void CheckPipeline(void)
{
  const double cf[3]    = {1.0, 1.3, 0.7};
  const BCPair zpair[2] = {
    {"Neumann z",   0, 1, 0, 0, 0, 0},
    {"Dirichlet z", 0, 1, 1, 1, 0, 0},
  };

  for (int qx = 0; qx < 9; qx++) {
    double worst = 0.0, wres = 0.0;
    for (int qy = 0; qy < 9; qy++)
      for (int zb = 0; zb < 2; zb++) {
        /* even shapes with Neumann z (shift 0.5: the all-Neumann/periodic operator is
           singular), odd shapes with Dirichlet z (no shift) */
        const long    n[3]  = {zb ? 15 : 16, zb ? 9 : 12, zb ? 7 : 10};
        const BCPair *p[3]  = {&pairs[qx], &pairs[qy], &zpair[zb]};
        double        sigma = zb ? 0.0 : 0.5, *b, *u, *ur, rel, res;
        Pipe          P;

        PipeCreate(&P, p[0], p[1], p[2], n, cf, sigma);
        b  = HMallocHost((size_t)P.N);
        u  = HMallocHost((size_t)P.N);
        ur = HMallocHost((size_t)P.N);
        HFill(b, (size_t)P.N, -1.0, 1.0);
        HPut(P.u, b, (size_t)P.N);
        PipeSolve(&P);
        HGet(u, P.u, (size_t)P.N);
        RefSolve(&P, p[0], p[1], b, ur);
        rel   = HRelDiff(u, ur, (size_t)P.N);
        res   = Residual(p, n, cf, sigma, u, b);
        worst = rel > worst || isnan(rel) ? rel : worst;
        wres  = res > wres || isnan(res) ? res : wres;
        PipeDestroy(&P);
        free(b);
        free(u);
        free(ur);
      }
    HCheck("fftptdma pipeline", worst <= 1e-12 && wres <= 1e-11,
           "x %s, every y pair, Neumann z on 16x12x10 and Dirichlet z on 15x9x7: device (pre, fft_exec, post in x and y, tridiag thomas fly in z, "
           "backward) vs long double naive transforms + Thomas: max relative difference %.2e (<= 1e-12); residual max|Au-b|/max|b| %.2e (<= 1e-11)",
           pairs[qx].name, worst, wres);
  }
}

/* The z solve alone: device vs the host body over the same lanes, same bits. */
static void CheckZSolve(void)
{
  const double cf[3]    = {1.0, 1.0, 0.9};
  const BCPair zpair[2] = {
    {"Neumann z",   0, 1, 0, 0, 0, 0},
    {"Dirichlet z", 0, 1, 1, 1, 0, 0},
  };
  int    same = 1;
  double diff = 0.0;

  for (int zb = 0; zb < 2; zb++) {
    const long n[3] = {37, 29, zb ? 11 : 2}; /* 1073 lanes; 2 rows: the shortest line */
    Pipe       P;
    double    *d, *dh, *hs, *ht, *he, *hw, one = 1.0, dd;
    int        bit;
    PPETdArgs  x;

    PipeCreate(&P, &pairs[0], &pairs[2], &zpair[zb], n, cf, 0.25);
    d  = HMallocHost((size_t)P.N);
    dh = HMallocHost((size_t)P.N);
    hs = HMallocHost((size_t)P.N);
    ht = HMallocHost((size_t)P.N);
    he = HMallocHost((size_t)n[2]);
    hw = HMallocHost((size_t)n[2]);
    HFill(d, (size_t)P.N, -1.0, 1.0);
    HPut(P.u, d, (size_t)P.N);
    PipeZSolve(&P);
    HGet(dh, P.u, (size_t)P.N);
    HGet(he, P.e, (size_t)n[2]);
    HGet(hw, P.w, (size_t)n[2]);
    /* the host body on host copies of the same views */
    x         = P.args;
    x.a.v     = P.ha;
    x.e.v     = he;
    x.c.v     = P.hc;
    x.w.v     = hw;
    x.shift.v = P.hshift;
    x.mask.v  = &one;
    x.d.v     = d;
    x.s.v     = hs;
    x.t.v     = ht;
    ppe_td_thomas_fly(P.R, n[2], ppe_td_args_coefs(&x), x.s, x.t, x.d);
    bit  = HBitwise(dh, d, (size_t)P.N, &dd);
    same = same && bit;
    diff = fmax(diff, dd);
    PipeDestroy(&P);
    free(d);
    free(dh);
    free(hs);
    free(ht);
    free(he);
    free(hw);
  }
  HCheck("tridiag z (fftptdma)", same, "Thomas on the fly along z of the natural layout, 37x29 lanes, Neumann z 2 rows and Dirichlet z 11 rows, shifts of x and y eigenvalues: device vs host ppe_td_thomas_fly, same bits: %s, max difference %.2e",
         same ? "yes" : "no", diff);
}

/* ---------------------------------------------------------------------------------------
   Timing
   --------------------------------------------------------------------------------------- */

static void TimePipeline(const long n[3])
{
  const double cf[3] = {1.0, 1.0, 1.0};
  const BCPair zn    = {"Neumann z", 0, 1, 0, 0, 0, 0};
  char         size[40];
  double      *h, t_pipe, t_bare, t_pre, t_post, t_z;
  double       N, nc, ne, bpre, bpost, bexec, bz;
  Pipe         P;

  snprintf(size, sizeof(size), "%ldx%ldx%ld", n[0], n[1], n[2]);
  /* shift 1: repeated solves stay finite (each shrinks the data) */
  PipeCreate(&P, &pairs[0], &pairs[0], &zn, n, cf, 1.0);
  h = HMallocHost((size_t)P.N);
  HFill(h, (size_t)P.N, -1.0, 1.0);
  HPut(P.u, h, (size_t)P.N);
  HSync();
  free(h);
  N  = (double)P.N;
  nc = 2.0 * (double)P.F[0][0].lines * (double)P.F[0][0].L; /* doubles of the complex buffer (x) */
  ne = 2.0 * (double)P.F[0][0].lines;
  /* minimum bytes: pre reads x, writes the complex buffer and the ends; post reads the buffer
     and the ends, writes y; one pass of a DFT reads and writes the buffer; the z solve reads
     and writes the data once (the fly kernel's scratch s, t is extra traffic, not counted) */
  bpre  = 8.0 * (N + nc + ne);
  bpost = 8.0 * (nc + ne + N);
  bexec = 8.0 * 2.0 * nc;
  bz    = 8.0 * 2.0 * N;
  HTIME(t_pipe, PipeSolve(&P));
  HTIME(t_bare, PipeBare(&P));
  HTiming("fftptdma pipeline (per)", size, t_pipe, 4.0 * (bpre + bexec + bpost) + bz, "bare FFT", t_bare);
  HTIME(t_pre, HCALL(H.ops->fft_pre(&P.F[0][0], P.u, P.z, P.ends, H.stream)));
  HTiming("fft_pre R2HC x", size, t_pre, bpre, NULL, 0.0);
  HTIME(t_post, HCALL(H.ops->fft_post(&P.F[0][0], P.z, P.ends, P.u, H.stream)));
  HTiming("fft_post R2HC x", size, t_post, bpost, NULL, 0.0);
  HTIME(t_z, PipeZSolve(&P));
  HTiming("tridiag z fly (fftptdma)", size, t_z, bz, NULL, 0.0);
  PipeDestroy(&P);
}

void HFamily_fft(void)
{
  CheckTransforms();
  CheckZSolve();
  CheckPipeline();
  if (H.emu) {
    const long n[3] = {24, 20, 16};
    TimePipeline(n);
  } else {
    const long n1[3] = {256, 256, 256}, n2[3] = {512, 512, 512};
    TimePipeline(n1);
    TimePipeline(n2);
  }
}

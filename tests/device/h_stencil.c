/*
   Harness family "stencil": the launchers of the matrix-free 7-point operator and of the
   Krylov vector kernels (src/backend/device/stencil_dev.h, krylov_dev.h):

     stencil     y = A x on a rank's box (constant and variable coefficients), in one launch (ALL) and split into the points that
                 need no halo value (CORE) and the others (SURFACE), as the overlapped MatMult
                 runs it, and with the Chebyshev step fused (PC chebyci's sweep);
     dot         one or two local dot products, reduced in the device's fixed order;
     ci_*        the Chebyshev iteration's vector steps (Pennati et al. 2025, Algorithms 2, 4);
     bcgs_*      the fused Bi-CGSTAB updates (Pennati et al. 2025, Algorithm 3).

   The reference of each is a plain host loop over the same single-source body of src/kernels
   (ppe_s7_apply, ppe_s7_var_apply, ppe_ci_point, ppe_dot_seg, ppe_s7_row_dot, ppe_bcgs_*). The documentation promises the
   host's bits for every element-wise result, so those checks are bitwise. The reductions sum
   fixed chunks and then a tree of fixed shape: the reference redoes that order on the host,
   so they are bitwise too, and also within 1e-13 of a long double sum.

   The stencil's boxes are sub-boxes of a global grid with halo faces taken from the global
   array (periodic wrap or the neighbour rank's values), so that every branch of the thread
   (physical end, halo, box interior) runs; x's tables are uniform inside the domain, as the
   launcher assumes. Timed at 256^3 and 512^3 on a GPU (arrays of 128 MiB and 1 GiB, well
   beyond its caches), 24^3 in emulation.

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

/* Largest relative difference of a reduction to its long double sum. */
#define STENCIL_RED_TOL 1e-13

/* ------------------------------------------------------------------ the 1D tables */

/* The tables of one direction of n points, on the host and on the device. uniform: every
   inner point has the same values (x must be, the launcher uses the coefficients of i = 1);
   per: periodic (no end has a zero coupling). */
typedef struct {
  long    n;
  double *h[4]; /* w, tlo, thi, d */
  double *d[4];
} Dir;

static void DirCreate(Dir *D, long n, int uniform, int per)
{
  D->n = n;
  for (int a = 0; a < 4; a++) D->h[a] = HMallocHost((size_t)n);
  for (long i = 0; i < n; i++) {
    long src = uniform && i > 0 && i < n - 1 ? 1 : i;
    if (src != i) {
      for (int a = 0; a < 4; a++) D->h[a][i] = D->h[a][src];
      continue;
    }
    D->h[0][i] = HUniform(0.5, 1.5);
    D->h[1][i] = HUniform(0.5, 2.0);
    D->h[2][i] = HUniform(0.5, 2.0);
    D->h[3][i] = D->h[1][i] + D->h[2][i] + HUniform(0.0, 0.5);
  }
  if (uniform && per) {
    for (long i = 0; i < n; i++)
      for (int a = 0; a < 4; a++) D->h[a][i] = D->h[a][n > 1 ? 1 : 0];
  }
  if (!per) {
    D->h[1][0]     = 0.0;
    D->h[2][n - 1] = 0.0;
  }
  for (int a = 0; a < 4; a++) D->d[a] = HUpload(D->h[a], (size_t)n);
}

static void DirDestroy(Dir *D)
{
  for (int a = 0; a < 4; a++) {
    free(D->h[a]);
    HFree(D->d[a]);
  }
}

static ppe_s7_dir DirView(const Dir *D, int dev)
{
  ppe_s7_dir v;
  double   **p = dev ? (double **)D->d : (double **)D->h;

  v.w   = p[0];
  v.tlo = p[1];
  v.thi = p[2];
  v.d   = p[3];
  return v;
}

/* ------------------------------------------------------------------ the stencil */

/* A box of a global grid and the global array it is cut from. */
typedef struct {
  long    N[3], s[3], m[3];
  int     per[3];
  double  sigma;
  Dir     dir[3];
  double *u;        /* global array, N[0] N[1] N[2] */
  double *x;        /* the box's values */
  double *face[6];  /* host halo faces (NULL where no neighbour) */
  double *dface[6]; /* their device copies */
  long    nface[6];
  int     nb[6];
  int     var;   /* variable coefficients: the face arrays below (ppe_s7_faces) */
  double *K[3];  /* their host copies, random in [0.5, 2] */
  double *dK[3]; /* their device copies */
} Box;

static long GIdx(const Box *b, long i, long j, long k)
{
  return (k * b->N[1] + j) * b->N[0] + i;
}

/* Global value at (i, j, k) where an index may be one outside (periodic wrap). */
static double GVal(const Box *b, long i, long j, long k)
{
  long g[3] = {i, j, k};

  for (int d = 0; d < 3; d++) g[d] = (g[d] + b->N[d]) % b->N[d];
  return b->u[GIdx(b, g[0], g[1], g[2])];
}

static void BoxCreate(Box *b, const long N[3], const long s[3], const long m[3], const int per[3], double sigma, int var)
{
  size_t ng = (size_t)N[0] * (size_t)N[1] * (size_t)N[2], nl = (size_t)m[0] * (size_t)m[1] * (size_t)m[2];

  memset(b, 0, sizeof(*b));
  for (int d = 0; d < 3; d++) {
    b->N[d]   = N[d];
    b->s[d]   = s[d];
    b->m[d]   = m[d];
    b->per[d] = per[d];
    DirCreate(&b->dir[d], N[d], d == 0, per[d]);
  }
  b->sigma = sigma;
  b->u     = HMallocHost(ng);
  HFill(b->u, ng, -1.0, 1.0);
  b->x = HMallocHost(nl);
  for (long k = 0; k < m[2]; k++)
    for (long j = 0; j < m[1]; j++)
      for (long i = 0; i < m[0]; i++) b->x[(k * m[1] + j) * m[0] + i] = b->u[GIdx(b, s[0] + i, s[1] + j, s[2] + k)];
  /* faces: a neighbour across a face exists inside the domain or by periodic wrap */
  for (int f = 0; f < 6; f++) {
    int  d = f / 2, hi = f % 2, d1 = d == 0 ? 1 : 0, d2 = d == 2 ? 1 : 2;
    long at = hi ? s[d] + m[d] : s[d] - 1;

    b->nb[f] = per[d] || (at >= 0 && at < N[d]);
    if (!b->nb[f]) continue;
    b->nface[f] = m[d1] * m[d2];
    b->face[f]  = HMallocHost((size_t)b->nface[f]);
    /* layouts of the launcher: x faces [k][j], y faces [k][i], z faces [j][i] */
    for (long q = 0; q < m[d2]; q++)
      for (long p = 0; p < m[d1]; p++) {
        long g[3];
        g[d]                      = at;
        g[d1]                     = s[d1] + p;
        g[d2]                     = s[d2] + q;
        b->face[f][q * m[d1] + p] = GVal(b, g[0], g[1], g[2]);
      }
    b->dface[f] = HUpload(b->face[f], (size_t)b->nface[f]);
  }
  b->var = var;
  for (int d = 0; var && d < 3; d++) {
    size_t nk = (size_t)(m[0] + (d == 0)) * (size_t)(m[1] + (d == 1)) * (size_t)(m[2] + (d == 2));
    b->K[d]   = HMallocHost(nk);
    HFill(b->K[d], nk, 0.5, 2.0);
    b->dK[d] = HUpload(b->K[d], nk);
  }
}

static void BoxDestroy(Box *b)
{
  for (int d = 0; d < 3; d++) DirDestroy(&b->dir[d]);
  for (int f = 0; f < 6; f++)
    if (b->nb[f]) {
      free(b->face[f]);
      HFree(b->dface[f]);
    }
  for (int d = 0; b->var && d < 3; d++) {
    free(b->K[d]);
    HFree(b->dK[d]);
  }
  free(b->u);
  free(b->x);
}

static ppe_dev_box DevBox(const Box *b, int dev)
{
  ppe_dev_box B;

  memset(&B, 0, sizeof(B));
  B.X     = DirView(&b->dir[0], dev);
  B.Y     = DirView(&b->dir[1], dev);
  B.Z     = DirView(&b->dir[2], dev);
  B.sigma = b->sigma;
  for (int d = 0; d < 3; d++) {
    B.N[d]   = b->N[d];
    B.per[d] = b->per[d];
  }
  B.xs = b->s[0];
  B.ys = b->s[1];
  B.zs = b->s[2];
  B.xm = b->m[0];
  B.ym = b->m[1];
  B.zm = b->m[2];
  for (int f = 0; f < 6; f++) B.nb[f] = b->nb[f];
  if (b->var) B.K = dev ? (ppe_s7_faces){b->dK[0], b->dK[1], b->dK[2]} : (ppe_s7_faces){b->K[0], b->K[1], b->K[2]};
  return B;
}

/* The reference: every point of the box with its own coefficients and its neighbours read
   from the global array (or the centre, where the domain ends); is_surface[t] marks the
   points that read a halo value. With ci, the fused Chebyshev step. */
static void StencilRef(const Box *b, const ppe_dev_ci *ci, double *y, char *is_surface)
{
  ppe_s7_dir X = DirView(&b->dir[0], 0), Y = DirView(&b->dir[1], 0), Z = DirView(&b->dir[2], 0);
  long       t = 0;

  for (long kk = 0; kk < b->m[2]; kk++)
    for (long jj = 0; jj < b->m[1]; jj++)
      for (long ii = 0; ii < b->m[0]; ii++, t++) {
        long        g[3] = {b->s[0] + ii, b->s[1] + jj, b->s[2] + kk}, l[3] = {ii, jj, kk};
        double      uc   = b->x[t], nbv[6];
        int         surf = 0;
        ppe_s7_coef c    = ppe_s7_point_coef(X, Y, Z, b->sigma, g[0], g[1], g[2]);
        double      v;
        int         e[6];

        for (int f = 0; f < 6; f++) {
          int  d = f / 2, step = f % 2 ? 1 : -1;
          long at    = g[d] + step;
          int  inbox = l[d] + step >= 0 && l[d] + step < b->m[d];

          if (!inbox && b->nb[f]) surf = 1;
          e[f] = inbox || b->nb[f];
          if (!b->per[d] && (at < 0 || at >= b->N[d])) nbv[f] = uc;
          else {
            long h[3] = {g[0], g[1], g[2]};
            h[d]      = at;
            nbv[f]    = GVal(b, h[0], h[1], h[2]);
          }
        }
        if (b->var) { /* the flux form of the point's faces */
          ppe_s7_faces F = {b->K[0], b->K[1], b->K[2]};
          v              = ppe_s7_box_var_apply(&F, b->m[0], b->m[1], ii, jj, kk, ppe_s7_shift(X, Y, Z, b->sigma, g[0], g[1], g[2]), e, uc, nbv[0], nbv[1], nbv[2], nbv[3], nbv[4], nbv[5]);
        } else v = ppe_s7_apply(&c, uc, nbv[0], nbv[1], nbv[2], nbv[3], nbv[4], nbv[5]);
        if (ci) v = ppe_ci_point(ci->rho, ci->rho_old, ci->s2, ci->d2, ci->dinv ? ci->dinv[t] : 1.0, ci->b[t], v, uc, ci->z[t]);
        y[t] = v;
        if (is_surface) is_surface[t] = (char)surf;
      }
}

static void CheckStencilCase(const char *name0, const long N[3], const long s[3], const long m[3], const int per[3], double sigma, int var)
{
  Box          b;
  size_t       n   = (size_t)m[0] * (size_t)m[1] * (size_t)m[2];
  double      *ref = HMallocHost(n), *got = HMallocHost(n), *got2 = HMallocHost(n), *nan = HMallocHost(n);
  double      *dx, *dy, diff = 0.0, diff2 = 0.0;
  char        *surf = (char *)calloc(n, 1);
  ppe_dev_box  B;
  ppe_dev_halo Hf;
  int          same, same2, phases_ok = 1;
  long         nsurf = 0;
  char         size[64];

  char name[96];

  snprintf(name, sizeof(name), "%s%s", name0, var ? ", variable coefficients" : "");
  BoxCreate(&b, N, s, m, per, sigma, var);
  B = DevBox(&b, 1);
  for (int f = 0; f < 6; f++) Hf.f[f] = b.nb[f] ? b.dface[f] : NULL;
  snprintf(size, sizeof(size), "box %ldx%ldx%ld of %ldx%ldx%ld", m[0], m[1], m[2], N[0], N[1], N[2]);
  StencilRef(&b, NULL, ref, surf);
  for (size_t t = 0; t < n; t++) {
    nan[t] = NAN;
    nsurf += surf[t];
  }
  dx = HUpload(b.x, n);
  dy = HUpload(nan, n);
  /* one launch of every point */
  HCALL(H.ops->stencil(&B, dx, &Hf, dy, PPE_DEV_ALL, NULL, H.stream));
  HGet(got, dy, n);
  same = HBitwise(got, ref, n, &diff);
  /* the split: CORE alone leaves the surface untouched, then SURFACE completes it */
  HPut(dy, nan, n);
  HCALL(H.ops->stencil(&B, dx, &Hf, dy, PPE_DEV_CORE, NULL, H.stream));
  HGet(got2, dy, n);
  for (size_t t = 0; t < n; t++)
    if (surf[t] ? !isnan(got2[t]) : memcmp(&got2[t], &ref[t], sizeof(double))) phases_ok = 0;
  HCALL(H.ops->stencil(&B, dx, &Hf, dy, PPE_DEV_SURFACE, NULL, H.stream));
  HGet(got2, dy, n);
  same2 = HBitwise(got2, ref, n, &diff2);
  HCheck("stencil", same && same2 && phases_ok, "%s (%s%s%s, %ld surface points): ALL bitwise %s (max difference %.2e), CORE writes only the core %s, CORE + SURFACE bitwise %s (max difference %.2e)", name, size, per[0] ? " per-x" : "",
         sigma > 0 ? " sigma" : "", nsurf, same ? "yes" : "NO", diff, phases_ok ? "yes" : "NO", same2 ? "yes" : "NO", diff2);

  /* the dot products of a fused apply (y . x and y . y, y = A x on the device): the rows of
     the box in the order of the host's overlapped sweep, summed in the device's order */
  {
    long    xm = m[0], ym = m[1], zm = m[2], nr = ym * zm;
    double *rows = HMallocHost((size_t)(2 * nr)), *work = HAlloc(PPE_DEV_ROW_RED_WORK(nr, 2)), sd[2], r[2];

    for (long row = 0; row < nr; row++) {
      long j = row % ym, k = row / ym;
      int  sf = (j == 0 && b.nb[PPE_YLO]) || (j == ym - 1 && b.nb[PPE_YHI]) || (k == 0 && b.nb[PPE_ZLO]) || (k == zm - 1 && b.nb[PPE_ZHI]);
      int  lo = !sf && b.nb[PPE_XLO], hi = !sf && b.nb[PPE_XHI];

      rows[row]      = ppe_s7_row_dot(xm, lo, hi, ref + row * xm, b.x + row * xm);
      rows[nr + row] = ppe_s7_row_dot(xm, lo, hi, ref + row * xm, ref + row * xm);
    }
    r[0] = ppe_red_array(nr, rows);
    r[1] = ppe_red_array(nr, rows + nr);
    HCALL(H.ops->stencil_dot(&B, 2, dy, dx, dy, work, sd, H.stream));
    HCheck("stencil_dot", !memcmp(sd, r, sizeof(r)), "%s (%s): y.x and y.y of y = A x, row by row in the host sweep's order, bitwise the host's sums (%.17g, %.17g)", name, size, sd[0], sd[1]);
    free(rows);
    HFree(work);
  }

  /* the fused Chebyshev step, with D = W^-1 and D = I, one launch and the split */
  for (int withd = 0; withd < 2; withd++) {
    double    *hb = HMallocHost(n), *hz = HMallocHost(n), *hd = HMallocHost(n), *db, *dz, *dd, *dw;
    ppe_dev_ci ci, cih;
    int        ok;

    HFill(hb, n, -1.0, 1.0);
    HFill(hz, n, -1.0, 1.0);
    HFill(hd, n, 0.5, 2.0);
    db         = HUpload(hb, n);
    dz         = HUpload(hz, n);
    dd         = HUpload(hd, n);
    dw         = HUpload(nan, n);
    ci.rho     = 1.13;
    ci.rho_old = 0.87;
    ci.s2      = 2.6;
    ci.d2      = 0.77;
    cih        = ci;
    cih.b      = hb;
    cih.z      = hz;
    cih.dinv   = withd ? hd : NULL;
    cih.w      = NULL;
    StencilRef(&b, &cih, ref, NULL);
    ci.b    = db;
    ci.z    = dz;
    ci.dinv = withd ? dd : NULL;
    ci.w    = dw;
    HCALL(H.ops->stencil(&B, dx, &Hf, NULL, PPE_DEV_ALL, &ci, H.stream));
    HGet(got, dw, n);
    ok = HBitwise(got, ref, n, &diff);
    HPut(dw, nan, n);
    HCALL(H.ops->stencil(&B, dx, &Hf, NULL, PPE_DEV_CORE, &ci, H.stream));
    HCALL(H.ops->stencil(&B, dx, &Hf, NULL, PPE_DEV_SURFACE, &ci, H.stream));
    HGet(got2, dw, n);
    ok = HBitwise(got2, ref, n, &diff2) && ok;
    HCheck("stencil+ci", ok, "%s (%s), D %s: fused Chebyshev step bitwise, one launch (max difference %.2e) and CORE + SURFACE (%.2e)", name, size, withd ? "= W^-1" : "= I", diff, diff2);
    free(hb);
    free(hz);
    free(hd);
    HFree(db);
    HFree(dz);
    HFree(dd);
    HFree(dw);
  }
  HFree(dx);
  HFree(dy);
  free(ref);
  free(got);
  free(got2);
  free(nan);
  free(surf);
  BoxDestroy(&b);
}

static void CheckStencil(void)
{
  /* global grid, box offset and extent, periodic directions, sigma */
  static const struct {
    const char *name;
    long        N[3], s[3], m[3];
    int         per[3];
    double      sigma;
  } cases[] = {
    {"whole domain, walls",         {13, 11, 9},  {0, 0, 0},  {13, 11, 9},  {0, 0, 0}, 0.0},
    {"whole domain, periodic x y",  {13, 11, 9},  {0, 0, 0},  {13, 11, 9},  {1, 1, 0}, 0.0},
    {"whole domain, periodic",      {16, 8, 5},   {0, 0, 0},  {16, 8, 5},   {1, 1, 1}, 0.5},
    {"inner box, six neighbours",   {20, 17, 15}, {5, 4, 3},  {9, 7, 6},    {0, 0, 0}, 0.0},
    {"corner box, walls",           {20, 17, 15}, {0, 0, 0},  {7, 9, 8},    {0, 0, 0}, 0.3},
    {"far corner, periodic z",      {20, 17, 15}, {11, 8, 7}, {9, 9, 8},    {0, 0, 1}, 0.0},
    {"slab, periodic x",            {40, 30, 21}, {0, 10, 0}, {40, 11, 21}, {1, 0, 0}, 0.0},
    {"thin boxes, one point thick", {9, 8, 7},    {3, 0, 2},  {1, 8, 1},    {0, 1, 0}, 0.0},
    {"many blocks",                 {67, 33, 20}, {0, 0, 0},  {67, 33, 20}, {0, 0, 0}, 0.0},
  };

  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    CheckStencilCase(cases[c].name, cases[c].N, cases[c].s, cases[c].m, cases[c].per, cases[c].sigma, 0);
    if (c % 2 == 0) CheckStencilCase(cases[c].name, cases[c].N, cases[c].s, cases[c].m, cases[c].per, cases[c].sigma, 1); /* variable coefficients: every other case (CI time) */
  }
}

/* ------------------------------------------------------------------ reductions */

/* The device's order (krylov_dev.h): partial sums of chunks of PPE_DEV_RED_CHUNK values by
   the host body, then sums of PPE_DEV_RED_CHUNK consecutive partials in index order, level
   after level, until one is left. p holds nc partials and is overwritten. */
static double TreeSum(double *p, long nc)
{
  long count = nc;

  while (count > PPE_DEV_RED_CHUNK) {
    long ng = (count + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
    for (long g = 0; g < ng; g++) {
      double s  = 0.0;
      long   i1 = (g + 1) * PPE_DEV_RED_CHUNK < count ? (g + 1) * PPE_DEV_RED_CHUNK : count;
      for (long i = g * PPE_DEV_RED_CHUNK; i < i1; i++) s += p[i];
      p[g] = s;
    }
    count = ng;
  }
  {
    double s = 0.0;
    for (long i = 0; i < count; i++) s += p[i];
    return s;
  }
}

static long Chunks(long n)
{
  return (n + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
}

/* y . u in the device's order */
static double DotRef(long n, const double *y, const double *u)
{
  long    nc = Chunks(n);
  double *p  = HMallocHost((size_t)nc), s;

  for (long c = 0; c < nc; c++) {
    long p0 = c * PPE_DEV_RED_CHUNK, len = n - p0 < PPE_DEV_RED_CHUNK ? n - p0 : PPE_DEV_RED_CHUNK;
    p[c] = ppe_dot_seg(len, y + p0, u + p0);
  }
  s = TreeSum(p, nc);
  free(p);
  return s;
}

static double DotLong(long n, const double *y, const double *u)
{
  long double s = 0.0L;

  for (long i = 0; i < n; i++) s += (long double)y[i] * (long double)u[i];
  return (double)s;
}

static double RelScalar(double a, double ref)
{
  double e = fabs(a - ref);

  if (e == 0.0) return 0.0;
  return fabs(ref) > 0.0 ? e / fabs(ref) : INFINITY;
}

/* ------------------------------------------------------------------ vector kernels */

/* the element-wise launchers against their bodies on n = 1 .. large, on arrays dv[0..5] */
static void CheckVectors(long n)
{
  double *hv[6], *dv[6], *ref = HMallocHost((size_t)n), *ref2 = HMallocHost((size_t)n), *got = HMallocHost((size_t)n), *got2 = HMallocHost((size_t)n);
  double *dout, *dout2, *work, diff = 0.0, diff2 = 0.0;
  int     ok;

  for (int q = 0; q < 6; q++) {
    hv[q] = HMallocHost((size_t)n);
    HFill(hv[q], (size_t)n, q == 0 ? 0.5 : -1.0, q == 0 ? 2.0 : 1.0); /* hv[0]: a positive diagonal */
    dv[q] = HUpload(hv[q], (size_t)n);
  }
  dout  = HAlloc((size_t)n);
  dout2 = HAlloc((size_t)n);
  work  = HAlloc(PPE_DEV_RED_WORK(n, 2));

  /* dot: nd = 1, 2 (u1 = y too), twice for repeatability */
  {
    double s[2] = {0, 0}, s2[2] = {0, 0}, r[2], rl[2], rel;
    int    bit;

    HCALL(H.ops->dot(n, 2, dv[1], dv[2], dv[1], work, s, H.stream));
    HCALL(H.ops->dot(n, 1, dv[1], dv[2], NULL, work, s2, H.stream));
    r[0]  = DotRef(n, hv[1], hv[2]);
    r[1]  = DotRef(n, hv[1], hv[1]);
    rl[0] = DotLong(n, hv[1], hv[2]);
    rl[1] = DotLong(n, hv[1], hv[1]);
    bit   = !memcmp(&s[0], &r[0], sizeof(double)) && !memcmp(&s[1], &r[1], sizeof(double)) && !memcmp(&s2[0], &r[0], sizeof(double));
    rel   = fmax(RelScalar(s[0], rl[0]), RelScalar(s[1], rl[1]));
    HCheck("dot", bit && rel <= STENCIL_RED_TOL, "n = %ld, nd = 1 and 2: y.u, y.y bitwise equal to the fixed-order host sum %s, relative difference to the long double sum %.2e (<= %.0e)", n, bit ? "yes" : "NO", rel, STENCIL_RED_TOL);
  }

  /* Chebyshev steps */
  ppe_ci_scale(n, hv[0], hv[1], ref);
  HCALL(H.ops->ci_scale(n, dv[0], dv[1], dout, H.stream));
  HGet(got, dout, (size_t)n);
  HCheck("ci_scale", HBitwise(got, ref, (size_t)n, &diff), "n = %ld: b = dinv b_in bitwise (max difference %.2e)", n, diff);
  ok = 1;
  for (int withd = 0; withd < 2; withd++) {
    const double *dinv = withd ? hv[0] : NULL;
    for (long i = 0; i < n; i++) ppe_ci_first(1, 1.7, 0.9, dinv ? dinv + i : NULL, hv[1] + i, hv[2] + i, ref + i, ref2 + i);
    HCALL(H.ops->ci_first(n, 1.7, 0.9, withd ? dv[0] : NULL, dv[1], dv[2], dout, dout2, H.stream));
    HGet(got, dout, (size_t)n);
    HGet(got2, dout2, (size_t)n);
    ok = HBitwise(got, ref, (size_t)n, &diff) && HBitwise(got2, ref2, (size_t)n, &diff2) && ok;
  }
  HCheck("ci_first", ok, "n = %ld, D and D = I: z and y bitwise (max differences %.2e, %.2e)", n, diff, diff2);
  ok = 1;
  for (int withd = 0; withd < 2; withd++) {
    for (long i = 0; i < n; i++) ref[i] = ppe_ci_point(1.1, 0.8, 2.3, 0.7, withd ? hv[0][i] : 1.0, hv[1][i], hv[2][i], hv[3][i], hv[4][i]);
    HCALL(H.ops->ci_step(n, 1.1, 0.8, 2.3, 0.7, withd ? dv[0] : NULL, dv[1], dv[2], dv[3], dv[4], dout, H.stream));
    HGet(got, dout, (size_t)n);
    ok = HBitwise(got, ref, (size_t)n, &diff) && ok;
  }
  HCheck("ci_step", ok, "n = %ld, D and D = I: w bitwise (max difference %.2e)", n, diff);

  /* Bi-CGSTAB updates: in place on a copy of hv[5] */
  memcpy(ref, hv[5], (size_t)n * sizeof(double));
  for (long i = 0; i < n; i++) ppe_bcgs_axpy(1, 0.37, hv[2] + i, ref + i);
  HPut(dout, hv[5], (size_t)n);
  HCALL(H.ops->bcgs_axpy(n, 0.37, dv[2], dout, H.stream));
  HGet(got, dout, (size_t)n);
  HCheck("bcgs_axpy", HBitwise(got, ref, (size_t)n, &diff), "n = %ld: r -= alpha w bitwise (max difference %.2e)", n, diff);
  memcpy(ref, hv[5], (size_t)n * sizeof(double));
  for (long i = 0; i < n; i++) ppe_bcgs_update_x(1, 0.37, -1.3, hv[1] + i, hv[2] + i, ref + i);
  HPut(dout, hv[5], (size_t)n);
  HCALL(H.ops->bcgs_update_x(n, 0.37, -1.3, dv[1], dv[2], dout, H.stream));
  HGet(got, dout, (size_t)n);
  HCheck("bcgs_update_x", HBitwise(got, ref, (size_t)n, &diff), "n = %ld: x += alpha ph + omega rh bitwise (max difference %.2e)", n, diff);
  memcpy(ref, hv[5], (size_t)n * sizeof(double));
  for (long i = 0; i < n; i++) ppe_bcgs_update_p(1, 0.61, 1.9, hv[1] + i, hv[2] + i, ref + i);
  HPut(dout, hv[5], (size_t)n);
  HCALL(H.ops->bcgs_update_p(n, 0.61, 1.9, dv[1], dv[2], dout, H.stream));
  HGet(got, dout, (size_t)n);
  HCheck("bcgs_update_p", HBitwise(got, ref, (size_t)n, &diff), "n = %ld: p = r + beta (p - omega w) bitwise (max difference %.2e)", n, diff);
  {
    long        nc = Chunks(n);
    double     *pa = HMallocHost((size_t)nc), *pb = HMallocHost((size_t)nc), s[2] = {0, 0}, r[2], rel;
    long double la = 0.0L, lb = 0.0L;
    int         bit;

    memcpy(ref, hv[5], (size_t)n * sizeof(double));
    for (long c = 0; c < nc; c++) {
      long   p0 = c * PPE_DEV_RED_CHUNK, len = n - p0 < PPE_DEV_RED_CHUNK ? n - p0 : PPE_DEV_RED_CHUNK;
      double sc[2];
      ppe_bcgs_update_r(len, 0.83, hv[2] + p0, hv[1] + p0, ref + p0, sc);
      pa[c] = sc[0];
      pb[c] = sc[1];
    }
    r[0] = TreeSum(pa, nc);
    r[1] = TreeSum(pb, nc);
    for (long i = 0; i < n; i++) {
      la += (long double)hv[1][i] * (long double)ref[i];
      lb += (long double)ref[i] * (long double)ref[i];
    }
    HPut(dout, hv[5], (size_t)n);
    HCALL(H.ops->bcgs_update_r(n, 0.83, dv[2], dv[1], dout, work, s, H.stream));
    HGet(got, dout, (size_t)n);
    ok  = HBitwise(got, ref, (size_t)n, &diff);
    bit = !memcmp(&s[0], &r[0], sizeof(double)) && !memcmp(&s[1], &r[1], sizeof(double));
    rel = fmax(RelScalar(s[0], (double)la), RelScalar(s[1], (double)lb));
    HCheck("bcgs_update_r", ok && bit && rel <= STENCIL_RED_TOL, "n = %ld: r -= omega t bitwise %s (max difference %.2e), rt'r and r'r bitwise equal to the fixed-order host sums %s, relative difference to long double %.2e (<= %.0e)", n,
           ok ? "yes" : "NO", diff, bit ? "yes" : "NO", rel, STENCIL_RED_TOL);
    free(pa);
    free(pb);
  }

  for (int q = 0; q < 6; q++) {
    free(hv[q]);
    HFree(dv[q]);
  }
  HFree(dout);
  HFree(dout2);
  HFree(work);
  free(ref);
  free(ref2);
  free(got);
  free(got2);
}

/* ------------------------------------------------------------------ timings */

/* Every launcher of the family on a cube of m^3 points (periodic, the whole domain, so the
   halo faces are the box's own opposite faces as on one rank). Bytes: each array read once
   and each written once (write-allocate traffic not counted). */
static void TimeCube(long m)
{
  size_t       n = (size_t)m * (size_t)m * (size_t)m;
  double      *h = HMallocHost(n), *d[6], *work, s[2], sec;
  Dir          dir[3];
  ppe_dev_box  B;
  ppe_dev_halo Hf;
  ppe_dev_ci   ci;
  char         size[32];
  double       A = 8.0 * (double)n; /* bytes of one array */

  snprintf(size, sizeof(size), "%ld^3", m);
  HFill(h, n, -1.0, 1.0);
  for (int q = 0; q < 6; q++) {
    d[q] = HAlloc(n);
    HPut(d[q], h, n);
  }
  work = HAlloc(PPE_DEV_RED_WORK((long)n, 2));
  for (int q = 0; q < 3; q++) DirCreate(&dir[q], m, q == 0, 1);
  memset(&B, 0, sizeof(B));
  B.X  = DirView(&dir[0], 1);
  B.Y  = DirView(&dir[1], 1);
  B.Z  = DirView(&dir[2], 1);
  B.xm = B.ym = B.zm = m;
  for (int q = 0; q < 3; q++) {
    B.N[q]   = m;
    B.per[q] = 1;
  }
  for (int f = 0; f < 6; f++) Hf.f[f] = NULL;
  HTIME(sec, HCALL(H.ops->stencil(&B, d[0], &Hf, d[1], PPE_DEV_ALL, NULL, H.stream)));
  HTiming("stencil", size, sec, 2 * A, NULL, 0.0);
  /* the overlapped form: halo faces (here the box's own faces, one plane each) */
  for (int f = 0; f < 6; f++) {
    B.nb[f] = 1;
    Hf.f[f] = d[2] + (size_t)f * (size_t)m * (size_t)m;
  }
  HTIME(sec, HCALL(H.ops->stencil(&B, d[0], &Hf, d[1], PPE_DEV_CORE, NULL, H.stream)); HCALL(H.ops->stencil(&B, d[0], &Hf, d[1], PPE_DEV_SURFACE, NULL, H.stream)));
  HTiming("stencil core+surface", size, sec, 2 * A, NULL, 0.0);
  ci.rho     = 1.1;
  ci.rho_old = 0.9;
  ci.s2      = 2.5;
  ci.d2      = 0.7;
  ci.b       = d[3];
  ci.z       = d[4];
  ci.dinv    = d[5];
  ci.w       = d[1];
  HTIME(sec, HCALL(H.ops->stencil(&B, d[0], &Hf, NULL, PPE_DEV_ALL, &ci, H.stream)));
  HTiming("stencil+ci (fused)", size, sec, 5 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->dot((long)n, 1, d[0], d[1], NULL, work, s, H.stream)));
  HTiming("dot (nd = 1)", size, sec, 2 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->dot((long)n, 2, d[0], d[1], d[2], work, s, H.stream)));
  HTiming("dot (nd = 2)", size, sec, 3 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->ci_first((long)n, 1.7, 0.9, d[0], d[1], d[2], d[3], d[4], H.stream)));
  HTiming("ci_first", size, sec, 5 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->ci_step((long)n, 1.1, 0.8, 2.3, 0.7, d[0], d[1], d[2], d[3], d[4], d[5], H.stream)));
  HTiming("ci_step", size, sec, 6 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->bcgs_axpy((long)n, 1e-3, d[2], d[5], H.stream)));
  HTiming("bcgs_axpy", size, sec, 3 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->bcgs_update_x((long)n, 1e-3, 1e-3, d[1], d[2], d[5], H.stream)));
  HTiming("bcgs_update_x", size, sec, 4 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->bcgs_update_r((long)n, 1e-3, d[2], d[1], d[5], work, s, H.stream)));
  HTiming("bcgs_update_r", size, sec, 4 * A, NULL, 0.0);
  HTIME(sec, HCALL(H.ops->bcgs_update_p((long)n, 0.5, 0.5, d[1], d[2], d[5], H.stream)));
  HTiming("bcgs_update_p", size, sec, 4 * A, NULL, 0.0);
  for (int q = 0; q < 3; q++) DirDestroy(&dir[q]);
  for (int q = 0; q < 6; q++) HFree(d[q]);
  HFree(work);
  free(h);
}

void HFamily_stencil(void)
{
  /* sizes of the vector checks: a partial chunk, one chunk, several chunks, a second level
     of the reduction tree */
  static const long nv[] = {1, 7, 256, 1000, 70001};

  CheckStencil();
  for (size_t i = 0; i < sizeof(nv) / sizeof(nv[0]); i++) CheckVectors(nv[i]);
  if (H.emu) TimeCube(24);
  else {
    TimeCube(256);
    TimeCube(512);
  }
}

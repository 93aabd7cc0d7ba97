static const char help[] = "The device launchers of the Krylov vector kernels, the tall-skinny block kernels and the\n\
transpose box copies against the host back end:\n\
  - dot (nd = 1, 2) bitwise equal to the host's ppe_dot_tree and to a long double sum to a\n\
    relative tolerance; Chebyshev scale, first and later step (with and without D), Bi-CGSTAB\n\
    axpy, x, r and p updates, and update_r's sums (ppe_bcgs_update_r_tree) bitwise,\n\
    n = 0 .. 300000;\n\
  - the host's ppe_red against a plain level-by-level sum (up to 3 levels), and stencil_dot\n\
    (row partials, up to 3 levels of reduction, x ends split) bitwise against the host's order;\n\
  - Gram (bands 0, 1, full; x = y), combine in place, x/r update, Chebyshev step (out = zold,\n\
    zold NULL) against the generic host instance, widths not multiples of the tiles;\n\
  - transpose pack, unpack with shift, and copy with scale against plain loops, bitwise.\n\
  -ppe_backend NAME   device back end to compare (default: emu)\n\n";

#include <ppekit.h>
#include <ppekit/private/backendimpl.h>
#include <ppekit/private/sstepimpl.h>
#include "tap.h"
#include "devutil.h"
#include <math.h>

/* relative tolerance of the reductions, against the sum of |products| */
#define RED_TOL 1e-13

static const PetscInt sizes[]   = {0, 1, 7, 255, 256, 257, 1000, 4099, 65537, 300000};
static const PetscInt tssizes[] = {1, 7, 255, 256, 257, 1000, 4099};

/* Reproducible numbers in [lo, hi) (a 64-bit LCG). */
static unsigned long long seed = 193;
static double             Rand(double lo, double hi)
{
  seed = seed * 2862933555777941757ULL + 3037000493ULL;
  return lo + (hi - lo) * (double)(seed >> 11) / 9007199254740992.0;
}

static void Fill(double *v, PetscInt n, double lo, double hi)
{
  for (PetscInt i = 0; i < n; i++) v[i] = Rand(lo, hi);
}

/* Download d and compare with the reference h bitwise. */
static PetscErrorCode SameDev(Dev *D, const double *d, const double *h, PetscInt n, double *tmp, PetscBool *same, double *diff)
{
  PetscFunctionBegin;
  PetscCall(Download(D, d, n, tmp));
  *same = (PetscBool)(SameBits(tmp, h, (size_t)n, diff) && *same);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* |s - ref| relative to a scale; a NaN counts as infinite. */
static double RelErr(double s, double ref, double scale)
{
  double e = fabs(s - ref) / (scale > 0 ? scale : 1.0);
  return e == e ? e : INFINITY;
}

/* ---- Krylov and Chebyshev vector kernels ---- */

static PetscErrorCode CheckKrylov(Dev *D, MPI_Comm comm, PetscInt n)
{
  enum {
    NV = 6
  };
  double   *v[NV], *dv[NV], *ref, *ref2, *tmp, *dout, *dout2, *work;
  double    diff, rel, s[2], sh[2];
  PetscBool same;

  PetscFunctionBegin;
  for (int i = 0; i < NV; i++) {
    PetscCall(PetscMalloc1(PetscMax(n, 1), &v[i]));
    Fill(v[i], n, i == 0 ? 0.5 : -1.0, i == 0 ? 2.0 : 1.0); /* v[0]: dinv > 0 */
    PetscCall(Upload(D, v[i], n, &dv[i]));
  }
  PetscCall(PetscMalloc3(PetscMax(n, 1), &ref, PetscMax(n, 1), &ref2, PetscMax(n, 1), &tmp));
  PetscCall(DevAlloc(D, n, &dout));
  PetscCall(DevAlloc(D, n, &dout2));
  DEVCALL(D, D->ops->alloc((void **)&work, PPE_DEV_RED_WORK(n, 2) * sizeof(double)));

  /* dot products: nd = 1 (distinct vectors, and y . y), nd = 2 with u1 = y */
  {
    const double *u[3][2] = {
      {v[1], NULL},
      {v[0], NULL},
      {v[2], v[0]}
    };
    const double *du[3][2] = {
      {dv[1], NULL },
      {dv[0], NULL },
      {dv[2], dv[0]}
    };
    const int nds[3] = {1, 1, 2};
    double    s2[2];

    rel  = 0.0;
    same = PETSC_TRUE; /* repeated launches give the same bits */
    for (int c = 0; c < 3; c++) {
      DEVCALL(D, D->ops->dot(n, nds[c], dv[0], du[c][0], du[c][1], work, s, D->stream));
      DEVCALL(D, D->ops->dot(n, nds[c], dv[0], du[c][0], du[c][1], work, s2, D->stream));
      for (int q = 0; q < nds[c]; q++) {
        long double exact = 0.0L;
        double      scale = 0.0, host = ppe_dot_tree(n, v[0], u[c][q]);
        for (PetscInt i = 0; i < n; i++) {
          exact += (long double)v[0][i] * (long double)u[c][q][i];
          scale += fabs(v[0][i] * u[c][q][i]);
        }
        rel = PetscMax(rel, RelErr(s[q], (double)exact, scale));
        if (memcmp(&s[q], &host, sizeof(double))) rel = INFINITY; /* the host's order, bitwise */
        if (n == 0 && s[q] != 0.0) rel = INFINITY;
        if (memcmp(&s[q], &s2[q], sizeof(double))) same = PETSC_FALSE;
      }
    }
    PetscCall(TapCheck(comm, (PetscBool)(rel <= RED_TOL && same),
                       "%s dot n = %" PetscInt_FMT ": y.u, y.y, (y.u0, y.u1 = y.y): bitwise equal to the host's ppe_dot_tree, relative difference to the long double sum %.2e (<= %.0e; inf if not the host's bits), repeatable %s (want yes)",
                       D->ops->name, n, rel, RED_TOL, same ? "yes" : "NO"));
  }

  /* sum of the entries: the device's in the order of its dot products (the bits of a dot
     product with ones, ppe_dot_tree), the host table's in index order (a plain loop) */
  {
    const PPEBackendOps *host;
    double              *ones, sd, sd2, sh, tree, plain = 0.0, scale = 0.0;
    long double          exact = 0.0L;

    PetscCall(PPEBackendOpen("host", &host));
    PetscCall(PetscMalloc1(PetscMax(n, 1), &ones));
    for (PetscInt i = 0; i < n; i++) {
      ones[i] = 1.0;
      plain += v[1][i];
      exact += (long double)v[1][i];
      scale += fabs(v[1][i]);
    }
    tree = ppe_dot_tree(n, v[1], ones);
    DEVCALL(D, D->ops->sum(n, dv[1], work, &sd, D->stream));
    DEVCALL(D, D->ops->sum(n, dv[1], work, &sd2, D->stream));
    DEVCALL(D, host->sum(n, v[1], NULL, &sh, NULL));
    rel = RelErr(sd, (double)exact, scale);
    PetscCall(TapCheck(comm, (PetscBool)(!memcmp(&sd, &tree, sizeof(double)) && !memcmp(&sd, &sd2, sizeof(double)) && rel <= RED_TOL),
                       "%s sum n = %" PetscInt_FMT ": %.17g, bitwise equal to a dot product with ones in the device's order (%.17g): %s, repeatable (%.17g): %s (want yes, yes), relative difference to the long double sum %.2e (<= %.0e)", D->ops->name,
                       n, sd, tree, memcmp(&sd, &tree, sizeof(double)) ? "no" : "yes", sd2, memcmp(&sd, &sd2, sizeof(double)) ? "no" : "yes", rel, RED_TOL));
    PetscCall(TapCheck(comm, (PetscBool)!memcmp(&sh, &plain, sizeof(double)), "host sum n = %" PetscInt_FMT ": %.17g, bitwise equal to the plain loop in index order (%.17g)", n, sh, plain));
    PetscCall(PetscFree(ones));
  }

  /* Chebyshev: scale; first and later step with D and with D = I */
  diff = 0.0;
  same = PETSC_TRUE;
  ppe_ci_scale(n, v[0], v[1], ref);
  DEVCALL(D, D->ops->ci_scale(n, dv[0], dv[1], dout, D->stream));
  PetscCall(SameDev(D, dout, ref, n, tmp, &same, &diff));
  PetscCall(TapCheck(comm, same, "%s ci_scale n = %" PetscInt_FMT ": bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));

  diff = 0.0;
  same = PETSC_TRUE;
  for (int withd = 0; withd < 2; withd++) {
    const double *di = withd ? v[0] : NULL, *ddi = withd ? dv[0] : NULL;
    ppe_ci_first(n, 1.7, 0.9, di, v[1], v[2], ref, ref2);
    DEVCALL(D, D->ops->ci_first(n, 1.7, 0.9, ddi, dv[1], dv[2], dout, dout2, D->stream));
    PetscCall(SameDev(D, dout, ref, n, tmp, &same, &diff));
    PetscCall(SameDev(D, dout2, ref2, n, tmp, &same, &diff));
  }
  PetscCall(TapCheck(comm, same, "%s ci_first n = %" PetscInt_FMT " (D and D = I): z and y bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));

  diff = 0.0;
  same = PETSC_TRUE;
  for (int withd = 0; withd < 2; withd++) {
    const double *di = withd ? v[0] : NULL, *ddi = withd ? dv[0] : NULL;
    ppe_ci_step(n, 1.1, 0.8, 2.3, 0.7, di, v[1], v[2], v[3], v[4], ref);
    DEVCALL(D, D->ops->ci_step(n, 1.1, 0.8, 2.3, 0.7, ddi, dv[1], dv[2], dv[3], dv[4], dout, D->stream));
    PetscCall(SameDev(D, dout, ref, n, tmp, &same, &diff));
  }
  PetscCall(TapCheck(comm, same, "%s ci_step n = %" PetscInt_FMT " (D and D = I): bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));

  /* Bi-CGSTAB updates, in place on a copy of v[5] */
  diff = 0.0;
  same = PETSC_TRUE;
  PetscCall(PetscArraycpy(ref, v[5], n));
  ppe_bcgs_axpy(n, 0.37, v[2], ref);
  PetscCall(Put(D, v[5], n, dout));
  DEVCALL(D, D->ops->bcgs_axpy(n, 0.37, dv[2], dout, D->stream));
  PetscCall(SameDev(D, dout, ref, n, tmp, &same, &diff));
  PetscCall(TapCheck(comm, same, "%s bcgs_axpy n = %" PetscInt_FMT ": bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));

  diff = 0.0;
  same = PETSC_TRUE;
  PetscCall(PetscArraycpy(ref, v[5], n));
  ppe_bcgs_update_x(n, 0.37, -1.3, v[1], v[2], ref);
  PetscCall(Put(D, v[5], n, dout));
  DEVCALL(D, D->ops->bcgs_update_x(n, 0.37, -1.3, dv[1], dv[2], dout, D->stream));
  PetscCall(SameDev(D, dout, ref, n, tmp, &same, &diff));
  PetscCall(TapCheck(comm, same, "%s bcgs_update_x n = %" PetscInt_FMT ": bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));

  diff = 0.0;
  same = PETSC_TRUE;
  PetscCall(PetscArraycpy(ref, v[5], n));
  ppe_bcgs_update_p(n, 0.61, 1.9, v[1], v[2], ref);
  PetscCall(Put(D, v[5], n, dout));
  DEVCALL(D, D->ops->bcgs_update_p(n, 0.61, 1.9, dv[1], dv[2], dout, D->stream));
  PetscCall(SameDev(D, dout, ref, n, tmp, &same, &diff));
  PetscCall(TapCheck(comm, same, "%s bcgs_update_p n = %" PetscInt_FMT ": bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));

  diff = 0.0;
  same = PETSC_TRUE;
  PetscCall(PetscArraycpy(ref, v[5], n));
  ppe_bcgs_update_r_tree(n, 0.83, v[2], v[1], ref, sh);
  PetscCall(Put(D, v[5], n, dout));
  DEVCALL(D, D->ops->bcgs_update_r(n, 0.83, dv[2], dv[1], dout, work, s, D->stream));
  PetscCall(SameDev(D, dout, ref, n, tmp, &same, &diff));
  {
    double sc[2] = {0.0, 0.0};
    for (PetscInt i = 0; i < n; i++) {
      sc[0] += fabs(v[1][i] * ref[i]);
      sc[1] += ref[i] * ref[i];
    }
    rel = PetscMax(RelErr(s[0], sh[0], sc[0]), RelErr(s[1], sh[1], sc[1]));
    if (memcmp(s, sh, sizeof(sh))) rel = INFINITY; /* the host's order, bitwise */
    if (n == 0 && (s[0] != 0.0 || s[1] != 0.0)) rel = INFINITY;
  }
  PetscCall(TapCheck(comm, (PetscBool)(same && rel == 0.0), "%s bcgs_update_r n = %" PetscInt_FMT ": r bitwise equal to the host: %s (want yes; max difference %.2e), rt'r and r'r bitwise equal to ppe_bcgs_update_r_tree (difference %.2e, want 0)",
                     D->ops->name, n, same ? "yes" : "no", diff, rel));

  for (int i = 0; i < NV; i++) {
    PetscCall(PetscFree(v[i]));
    PetscCall(DevFree(D, &dv[i]));
  }
  PetscCall(PetscFree3(ref, ref2, tmp));
  PetscCall(DevFree(D, &dout));
  PetscCall(DevFree(D, &dout2));
  PetscCall(DevFree(D, &work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- sums in the device's order ---- */

/* the device's reduction written out plainly: groups of PPE_RED_CHUNK summed from 0.0 in
   order, level after level, until at most PPE_RED_CHUNK values remain (w is overwritten) */
static double LevelSum(long n, double *w)
{
  double s = 0.0;

  while (n > PPE_RED_CHUNK) {
    long ng = (n + PPE_RED_CHUNK - 1) / PPE_RED_CHUNK;
    for (long g = 0; g < ng; g++) {
      double a = 0.0;
      for (long i = g * PPE_RED_CHUNK; i < n && i < (g + 1) * PPE_RED_CHUNK; i++) a += w[i];
      w[g] = a;
    }
    n = ng;
  }
  for (long i = 0; i < n; i++) s += w[i];
  return s;
}

static PetscErrorCode CheckRed(MPI_Comm comm)
{
  const long counts[] = {0, 1, 255, 256, 257, 65536, 65537, 65792, 131077, 327683};
  double    *w, *c;
  long       nmax = 327683;
  PetscBool  same = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(nmax, &w, nmax, &c));
  for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
    long   n = counts[k];
    double a, b;

    Fill(w, n, -1.0, 1.0);
    for (long i = 0; i < n; i++) w[i] *= (i % 7 == 0) ? 1e8 : 1.0; /* cancellations that show the order */
    PetscCall(PetscArraycpy(c, w, n));
    a = ppe_red_array(n, w);
    b = LevelSum(n, c);
    if (memcmp(&a, &b, sizeof(double))) same = PETSC_FALSE;
  }
  PetscCall(TapCheck(comm, same, "ppe_red: the streamed sum equals the level-by-level sum bitwise (0 to 327683 values, up to 3 levels)"));
  PetscCall(PetscFree2(w, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* stencil_dot on boxes with and without neighbours against the host's order: the rows of
   ppe_s7_row_dot summed by ppe_red_array */
static PetscErrorCode CheckStencilDot(Dev *D, MPI_Comm comm)
{
  const long shapes[][3] = {
    {13, 11,  9  },
    {1,  7,   5  },
    {2,  3,   4  },
    {1,  257, 256}
  };
  const int nbs[][6] = {
    {0, 0, 0, 0, 0, 0},
    {1, 1, 1, 1, 1, 1},
    {1, 0, 0, 1, 1, 0},
    {0, 1, 1, 0, 0, 1}
  };

  PetscFunctionBegin;
  for (size_t sh = 0; sh < sizeof(shapes) / sizeof(shapes[0]); sh++) {
    long        xm = shapes[sh][0], ym = shapes[sh][1], zm = shapes[sh][2], n = xm * ym * zm, nr = ym * zm;
    double     *y, *u, *dy, *du, *work, *rows;
    PetscBool   same = PETSC_TRUE;
    ppe_dev_box B;

    PetscCall(PetscMalloc3(n, &y, n, &u, 2 * nr, &rows));
    Fill(y, n, -1.0, 1.0);
    Fill(u, n, -1.0, 1.0);
    for (long i = 0; i < n; i++) y[i] *= (i % 5 == 0) ? 1e6 : 1.0;
    PetscCall(Upload(D, y, n, &dy));
    PetscCall(Upload(D, u, n, &du));
    DEVCALL(D, D->ops->alloc((void **)&work, PPE_DEV_ROW_RED_WORK(nr, 2) * sizeof(double)));
    PetscCall(PetscMemzero(&B, sizeof(B)));
    B.xm = xm;
    B.ym = ym;
    B.zm = zm;
    for (size_t f = 0; f < sizeof(nbs) / sizeof(nbs[0]); f++) {
      double s[2], h[2];

      for (int e = 0; e < 6; e++) B.nb[e] = nbs[f][e];
      for (long r = 0; r < nr; r++) {
        long j = r % ym, k = r / ym;
        int  surf    = (j == 0 && B.nb[PPE_YLO]) || (j == ym - 1 && B.nb[PPE_YHI]) || (k == 0 && B.nb[PPE_ZLO]) || (k == zm - 1 && B.nb[PPE_ZHI]);
        rows[r]      = ppe_s7_row_dot(xm, !surf && B.nb[PPE_XLO], !surf && B.nb[PPE_XHI], y + r * xm, u + r * xm);
        rows[nr + r] = ppe_s7_row_dot(xm, !surf && B.nb[PPE_XLO], !surf && B.nb[PPE_XHI], y + r * xm, y + r * xm);
      }
      h[0] = ppe_red_array(nr, rows);
      h[1] = ppe_red_array(nr, rows + nr);
      DEVCALL(D, D->ops->stencil_dot(&B, 2, dy, du, dy, work, s, D->stream));
      if (memcmp(s, h, sizeof(h))) same = PETSC_FALSE;
      DEVCALL(D, D->ops->stencil_dot(&B, 1, dy, dy, NULL, work, s, D->stream));
      if (memcmp(&s[0], &h[1], sizeof(double))) same = PETSC_FALSE;
    }
    PetscCall(TapCheck(comm, same, "%s stencil_dot on a %ld x %ld x %ld box (%ld rows), 4 neighbour sets, nd = 1 and 2: bitwise equal to the host's row order", D->ops->name, xm, ym, zm, nr));
    PetscCall(DevFree(D, &dy));
    PetscCall(DevFree(D, &du));
    PetscCall(DevFree(D, &work));
    PetscCall(PetscFree3(y, u, rows));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- tall-skinny block kernels ---- */

#define NCOL PPE_TS_MAXCOLS

/* Columns of n rows on the host and their device copies. */
typedef struct {
  PetscInt n;
  double  *h[NCOL];
  double  *d[NCOL];
} Cols;

static PetscErrorCode ColsCreate(Dev *D, PetscInt n, Cols *C)
{
  PetscFunctionBegin;
  C->n = n;
  for (int j = 0; j < NCOL; j++) {
    PetscCall(PetscMalloc1(n, &C->h[j]));
    Fill(C->h[j], n, -1.0, 1.0);
    PetscCall(Upload(D, C->h[j], n, &C->d[j]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ColsDestroy(Dev *D, Cols *C)
{
  PetscFunctionBegin;
  for (int j = 0; j < NCOL; j++) {
    PetscCall(PetscFree(C->h[j]));
    PetscCall(DevFree(D, &C->d[j]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckGram(Dev *D, MPI_Comm comm, const Cols *X, const Cols *Y)
{
  /* nx, ny, band, y = x */
  const PetscInt cases[][4] = {
    {1,    1,    NCOL, 0},
    {2,    4,    0,    0},
    {3,    5,    0,    0},
    {5,    3,    1,    0},
    {7,    13,   NCOL, 0},
    {13,   7,    1,    0},
    {12,   12,   1,    1},
    {9,    9,    0,    1},
    {NCOL, NCOL, 1,    1},
    {NCOL, 11,   NCOL, 0}
  };
  const PetscInt n = X->n;
  double        *hout, *dout_h, *work, rel = 0.0;
  PetscBool      zeros   = PETSC_TRUE;
  char           bad[64] = "";

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(NCOL * NCOL, &hout, NCOL * NCOL, &dout_h));
  DEVCALL(D, D->ops->alloc((void **)&work, PPE_DEV_RED_WORK(n, NCOL * NCOL) * sizeof(double)));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscInt      nx = cases[c][0], ny = cases[c][1], band = cases[c][2];
    const Cols   *YY     = cases[c][3] ? X : Y;
    double        crel   = 0.0;
    PetscBool     czeros = PETSC_TRUE;
    const double *dx[NCOL], *dy[NCOL];

    for (int j = 0; j < NCOL; j++) {
      dx[j] = X->d[j];
      dy[j] = YY->d[j];
    }
    PPETSGram_Host(n, nx, (const double *const *)X->h, ny, (const double *const *)YY->h, band, hout);
    DEVCALL(D, D->ops->ts_gram(n, (int)nx, dx, (int)ny, dy, (int)band, work, dout_h, D->stream));
    for (PetscInt b = 0; b < ny; b++)
      for (PetscInt a = 0; a < nx; a++) {
        double v = dout_h[a + nx * b], scale = 0.0;
        if (b < a - band) {
          if (v != 0.0 || hout[a + nx * b] != 0.0) czeros = PETSC_FALSE;
          continue;
        }
        for (PetscInt p = 0; p < n; p++) scale += fabs(X->h[a][p] * YY->h[b][p]);
        crel = PetscMax(crel, RelErr(v, hout[a + nx * b], scale));
      }
    if ((!czeros || crel > RED_TOL) && !bad[0]) PetscCall(PetscSNPrintf(bad, sizeof(bad), " (first bad: %" PetscInt_FMT "x%" PetscInt_FMT " band %" PetscInt_FMT ")", nx, ny, band));
    rel   = PetscMax(rel, crel);
    zeros = (PetscBool)(zeros && czeros);
  }
  PetscCall(TapCheck(comm, (PetscBool)(rel <= RED_TOL && zeros), "%s ts_gram n = %" PetscInt_FMT ": 10 shapes 1x1 .. 48x48, bands 0, 1, full, y = x: relative difference to the host %.2e (<= %.0e), zeros below the band %s (want yes)%s", D->ops->name,
                     n, rel, RED_TOL, zeros ? "yes" : "NO", bad));
  PetscCall(PetscFree2(hout, dout_h));
  PetscCall(DevFree(D, &work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckCombine(Dev *D, MPI_Comm comm, const Cols *X, const Cols *Y)
{
  /* k, m */
  const PetscInt cases[][2] = {
    {1,    1   },
    {2,    3   },
    {5,    4   },
    {13,   10  },
    {7,    1   },
    {NCOL, NCOL},
    {NCOL, 6   }
  };
  const PetscInt n = X->n;
  double        *B, *S[NCOL], *dS[NCOL], *work, *tmp, diff = 0.0;
  PetscBool      same    = PETSC_TRUE;
  char           bad[64] = "";

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(NCOL * NCOL, &B, n, &tmp));
  Fill(B, NCOL * NCOL, -1.0, 1.0);
  for (int j = 0; j < NCOL; j++) {
    PetscCall(PetscMalloc1(n, &S[j]));
    PetscCall(DevAlloc(D, n, &dS[j]));
  }
  DEVCALL(D, D->ops->alloc((void **)&work, PPE_DEV_TS_COMBINE_WORK(NCOL, NCOL) * sizeof(double)));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscInt      k = cases[c][0], m = cases[c][1];
    const double *dq[NCOL];
    PetscBool     csame = PETSC_TRUE;

    for (int j = 0; j < NCOL; j++) dq[j] = X->d[j];
    for (PetscInt j = 0; j < m; j++) {
      PetscCall(PetscArraycpy(S[j], Y->h[j], n));
      PetscCall(Put(D, Y->h[j], n, dS[j]));
    }
    PPETSCombine_Host(n, k, (const double *const *)X->h, m, S, B);
    DEVCALL(D, D->ops->ts_combine(n, (int)k, dq, (int)m, dS, B, work, D->stream));
    for (PetscInt j = 0; j < m; j++) PetscCall(SameDev(D, dS[j], S[j], n, tmp, &csame, &diff));
    if (!csame && !bad[0]) PetscCall(PetscSNPrintf(bad, sizeof(bad), " (first bad: k %" PetscInt_FMT " m %" PetscInt_FMT ")", k, m));
    same = (PetscBool)(same && csame);
  }
  PetscCall(TapCheck(comm, same, "%s ts_combine n = %" PetscInt_FMT ": S -= Q B in place, 7 shapes 1x1 .. 48x48: bitwise equal to the host (max difference %.2e)%s", D->ops->name, n, diff, bad));
  for (int j = 0; j < NCOL; j++) {
    PetscCall(PetscFree(S[j]));
    PetscCall(DevFree(D, &dS[j]));
  }
  PetscCall(PetscFree2(B, tmp));
  PetscCall(DevFree(D, &work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckAxpy(Dev *D, MPI_Comm comm, const Cols *X, const Cols *Y)
{
  const PetscInt ks[] = {1, 3, 4, 13, NCOL};
  const PetscInt n    = X->n;
  double        *x0, *r0, *x, *r, *tmp, *dx, *dr, coef[NCOL], diff = 0.0;
  PetscBool      same = PETSC_TRUE;
  const double  *dq[NCOL], *daq[NCOL];

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n, &x0, n, &r0, n, &x, n, &r, n, &tmp));
  Fill(x0, n, -1.0, 1.0);
  Fill(r0, n, -1.0, 1.0);
  Fill(coef, NCOL, -1.0, 1.0);
  PetscCall(DevAlloc(D, n, &dx));
  PetscCall(DevAlloc(D, n, &dr));
  for (int j = 0; j < NCOL; j++) {
    dq[j]  = X->d[j];
    daq[j] = Y->d[j];
  }
  for (size_t c = 0; c < sizeof(ks) / sizeof(ks[0]); c++) {
    PetscInt k = ks[c];
    PetscCall(PetscArraycpy(x, x0, n));
    PetscCall(PetscArraycpy(r, r0, n));
    PPETSAxpy_Host(n, k, (const double *const *)X->h, (const double *const *)Y->h, coef, x, r);
    PetscCall(Put(D, x0, n, dx));
    PetscCall(Put(D, r0, n, dr));
    DEVCALL(D, D->ops->ts_axpy(n, (int)k, dq, daq, coef, dx, dr, D->stream));
    PetscCall(SameDev(D, dx, x, n, tmp, &same, &diff));
    PetscCall(SameDev(D, dr, r, n, tmp, &same, &diff));
  }
  PetscCall(TapCheck(comm, same, "%s ts_axpy n = %" PetscInt_FMT ": x += Q a, r -= AQ a, k = 1, 3, 4, 13, 48: bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));
  PetscCall(PetscFree5(x0, r0, x, r, tmp));
  PetscCall(DevFree(D, &dx));
  PetscCall(DevFree(D, &dr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckCheb(Dev *D, MPI_Comm comm, const Cols *X)
{
  const PetscInt n = X->n;
  double        *out, *zold, *tmp, *dout, *dzold, diff = 0.0;
  PetscBool      same = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n, &out, n, &zold, n, &tmp));
  PetscCall(DevAlloc(D, n, &dout));
  PetscCall(DevAlloc(D, n, &dzold));
  /* out distinct from zold */
  PPETSCheb_Host(n, 2.5, X->h[0], 0.75, X->h[1], X->h[2], out);
  DEVCALL(D, D->ops->ts_cheb(n, 2.5, X->d[0], 0.75, X->d[1], X->d[2], dout, D->stream));
  PetscCall(SameDev(D, dout, out, n, tmp, &same, &diff));
  /* zold NULL */
  PPETSCheb_Host(n, 2.5, X->h[0], 0.75, X->h[1], NULL, out);
  DEVCALL(D, D->ops->ts_cheb(n, 2.5, X->d[0], 0.75, X->d[1], NULL, dout, D->stream));
  PetscCall(SameDev(D, dout, out, n, tmp, &same, &diff));
  /* out == zold */
  PetscCall(PetscArraycpy(zold, X->h[3], n));
  PPETSCheb_Host(n, -1.5, X->h[0], 0.25, X->h[1], zold, zold);
  PetscCall(Put(D, X->h[3], n, dzold));
  DEVCALL(D, D->ops->ts_cheb(n, -1.5, X->d[0], 0.25, X->d[1], dzold, dzold, D->stream));
  PetscCall(SameDev(D, dzold, zold, n, tmp, &same, &diff));
  PetscCall(TapCheck(comm, same, "%s ts_cheb n = %" PetscInt_FMT ": out distinct, zold NULL, out = zold: bitwise equal to the host (max difference %.2e)", D->ops->name, n, diff));
  PetscCall(PetscFree3(out, zold, tmp));
  PetscCall(DevFree(D, &dout));
  PetscCall(DevFree(D, &dzold));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- transpose box copies ---- */

/* index of global point (x, y, z) in array box arr */
static long At(const long arr[6], long x, long y, long z)
{
  return ((z - arr[2]) * arr[4] + (y - arr[1])) * arr[3] + (x - arr[0]);
}

static long Volume(const long b[6])
{
  return b[3] * b[4] * b[5];
}

/* dst box = src box * scale + shift by the definition, on host arrays */
static void RefCopy(const double *src, const double *scale, double shift, const long sarr[6], const long box[6], const long tarr[6], double *dst)
{
  for (long z = box[2]; z < box[2] + box[5]; z++)
    for (long y = box[1]; y < box[1] + box[4]; y++)
      for (long x = box[0]; x < box[0] + box[3]; x++) {
        long   s               = At(sarr, x, y, z);
        double v               = scale ? src[s] * scale[s] : src[s];
        dst[At(tarr, x, y, z)] = shift != 0.0 ? v + shift : v;
      }
}

static PetscErrorCode CheckTransposeCase(Dev *D, MPI_Comm comm, const char what[], const long sarr[6], const long box[6], const long tarr[6], PetscBool scaled, double shift)
{
  long      ns = Volume(sarr), nt = Volume(tarr);
  double   *src, *scale, *dst, *tmp, *dsrc, *dscale = NULL, *ddst, diff = 0.0;
  PetscBool same = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(ns, &src, ns, &scale, nt, &dst, nt, &tmp));
  Fill(src, ns, -1.0, 1.0);
  Fill(scale, ns, 0.5, 2.0);
  Fill(dst, nt, -1.0, 1.0); /* points outside the box keep their values */
  PetscCall(Upload(D, src, ns, &dsrc));
  if (scaled) PetscCall(Upload(D, scale, ns, &dscale));
  PetscCall(Upload(D, dst, nt, &ddst));
  RefCopy(src, scaled ? scale : NULL, shift, sarr, box, tarr, dst);
  DEVCALL(D, D->ops->tp_copy(dsrc, dscale, shift, sarr, box, tarr, ddst, D->stream));
  PetscCall(SameDev(D, ddst, dst, nt, tmp, &same, &diff));
  PetscCall(TapCheck(comm, same, "%s tp_copy %s, box %ldx%ldx%ld: bitwise equal to the plain loops (max difference %.2e)", D->ops->name, what, box[3], box[4], box[5], diff));
  PetscCall(PetscFree4(src, scale, dst, tmp));
  PetscCall(DevFree(D, &dsrc));
  if (scaled) PetscCall(DevFree(D, &dscale));
  PetscCall(DevFree(D, &ddst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckTranspose(Dev *D, MPI_Comm comm)
{
  const long arrA[6] = {-1, 2, 0, 9, 7, 5};  /* an array box with ghosts */
  const long arrB[6] = {0, 1, -2, 6, 11, 8}; /* another layout */
  const long box[6]  = {0, 3, 1, 5, 4, 3};   /* inside both */
  const long line[6] = {2, 4, 2, 1, 1, 3};   /* one point wide */

  PetscFunctionBegin;
  PetscCall(CheckTransposeCase(D, comm, "pack (contiguous target)", arrA, box, box, PETSC_FALSE, 0.0));
  PetscCall(CheckTransposeCase(D, comm, "pack with scale (contiguous target)", arrA, box, box, PETSC_TRUE, 0.0));
  PetscCall(CheckTransposeCase(D, comm, "unpack with shift (contiguous source)", box, box, arrB, PETSC_FALSE, 0.125));
  PetscCall(CheckTransposeCase(D, comm, "unpack (contiguous source)", line, line, arrA, PETSC_FALSE, 0.0));
  PetscCall(CheckTransposeCase(D, comm, "copy with scale", arrA, box, arrB, PETSC_TRUE, 0.0));
  PetscCall(CheckTransposeCase(D, comm, "copy with scale and shift", arrB, box, arrA, PETSC_TRUE, -3.5));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char     name[16] = "emu";
  Dev      D;
  MPI_Comm comm;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ppe_backend", name, sizeof(name), NULL));
  PetscCall(PPEBackendOpen(name, &D.ops));
  DEVCALL(&D, D.ops->stream_create(&D.stream));
  PPETSHostSetInstance(PETSC_FALSE);

  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) PetscCall(CheckKrylov(&D, comm, sizes[i]));
  for (size_t i = 0; i < sizeof(tssizes) / sizeof(tssizes[0]); i++) {
    Cols X, Y;
    PetscCall(ColsCreate(&D, tssizes[i], &X));
    PetscCall(ColsCreate(&D, tssizes[i], &Y));
    PetscCall(CheckGram(&D, comm, &X, &Y));
    PetscCall(CheckCombine(&D, comm, &X, &Y));
    PetscCall(CheckAxpy(&D, comm, &X, &Y));
    PetscCall(CheckCheb(&D, comm, &X));
    PetscCall(ColsDestroy(&D, &X));
    PetscCall(ColsDestroy(&D, &Y));
  }
  PetscCall(CheckTranspose(&D, comm));
  PetscCall(CheckRed(comm));
  PetscCall(CheckStencilDot(&D, comm));

  PPETSHostSetInstance(PETSC_TRUE);
  DEVCALL(&D, D.ops->stream_destroy(D.stream));
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}

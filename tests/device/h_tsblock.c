/*
   Device harness, family tsblock: the tall-skinny block kernels of KSP cbcg (ts_gram,
   ts_combine, ts_axpy, ts_cheb; bodies in src/kernels/tsblock.h), the sum of a vector's
   entries (sum, src/kernels/krylov.h) and the box copy of the pencil transposes (tp_copy;
   body in src/kernels/transpose.h). The s-step method is the communication-avoiding
   Chebyshev basis CG of Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU
   acceleration of communication avoiding Chebyshev basis conjugate gradient solver for
   multiphase CFD simulations", ScalA workshop at SC19, 2019.

   Checks (the cases of the PETSc test t193, without PETSc):
   - ts_gram, shapes 1x1 .. 48x48 (PPE_DEV_TS_MAXCOLS), bands 0, 1 and full, y = x, rows
     n = 0 .. 4099, and n = 131077 (more than 256 chunks of 256 rows, so the device's
     reduction tree has two levels): bitwise against a host sum in the device's documented
     order (one partial per tile and chunk of PPE_DEV_RED_CHUNK rows, then groups of
     PPE_DEV_RED_CHUNK consecutive partials in index order, krylov_dev.h), and to 1e-13
     relative to the sum of |products| against a long double sum, with exact zeros below the
     band;
   - ts_combine (S -= Q B in place), ts_axpy (x += Q a, r -= AQ a), ts_cheb (out distinct,
     zold NULL, out = zold): bitwise against the host back end's loops, whose row values do not
     depend on the range a body is called on. The columns are longer than n, and the whole
     column is compared, so a write past row n fails too;
   - the launchers refuse more than 48 columns;
   - sum (the entries of a vector, n = 0 .. 131077): bitwise against a host sum in the
     device's documented order and against the device's dot product with ones;
   - tp_copy: pack, unpack and array-to-array copy, with scale NULL and not, shift zero and
     not, boxes inside ghosted arrays of other shapes, lines, and an empty box: bitwise against
     plain loops of the definition (dst = src * scale + shift, product alone when shift is 0).
   The sizes give several thread blocks of PPE_DEV_BLOCK threads and rows that are not
   multiples of the tiles or lanes, and cost well under a second in the emulation.

   Timings at n = 128^3 and 256^3 rows (16^3, 32^3 in the emulation), with the shapes of cbcg
   at s = 8: the Gram products of a 16x16 block (full) and an 8x8 block with band 1, the
   combine of 16 Q columns into 8 S columns, the x/r update with 8 columns, a Chebyshev step;
   then tp_copy of a 512^3 box (32^3 in emulation): a pack out of a ghosted array, and an
   unpack with scale and shift into it.
*/
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOL       PPE_DEV_TS_MAXCOLS
#define HOST_CHUNK 128 /* PPE_TS_CHUNK of the host back end's loops */
#define RED_TOL    1e-13

/* ---- columns: host arrays and their device copies, nmax rows each ---- */

typedef struct {
  long    nmax;
  int     ncol;
  double *h[NCOL];
  double *d[NCOL];
} Cols;

static void ColsCreate(Cols *C, long nmax, int ncol)
{
  C->nmax = nmax;
  C->ncol = ncol;
  for (int j = 0; j < ncol; j++) {
    C->h[j] = HMallocHost((size_t)nmax);
    HFill(C->h[j], (size_t)nmax, -1.0, 1.0);
    C->d[j] = HUpload(C->h[j], (size_t)nmax);
  }
  HSync();
}

static void ColsDestroy(Cols *C)
{
  for (int j = 0; j < C->ncol; j++) {
    free(C->h[j]);
    HFree(C->d[j]);
  }
}

/* ---- ts_gram ---- */

/* Sum of count partials w[i * stride] in the shape of the device's PPEDevReduce: groups of
   PPE_DEV_RED_CHUNK consecutive live values summed in index order from 0.0 into the group's
   first value, level after level, until one group is left. Overwrites w. */
static double TreeSum(double *w, long count)
{
  long   stride = 1;
  double s      = 0.0;

  while (count > PPE_DEV_RED_CHUNK) {
    long ng = (count + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
    for (long g = 0; g < ng; g++) {
      long   i0 = g * PPE_DEV_RED_CHUNK, i1 = i0 + PPE_DEV_RED_CHUNK < count ? i0 + PPE_DEV_RED_CHUNK : count;
      double t = 0.0;
      for (long i = i0; i < i1; i++) t += w[i * stride];
      w[i0 * stride] = t;
    }
    stride *= PPE_DEV_RED_CHUNK;
    count = ng;
  }
  for (long i = 0; i < count; i++) s += w[i * stride];
  return s;
}

/* out[a + nx b] = x_a . y_b in the device's order (one tile body per chunk of
   PPE_DEV_RED_CHUNK rows on lists padded by repeating the last column, then TreeSum), 0 below
   the band. */
static void RefGramDevOrder(long n, int nx, double *const *x, int ny, double *const *y, int band, double *out)
{
  const double *xp[NCOL], *yp[NCOL];
  int           nxp = ((nx + PPE_TS_TA - 1) / PPE_TS_TA) * PPE_TS_TA, nyp = ((ny + PPE_TS_TB - 1) / PPE_TS_TB) * PPE_TS_TB;
  long          nc = (n + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
  double       *w  = HMallocHost((size_t)nx * (size_t)ny * (size_t)(nc ? nc : 1));

  for (int i = 0; i < nxp; i++) xp[i] = x[i < nx ? i : nx - 1];
  for (int i = 0; i < nyp; i++) yp[i] = y[i < ny ? i : ny - 1];
  for (long c = 0; c < nc; c++) {
    long p0 = c * PPE_DEV_RED_CHUNK, p1 = p0 + PPE_DEV_RED_CHUNK < n ? p0 + PPE_DEV_RED_CHUNK : n;
    for (int tb = 0; tb < nyp / PPE_TS_TB; tb++)
      for (int ta = 0; ta < nxp / PPE_TS_TA; ta++) {
        double v[PPE_TS_TA * PPE_TS_TB];
        ppe_ts_gram_tile(xp + ta * PPE_TS_TA, yp + tb * PPE_TS_TB, p0, p1, v);
        for (int ib = 0; ib < PPE_TS_TB; ib++)
          for (int ia = 0; ia < PPE_TS_TA; ia++) {
            int ca = ta * PPE_TS_TA + ia, cb = tb * PPE_TS_TB + ib;
            if (ca < nx && cb < ny) w[(size_t)(ca + nx * cb) * (size_t)nc + (size_t)c] = v[ia + PPE_TS_TA * ib];
          }
      }
  }
  for (int b = 0; b < ny; b++)
    for (int a = 0; a < nx; a++) out[a + nx * b] = b < a - band ? 0.0 : TreeSum(w + (size_t)(a + nx * b) * (size_t)nc, nc);
  free(w);
}

/* Largest |v - sum| / sum |products| over the band of the device's out (long double sums),
   and whether every entry below the band is exactly +0. */
static double GramLongDouble(long n, int nx, double *const *x, int ny, double *const *y, int band, const double *v, int *zeros)
{
  double rel = 0.0;

  for (int b = 0; b < ny; b++)
    for (int a = 0; a < nx; a++) {
      double      d = v[a + nx * b], e;
      long double s = 0.0L, scale = 0.0L;
      if (b < a - band) {
        if (d != 0.0 || signbit(d)) *zeros = 0;
        continue;
      }
      for (long p = 0; p < n; p++) {
        long double t = (long double)x[a][p] * (long double)y[b][p];
        s += t;
        scale += fabsl(t);
      }
      e = (double)fabsl((long double)d - s);
      if (scale > 0.0L) e = (double)((long double)e / scale);
      else if (e > 0.0 || isnan(d)) e = INFINITY;
      if (!(e <= rel)) rel = e; /* NaN wins */
    }
  return rel;
}

/* One check of each kind over the cases {nx, ny, band, y = x} and the row counts ns[]. */
static void CheckGram(const char *label, const Cols *X, const Cols *Y, const long *ns, int nns, const int (*cases)[4], int ncases)
{
  double *dev = HMallocHost(NCOL * NCOL), *ref = HMallocHost(NCOL * NCOL), *work, diff = 0.0, rel = 0.0;
  int     same = 1, zeros = 1, maxcol = 0;
  char    badb[80] = "", badr[80] = "";

  for (int c = 0; c < ncases; c++) {
    if (cases[c][0] > maxcol) maxcol = cases[c][0];
    if (cases[c][1] > maxcol) maxcol = cases[c][1];
  }
  work = HAlloc(PPE_DEV_RED_WORK(X->nmax, (long)maxcol * maxcol));
  for (int in = 0; in < nns; in++) {
    long n = ns[in];
    for (int c = 0; c < ncases; c++) {
      int           nx = cases[c][0], ny = cases[c][1], band = cases[c][2];
      const Cols   *YY = cases[c][3] ? X : Y;
      const double *dx[NCOL], *dy[NCOL];
      double        d, r;
      int           z = 1;

      for (int j = 0; j < nx; j++) dx[j] = X->d[j];
      for (int j = 0; j < ny; j++) dy[j] = YY->d[j];
      for (int i = 0; i < NCOL * NCOL; i++) dev[i] = NAN; /* every entry must be written */
      HCALL(H.ops->ts_gram(n, nx, dx, ny, dy, band, work, dev, H.stream));
      RefGramDevOrder(n, nx, X->h, ny, YY->h, band, ref);
      if (!HBitwise(dev, ref, (size_t)nx * (size_t)ny, &d)) {
        if (same) snprintf(badb, sizeof(badb), "; first bad: n = %ld, %dx%d band %d%s", n, nx, ny, band, cases[c][3] ? " y = x" : "");
        same = 0;
      }
      if (d > diff || isnan(d)) diff = d;
      r = GramLongDouble(n, nx, X->h, ny, YY->h, band, dev, &z);
      if ((!(r <= RED_TOL) || !z) && !badr[0]) snprintf(badr, sizeof(badr), "; first bad: n = %ld, %dx%d band %d%s", n, nx, ny, band, cases[c][3] ? " y = x" : "");
      if (!(r <= rel)) rel = r;
      zeros = zeros && z;
    }
  }
  HCheck("ts_gram", same, "%s, %d shapes (1x1 .. %dx%d, bands 0, 1, full, y = x): bitwise equal to a host sum in the device's order (chunks of %d rows, fixed reduction tree), max difference %.2e%s", label, ncases, maxcol, maxcol, PPE_DEV_RED_CHUNK,
         diff, badb);
  HCheck("ts_gram", rel <= RED_TOL && zeros, "%s, same shapes: relative difference to a long double sum (over the sum of |products|) %.2e <= %.0e, exact zeros below the band %s%s", label, rel, RED_TOL, zeros ? "yes" : "NO", badr);
  HFree(work);
  free(dev);
  free(ref);
}

/* ---- sum of a vector's entries (KSP cbcg's null-space removal) ---- */

/* The sum of x[0..n) in the device's documented order (krylov_dev.h): per chunk of
   PPE_DEV_RED_CHUNK values four running sums, the j-th value of each full group of four into
   sum j and the values after the last full group into sum 0, added as (s0 + s1) + (s2 + s3);
   then the chunk sums by TreeSum. */
static double RefSumDevOrder(long n, const double *x)
{
  long    nc = (n + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
  double *w  = HMallocHost((size_t)(nc ? nc : 1)), r;

  for (long c = 0; c < nc; c++) {
    long   p0 = c * PPE_DEV_RED_CHUNK, len = n - p0 < PPE_DEV_RED_CHUNK ? n - p0 : PPE_DEV_RED_CHUNK, full = len / 4 * 4;
    double a[4] = {0.0, 0.0, 0.0, 0.0};

    for (long i = 0; i < full; i++) a[i % 4] += x[p0 + i];
    for (long i = full; i < len; i++) a[0] += x[p0 + i];
    w[c] = (a[0] + a[1]) + (a[2] + a[3]);
  }
  r = TreeSum(w, nc);
  free(w);
  return r;
}

/* sum at the sizes ns[] (values with large ones among them, so that the order shows):
   bitwise against the reference order, and against a dot product with ones (dot: the bits
   the device's sums had before there was a sum launcher). */
static void CheckSum(const long *ns, int nns)
{
  long    nmax = ns[nns - 1];
  double *x = HMallocHost((size_t)nmax), *ones = HMallocHost((size_t)nmax), *d, *dones, *work;
  double  diff = 0.0, dd = 0.0;
  int     same = 1, samedot = 1;

  HFill(x, (size_t)nmax, -1.0, 1.0);
  for (long i = 0; i < nmax; i++) {
    if (i % 7 == 0) x[i] *= 1e8;
    ones[i] = 1.0;
  }
  d     = HUpload(x, (size_t)nmax);
  dones = HUpload(ones, (size_t)nmax);
  work  = HAlloc(PPE_DEV_RED_WORK(nmax, 1));
  for (int in = 0; in < nns; in++) {
    double s, sdot, ref = RefSumDevOrder(ns[in], x);

    HCALL(H.ops->sum(ns[in], d, work, &s, H.stream));
    HCALL(H.ops->dot(ns[in], 1, d, dones, NULL, work, &sdot, H.stream));
    if (!HBitwise(&s, &ref, 1, &dd)) same = 0;
    if (dd > diff || isnan(dd)) diff = dd;
    if (!HBitwise(&s, &sdot, 1, &dd)) samedot = 0;
  }
  HCheck("sum", same, "n = 0 .. %ld (%d sizes, up to two levels of the reduction tree): bitwise equal to a host sum in the device's order (chunks of %d values, four running sums, fixed reduction tree), max difference %.2e", nmax, nns,
         PPE_DEV_RED_CHUNK, diff);
  HCheck("sum", samedot, "same sizes: bitwise equal to the device's dot product with a vector of ones");
  HFree(work);
  HFree(dones);
  HFree(d);
  free(ones);
  free(x);
}

/* ---- ts_combine, ts_axpy, ts_cheb ---- */

/* S = S - Q B in place as the host back end does it: rows in chunks of HOST_CHUNK, columns
   in tiles of PPE_TS_TB, S padded by repeating its last column (read, never written) and B
   by zero columns. */
static void RefCombine(long n, int k, double *const *q, int m, double *const *s, const double *B)
{
  double  Bp[NCOL * NCOL];
  double *sp[NCOL];
  int     mp = ((m + PPE_TS_TB - 1) / PPE_TS_TB) * PPE_TS_TB;

  for (int j = 0; j < mp; j++) sp[j] = s[j < m ? j : m - 1];
  for (int j = 0; j < mp; j++)
    for (int i = 0; i < k; i++) Bp[i + k * j] = j < m ? B[i + k * j] : 0.0;
  for (long p0 = 0; p0 < n; p0 += HOST_CHUNK) {
    long p1 = p0 + HOST_CHUNK < n ? p0 + HOST_CHUNK : n;
    for (int jt = 0; jt < m; jt += PPE_TS_TB) {
      double *t[PPE_TS_TB];
      for (int j = 0; j < PPE_TS_TB; j++) t[j] = sp[jt + j] + p0;
      ppe_ts_combine_tile(k, (const double *const *)q, (const double *const *)(sp + jt), Bp + (size_t)k * jt, k, m - jt < PPE_TS_TB ? m - jt : PPE_TS_TB, p0, p1, t);
    }
  }
}

/* Device column d (nmax doubles) against host h, bitwise; accumulates into *same, *diff. */
static void SameDev(const double *d, const double *h, long nmax, double *tmp, int *same, double *diff)
{
  double e;

  HGet(tmp, d, (size_t)nmax);
  if (!HBitwise(tmp, h, (size_t)nmax, &e)) *same = 0;
  if (e > *diff || isnan(e)) *diff = e;
}

static void CheckCombine(const Cols *X, const Cols *Y, const long *ns, int nns)
{
  /* {k, m} of t193 */
  static const int cases[][2] = {
    {1,    1   },
    {2,    3   },
    {5,    4   },
    {13,   10  },
    {7,    1   },
    {NCOL, NCOL},
    {NCOL, 6   }
  };
  const int ncases = (int)(sizeof(cases) / sizeof(cases[0]));
  long      nmax   = X->nmax;
  double   *B = HMallocHost(NCOL * NCOL), *tmp = HMallocHost((size_t)nmax), *S[NCOL], *dS[NCOL], *work, diff = 0.0;
  int       same    = 1;
  char      bad[64] = "";

  HFill(B, NCOL * NCOL, -1.0, 1.0);
  for (int j = 0; j < NCOL; j++) {
    S[j]  = HMallocHost((size_t)nmax);
    dS[j] = HAlloc((size_t)nmax);
  }
  work = HAlloc(PPE_DEV_TS_COMBINE_WORK(NCOL, NCOL));
  for (int in = 0; in < nns; in++) {
    long n = ns[in];
    for (int c = 0; c < ncases; c++) {
      int           k = cases[c][0], m = cases[c][1], csame = 1;
      const double *dq[NCOL];

      for (int j = 0; j < k; j++) dq[j] = X->d[j];
      for (int j = 0; j < m; j++) {
        memcpy(S[j], Y->h[j], (size_t)nmax * sizeof(double));
        HPut(dS[j], Y->h[j], (size_t)nmax);
      }
      RefCombine(n, k, X->h, m, S, B);
      HCALL(H.ops->ts_combine(n, k, dq, m, dS, B, work, H.stream));
      for (int j = 0; j < m; j++) SameDev(dS[j], S[j], nmax, tmp, &csame, &diff);
      if (!csame && same) snprintf(bad, sizeof(bad), "; first bad: n = %ld, k = %d, m = %d", n, k, m);
      same = same && csame;
    }
  }
  HCheck("ts_combine", same, "S -= Q B in place, %d shapes k x m (1x1 .. 48x48), n = %ld .. %ld (%d sizes): bitwise equal to the host loops over the whole columns of %ld rows, max difference %.2e%s", ncases, ns[0], ns[nns - 1], nns, nmax, diff, bad);
  for (int j = 0; j < NCOL; j++) {
    free(S[j]);
    HFree(dS[j]);
  }
  HFree(work);
  free(B);
  free(tmp);
}

static void CheckAxpy(const Cols *X, const Cols *Y, const long *ns, int nns)
{
  static const int ks[] = {1, 3, 4, 13, NCOL};
  const int        nks  = (int)(sizeof(ks) / sizeof(ks[0]));
  long             nmax = X->nmax;
  double          *x0 = HMallocHost((size_t)nmax), *r0 = HMallocHost((size_t)nmax), *x = HMallocHost((size_t)nmax);
  double          *r = HMallocHost((size_t)nmax), *tmp = HMallocHost((size_t)nmax), *dx = HAlloc((size_t)nmax), *dr = HAlloc((size_t)nmax);
  double           coef[NCOL], diff = 0.0;
  const double    *dq[NCOL], *daq[NCOL];
  int              same    = 1;
  char             bad[48] = "";

  HFill(x0, (size_t)nmax, -1.0, 1.0);
  HFill(r0, (size_t)nmax, -1.0, 1.0);
  HFill(coef, NCOL, -1.0, 1.0);
  for (int j = 0; j < NCOL; j++) {
    dq[j]  = X->d[j];
    daq[j] = Y->d[j];
  }
  for (int in = 0; in < nns; in++) {
    long n = ns[in];
    for (int c = 0; c < nks; c++) {
      int k = ks[c], csame = 1;
      memcpy(x, x0, (size_t)nmax * sizeof(double));
      memcpy(r, r0, (size_t)nmax * sizeof(double));
      ppe_ts_axpy_rows(k, (const double *const *)X->h, (const double *const *)Y->h, coef, 0, n, x, r);
      HPut(dx, x0, (size_t)nmax);
      HPut(dr, r0, (size_t)nmax);
      HCALL(H.ops->ts_axpy(n, k, dq, daq, coef, dx, dr, H.stream));
      SameDev(dx, x, nmax, tmp, &csame, &diff);
      SameDev(dr, r, nmax, tmp, &csame, &diff);
      if (!csame && same) snprintf(bad, sizeof(bad), "; first bad: n = %ld, k = %d", n, k);
      same = same && csame;
    }
  }
  HCheck("ts_axpy", same, "x += Q a, r -= AQ a, k = 1, 3, 4, 13, 48, n = %ld .. %ld (%d sizes): bitwise equal to the host body over the whole columns, max difference %.2e%s", ns[0], ns[nns - 1], nns, diff, bad);
  free(x0);
  free(r0);
  free(x);
  free(r);
  free(tmp);
  HFree(dx);
  HFree(dr);
}

static void CheckCheb(const Cols *X, const long *ns, int nns)
{
  long    nmax = X->nmax;
  double *out = HMallocHost((size_t)nmax), *zold = HMallocHost((size_t)nmax), *tmp = HMallocHost((size_t)nmax);
  double *dout = HAlloc((size_t)nmax), *dzold = HAlloc((size_t)nmax), diff = 0.0;
  int     same    = 1;
  char    bad[64] = "";

  HFill(out, (size_t)nmax, -1.0, 1.0);
  HPut(dout, out, (size_t)nmax); /* rows past n keep these values on both sides */
  for (int in = 0; in < nns; in++) {
    long n  = ns[in];
    int  s0 = same;
    /* out distinct from zold */
    ppe_ts_cheb_rows(2.5, X->h[0], 0.75, X->h[1], X->h[2], 0, n, out);
    HCALL(H.ops->ts_cheb(n, 2.5, X->d[0], 0.75, X->d[1], X->d[2], dout, H.stream));
    SameDev(dout, out, nmax, tmp, &same, &diff);
    /* zold NULL */
    ppe_ts_cheb_rows(2.5, X->h[0], 0.75, X->h[1], NULL, 0, n, out);
    HCALL(H.ops->ts_cheb(n, 2.5, X->d[0], 0.75, X->d[1], NULL, dout, H.stream));
    SameDev(dout, out, nmax, tmp, &same, &diff);
    /* out == zold, the recurrence's in-place step */
    memcpy(zold, X->h[3], (size_t)nmax * sizeof(double));
    ppe_ts_cheb_rows(-1.5, X->h[0], 0.25, X->h[1], zold, 0, n, zold);
    HPut(dzold, X->h[3], (size_t)nmax);
    HCALL(H.ops->ts_cheb(n, -1.5, X->d[0], 0.25, X->d[1], dzold, dzold, H.stream));
    SameDev(dzold, zold, nmax, tmp, &same, &diff);
    if (s0 && !same) snprintf(bad, sizeof(bad), "; first bad: n = %ld", n);
  }
  HCheck("ts_cheb", same, "out = c1 az - c2 z - zold with out distinct, zold NULL, out = zold, n = %ld .. %ld (%d sizes): bitwise equal to the host body over whole columns, max difference %.2e%s", ns[0], ns[nns - 1], nns, diff, bad);
  free(out);
  free(zold);
  free(tmp);
  HFree(dout);
  HFree(dzold);
}

/* More than PPE_DEV_TS_MAXCOLS columns: an error, before any column is read. */
static void CheckGuards(const Cols *X)
{
  const double *c[NCOL + 1];
  double       *s[NCOL + 1], B[(NCOL + 1) * (NCOL + 1)], coef[NCOL + 1], out[(NCOL + 1) * (NCOL + 1)];
  double       *work = HAlloc(PPE_DEV_RED_WORK(16, (NCOL + 1) * (NCOL + 1)) + PPE_DEV_TS_COMBINE_WORK(NCOL + 1, NCOL + 1));
  int           eg, ec, ea;

  for (int j = 0; j <= NCOL; j++) {
    c[j]    = X->d[j % NCOL];
    s[j]    = X->d[j % NCOL];
    coef[j] = 0.0;
  }
  for (int i = 0; i < (NCOL + 1) * (NCOL + 1); i++) B[i] = 0.0;
  eg = H.ops->ts_gram(16, NCOL + 1, c, 1, c, NCOL + 1, work, out, H.stream);
  ec = H.ops->ts_combine(16, 1, c, NCOL + 1, s, B, work, H.stream);
  ea = H.ops->ts_axpy(16, NCOL + 1, c, c, coef, s[0], s[1], H.stream);
  HSync();
  HCheck("ts_guards", eg != 0 && ec != 0 && ea != 0, "ts_gram, ts_combine, ts_axpy with %d columns refused: return codes %d, %d, %d", NCOL + 1, eg, ec, ea);
  HFree(work);
}

/* ---- tp_copy ---- */

static long Volume(const long b[6])
{
  return b[3] * b[4] * b[5];
}

/* index of global point (x, y, z) in array box arr */
static long At(const long arr[6], long x, long y, long z)
{
  return ((z - arr[2]) * arr[4] + (y - arr[1])) * arr[3] + (x - arr[0]);
}

/* dst box = src box * scale + shift by the definition (the product alone when shift is 0) */
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

/* whether box lies inside array box arr */
static int Inside(const long arr[6], const long box[6])
{
  for (int d = 0; d < 3; d++)
    if (box[d + 3] > 0 && (box[d] < arr[d] || box[d] + box[d + 3] > arr[d] + arr[d + 3])) return 0;
  return 1;
}

/* One case; the target's points outside the box must keep their values. */
static int CopyCase(const long sarr[6], const long box[6], const long tarr[6], int scaled, double shift, double *diff)
{
  long    ns = Volume(sarr), nt = Volume(tarr);
  double *src = HMallocHost((size_t)ns), *scale = HMallocHost((size_t)ns), *dst = HMallocHost((size_t)nt), *tmp = HMallocHost((size_t)nt);
  double *dsrc, *dscale = NULL, *ddst, e;
  int     same;

  if (!Inside(sarr, box) || !Inside(tarr, box)) {
    fprintf(stderr, "h_tsblock: a tp_copy case's box %ldx%ldx%ld is not inside its arrays\n", box[3], box[4], box[5]);
    exit(2);
  }
  HFill(src, (size_t)ns, -1.0, 1.0);
  HFill(scale, (size_t)ns, 0.5, 2.0);
  HFill(dst, (size_t)nt, -1.0, 1.0);
  dsrc = HUpload(src, (size_t)ns);
  if (scaled) dscale = HUpload(scale, (size_t)ns);
  ddst = HUpload(dst, (size_t)nt);
  RefCopy(src, scaled ? scale : NULL, shift, sarr, box, tarr, dst);
  HCALL(H.ops->tp_copy(dsrc, dscale, shift, sarr, box, tarr, ddst, H.stream));
  HGet(tmp, ddst, (size_t)nt);
  same = HBitwise(tmp, dst, (size_t)nt, &e);
  if (e > *diff || isnan(e)) *diff = e;
  HFree(dsrc);
  if (scaled) HFree(dscale);
  HFree(ddst);
  free(src);
  free(scale);
  free(dst);
  free(tmp);
  return same;
}

static void CheckCopy(void)
{
  /* the boxes of t193 */
  static const long arrA[6] = {-1, 2, 0, 9, 7, 5};  /* an array box with ghosts */
  static const long arrB[6] = {0, 1, -2, 6, 11, 8}; /* another layout */
  static const long box[6]  = {0, 3, 1, 5, 4, 3};   /* inside both */
  static const long line[6] = {2, 4, 2, 1, 1, 3};   /* one point wide */
  /* larger ones: several thread blocks, odd extents, negative origins */
  static const long garr[6]  = {-3, -2, -1, 70, 37, 11};
  static const long gbox[6]  = {-1, 0, 1, 65, 33, 9};
  static const long harr[6]  = {-1, -2, 0, 67, 36, 12};
  static const long xline[6] = {-1, 5, 3, 66, 1, 1};
  static const long yline[6] = {7, -2, 2, 1, 35, 1};
  static const long empty[6] = {0, 3, 1, 5, 4, 0};
  double            dp = 0.0, du = 0.0, dc = 0.0, de = 0.0;
  int               p = 1, u = 1, c = 1, e;

  p = CopyCase(arrA, box, box, 0, 0.0, &dp) && p;
  p = CopyCase(arrA, box, box, 1, 0.0, &dp) && p;
  p = CopyCase(garr, gbox, gbox, 1, 0.25, &dp) && p;
  p = CopyCase(garr, gbox, gbox, 0, -1.0, &dp) && p;
  HCheck("tp_copy", p, "pack into a contiguous target: 5x4x3 from a ghosted 9x7x5 plain and with scale, 65x33x9 from 70x37x11 with scale and shift, with shift: bitwise equal to plain loops, max difference %.2e", dp);
  u = CopyCase(box, box, arrB, 0, 0.125, &du) && u;
  u = CopyCase(line, line, arrA, 0, 0.0, &du) && u;
  u = CopyCase(gbox, gbox, harr, 1, 0.0, &du) && u;
  HCheck("tp_copy", u, "unpack from a contiguous source: 5x4x3 into 6x11x8 with shift, 1x1x3 line into 9x7x5, 65x33x9 into 67x36x12 with scale: bitwise equal to plain loops, points outside the box kept, max difference %.2e", du);
  c = CopyCase(arrA, box, arrB, 1, 0.0, &dc) && c;
  c = CopyCase(arrB, box, arrA, 1, -3.5, &dc) && c;
  c = CopyCase(garr, gbox, harr, 0, 0.0, &dc) && c;
  c = CopyCase(harr, xline, garr, 1, 2.0, &dc) && c;
  c = CopyCase(garr, yline, harr, 0, 0.5, &dc) && c;
  HCheck("tp_copy", c, "array to array: 5x4x3 with scale, with scale and shift, 65x33x9 plain, 66x1x1 x line with scale and shift, 1x35x1 y line with shift: bitwise equal to plain loops, max difference %.2e", dc);
  e = CopyCase(arrA, empty, arrB, 1, 1.0, &de);
  HCheck("tp_copy", e, "empty box (5x4x0): the target unchanged (max difference %.2e)", de);
}

/* ---- timings ---- */

/* n doubles of device memory from the host values h[0..hn), repeated (one upload per piece,
   not point by point). */
static void FillDev(double *d, size_t n, const double *h, size_t hn)
{
  for (size_t off = 0; off < n; off += hn) HPut(d + off, h, n - off < hn ? n - off : hn);
}

static void TimeTS(void)
{
  const long sides[2] = {H.emu ? 16 : 128, H.emu ? 32 : 256};
  size_t     nbig     = (size_t)sides[1] * (size_t)sides[1] * (size_t)sides[1];
  size_t     hn       = nbig < ((size_t)1 << 22) ? nbig : ((size_t)1 << 22);
  double    *h        = HMallocHost(hn + 64), *x[16], *y[16], *work, out[16 * 16], B[16 * 8], coef[8];
  char       size[40];

  HFill(h, hn + 64, -1.0, 1.0);
  HFill(B, 16 * 8, -0.01, 0.01);
  HFill(coef, 8, -0.01, 0.01);
  /* 32 columns: 4.3 GB at 256^3 */
  for (int j = 0; j < 16; j++) {
    x[j] = HAlloc(nbig);
    y[j] = HAlloc(nbig);
    FillDev(x[j], nbig, h + j, hn);
    FillDev(y[j], nbig, h + 32 + j, hn);
  }
  work = HAlloc(PPE_DEV_RED_WORK((long)nbig, 16 * 16) + PPE_DEV_TS_COMBINE_WORK(16, 8));
  HSync();
  for (int is = 0; is < 2; is++) {
    long          n  = sides[is] * sides[is] * sides[is];
    double        nb = (double)n * (double)sizeof(double), t;
    const double *cx[16], *cy[16];

    for (int j = 0; j < 16; j++) {
      cx[j] = x[j];
      cy[j] = y[j];
    }
    /* Gram of a 16x16 block (two blocks of s = 8 columns against two): 32 columns read */
    HTIME(t, HCALL(H.ops->ts_gram(n, 16, cx, 16, cy, 16, work, out, H.stream)));
    snprintf(size, sizeof(size), "%ld^3, 16x16 full", sides[is]);
    HTiming("ts_gram", size, t, 32.0 * nb, NULL, 0.0);
    /* Gram of an 8x8 block with band 1: 16 columns read */
    HTIME(t, HCALL(H.ops->ts_gram(n, 8, cx, 8, cy, 1, work, out, H.stream)));
    snprintf(size, sizeof(size), "%ld^3, 8x8 band 1", sides[is]);
    HTiming("ts_gram", size, t, 16.0 * nb, NULL, 0.0);
    /* S -= Q B, k = 16 (two blocks of s), m = 8: 16 Q read, 8 S read and written */
    HTIME(t, HCALL(H.ops->ts_combine(n, 16, cx, 8, y, B, work, H.stream)));
    snprintf(size, sizeof(size), "%ld^3, k 16, m 8", sides[is]);
    HTiming("ts_combine", size, t, 32.0 * nb, NULL, 0.0);
    /* x += Q a, r -= AQ a, k = 8: 16 columns read, x and r read and written */
    HTIME(t, HCALL(H.ops->ts_axpy(n, 8, cx, cx + 8, coef, y[8], y[9], H.stream)));
    snprintf(size, sizeof(size), "%ld^3, k 8", sides[is]);
    HTiming("ts_axpy", size, t, 20.0 * nb, NULL, 0.0);
    /* out = c1 az - c2 z - zold: 3 read, 1 written */
    HTIME(t, HCALL(H.ops->ts_cheb(n, 2.5, x[0], 0.75, x[1], x[2], y[10], H.stream)));
    snprintf(size, sizeof(size), "%ld^3", sides[is]);
    HTiming("ts_cheb", size, t, 4.0 * nb, NULL, 0.0);
  }
  for (int j = 0; j < 16; j++) {
    HFree(x[j]);
    HFree(y[j]);
  }
  HFree(work);
  free(h);
}

static void TimeCopy(void)
{
  const long side    = H.emu ? 32 : 512;
  const long box[6]  = {0, 0, 0, side, side, side};
  const long garr[6] = {-2, -1, -1, side + 4, side + 2, side + 2}; /* ghosts 2 in x, 1 in y and z */
  size_t     nv = (size_t)Volume(box), ng = (size_t)Volume(garr);
  size_t     hn = nv < ((size_t)1 << 22) ? nv : ((size_t)1 << 22);
  double    *h = HMallocHost(hn + 64), *g = HAlloc(ng), *c = HAlloc(nv), *sc = HAlloc(nv), t, nb = (double)nv * (double)sizeof(double);
  char       size[40];

  HFill(h, hn + 64, 0.5, 2.0);
  FillDev(g, ng, h, hn);
  FillDev(c, nv, h + 7, hn);
  FillDev(sc, nv, h + 13, hn);
  HSync();
  /* pack: the box read from the ghosted array, written contiguous */
  HTIME(t, HCALL(H.ops->tp_copy(g, NULL, 0.0, garr, box, box, c, H.stream)));
  snprintf(size, sizeof(size), "%ld^3 box, pack", side);
  HTiming("tp_copy", size, t, 2.0 * nb, NULL, 0.0);
  /* unpack with scale and shift: source and scale read, the box of the ghosted array written */
  HTIME(t, HCALL(H.ops->tp_copy(c, sc, 0.5, box, box, garr, g, H.stream)));
  snprintf(size, sizeof(size), "%ld^3 box, unpack scale+shift", side);
  HTiming("tp_copy", size, t, 3.0 * nb, NULL, 0.0);
  HFree(g);
  HFree(c);
  HFree(sc);
  free(h);
}

void HFamily_tsblock(void)
{
  /* row counts of t193, and n = 0 */
  static const long ns[]   = {0, 1, 7, 255, 256, 257, 1000, 4099};
  static const long nbig[] = {131077};
  const int         nns    = (int)(sizeof(ns) / sizeof(ns[0]));
  /* {nx, ny, band, y = x} of t193 */
  static const int cases[][4] = {
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
  static const int bigcases[][4] = {
    {1,  1,  1, 0},
    {5,  3,  1, 0},
    {2,  7,  0, 0},
    {12, 12, 1, 1}
  };
  Cols X, Y;

  ColsCreate(&X, ns[nns - 1], NCOL);
  ColsCreate(&Y, ns[nns - 1], NCOL);
  CheckGram("n = 0 .. 4099 (8 sizes)", &X, &Y, ns, nns, cases, (int)(sizeof(cases) / sizeof(cases[0])));
  CheckCombine(&X, &Y, ns, nns);
  CheckAxpy(&X, &Y, ns, nns);
  CheckCheb(&X, ns, nns);
  CheckGuards(&X);
  ColsDestroy(&X);
  ColsDestroy(&Y);

  ColsCreate(&X, nbig[0], 12);
  ColsCreate(&Y, nbig[0], 12);
  CheckGram("n = 131077 (two levels of the reduction tree)", &X, &Y, nbig, 1, bigcases, (int)(sizeof(bigcases) / sizeof(bigcases[0])));
  ColsDestroy(&X);
  ColsDestroy(&Y);

  {
    static const long sumns[] = {0, 1, 3, 7, 255, 256, 257, 1000, 65537, 131077};
    CheckSum(sumns, (int)(sizeof(sumns) / sizeof(sumns[0])));
  }
  CheckCopy();

  TimeTS();
  TimeCopy();
}

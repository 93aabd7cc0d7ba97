/*
   Device launchers of the tall-skinny block kernels of KSP cbcg (src/kernels/tsblock.h).
   Column lists (host arrays of device pointers) and the coefficients of the x/r update travel
   by value in the launch's arguments, padded to whole tiles as the host back end pads them
   (src/backend/host/tsblock_host.c: the last column repeated, zero coefficient columns).

     gram     one thread per (tile pair, chunk of PPE_DEV_RED_CHUNK rows): the tile's partial
              sums into work, summed over the chunks by PPEDevReduce (krylov_dev.h); tiles
              wholly below the band are skipped as on the host. Differs from the host's sums
              by rounding only (other row chunks).
     combine  one thread per (column tile, PPE_TS_LANES rows), in place as on the host
     axpy     one thread per PPE_TS_LANES rows
     cheb     one thread per row
   Combine, axpy and cheb give the host's bits: the body's value of a row does not depend on
   the range it is called on.
*/
#include "ops.h"

#if defined(PPE_DEV_CUDA)
  #define PPE_DEV_TS_EINVAL ((int)cudaErrorInvalidValue)
#elif defined(PPE_DEV_HIP)
  #define PPE_DEV_TS_EINVAL ((int)hipErrorInvalidValue)
#else
  #define PPE_DEV_TS_EINVAL 2
#endif

/* rows per thread of combine and axpy */
#define PPE_DEV_TS_ROWS PPE_TS_LANES

/* ---- Gram products ---- */

typedef struct {
  const double *x[PPE_DEV_TS_MAXCOLS], *y[PPE_DEV_TS_MAXCOLS]; /* padded */
  double       *w;
  long          n, nc;
  int           nx, ny, nta, band;
} ppe_dev_gram_args;

/* thread (tile, c): tile (ta, tb) on rows of chunk c; partial of x_a . y_b at
   w[(a + nx b) nc + c] for a < nx, b < ny (zero for a tile below the band) */
PPE_DEV_KERNEL(ppe_dev_ts_gram, ppe_dev_gram_args)
{
  long   c = t % a->nc, tile = t / a->nc, p0 = c * PPE_DEV_RED_CHUNK;
  long   p1 = p0 + PPE_DEV_RED_CHUNK < a->n ? p0 + PPE_DEV_RED_CHUNK : a->n;
  int    ta = (int)(tile % a->nta), tb = (int)(tile / a->nta);
  int    bmax = (tb + 1) * PPE_TS_TB - 1 < a->ny - 1 ? (tb + 1) * PPE_TS_TB - 1 : a->ny - 1;
  int    skip = bmax < ta * PPE_TS_TA - a->band; /* the whole tile lies below the band */
  double v[PPE_TS_TA * PPE_TS_TB];

  if (skip)
    for (int q = 0; q < PPE_TS_TA * PPE_TS_TB; q++) v[q] = 0.0;
  else ppe_ts_gram_tile(a->x + ta * PPE_TS_TA, a->y + tb * PPE_TS_TB, p0, p1, v);
  for (int ib = 0; ib < PPE_TS_TB; ib++)
    for (int ia = 0; ia < PPE_TS_TA; ia++) {
      int ca = ta * PPE_TS_TA + ia, cb = tb * PPE_TS_TB + ib;
      if (ca < a->nx && cb < a->ny) a->w[(long)(ca + a->nx * cb) * a->nc + c] = v[ia + PPE_TS_TA * ib];
    }
}

/* work: PPE_DEV_RED_WORK(n, nx*ny) doubles */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSGram)(long n, int nx, const double *const *x, int ny, const double *const *y, int band, double *work, double *out, void *stream)
{
  ppe_dev_gram_args a;
  int               nxp, nyp, ncols = nx * ny;

  if (nx <= 0 || ny <= 0) return 0;
  if (nx > PPE_DEV_TS_MAXCOLS || ny > PPE_DEV_TS_MAXCOLS) return PPE_DEV_TS_EINVAL;
  nxp = ((nx + PPE_TS_TA - 1) / PPE_TS_TA) * PPE_TS_TA;
  nyp = ((ny + PPE_TS_TB - 1) / PPE_TS_TB) * PPE_TS_TB;
  memset(&a, 0, sizeof(a));
  for (int i = 0; i < nxp; i++) a.x[i] = x[i < nx ? i : nx - 1];
  for (int i = 0; i < nyp; i++) a.y[i] = y[i < ny ? i : ny - 1];
  a.w    = work;
  a.n    = n > 0 ? n : 0;
  a.nc   = (a.n + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
  a.nx   = nx;
  a.ny   = ny;
  a.nta  = nxp / PPE_TS_TA;
  a.band = band;
  PPE_DEV_LAUNCH(ppe_dev_ts_gram, (long)a.nta * (nyp / PPE_TS_TB) * a.nc, stream, a);
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevReduce)(a.nc, ncols, work, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevCopy)(out, work + (size_t)ncols * (size_t)a.nc, (size_t)ncols * sizeof(double), PPE_DEV_D2H, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevSync)(stream));
  for (int b = 0; b < ny; b++)
    for (int i = 0; i < nx; i++)
      if (b < i - band) out[i + nx * b] = 0.0;
  return 0;
}

/* ---- S = S - Q B in place ---- */

typedef struct {
  const double *q[PPE_DEV_TS_MAXCOLS];
  double       *s[PPE_DEV_TS_MAXCOLS]; /* padded: read, never written */
  const double *B;                     /* k x mp, zero columns from m on */
  long          n, nch;
  int           k, m;
} ppe_dev_combine_args;

/* thread (tile, c): columns [jt, jt + PPE_TS_TB) on rows [c R, (c + 1) R), R = PPE_DEV_TS_ROWS */
PPE_DEV_KERNEL(ppe_dev_ts_combine, ppe_dev_combine_args)
{
  long    c = t % a->nch, p0 = c * PPE_DEV_TS_ROWS;
  long    p1 = p0 + PPE_DEV_TS_ROWS < a->n ? p0 + PPE_DEV_TS_ROWS : a->n;
  int     jt = (int)(t / a->nch) * PPE_TS_TB;
  double *d[PPE_TS_TB];

  for (int j = 0; j < PPE_TS_TB; j++) d[j] = a->s[jt + j] + p0;
  ppe_ts_combine_tile(a->k, a->q, (const double *const *)(a->s + jt), a->B + (size_t)a->k * jt, a->k, a->m - jt < PPE_TS_TB ? a->m - jt : PPE_TS_TB, p0, p1, d);
}

/* work: k * (m rounded up to PPE_TS_TB) doubles (PPE_DEV_TS_COMBINE_WORK), for the padded B */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSCombine)(long n, int k, const double *const *q, int m, double *const *s, const double *B, double *work, void *stream)
{
  ppe_dev_combine_args a;
  double               Bp[PPE_DEV_TS_MAXCOLS * PPE_DEV_TS_MAXCOLS];
  int                  mp;

  if (n <= 0 || m <= 0) return 0;
  if (k < 0 || k > PPE_DEV_TS_MAXCOLS || m > PPE_DEV_TS_MAXCOLS) return PPE_DEV_TS_EINVAL;
  mp = ((m + PPE_TS_TB - 1) / PPE_TS_TB) * PPE_TS_TB;
  for (int j = 0; j < mp; j++)
    for (int i = 0; i < k; i++) Bp[i + k * j] = j < m ? B[i + k * j] : 0.0;
  /* from pageable memory: the copy has taken Bp when it returns */
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevCopy)(work, Bp, (size_t)k * (size_t)mp * sizeof(double), PPE_DEV_H2D, stream));
  memset(&a, 0, sizeof(a));
  for (int i = 0; i < k; i++) a.q[i] = q[i];
  for (int j = 0; j < mp; j++) a.s[j] = s[j < m ? j : m - 1];
  a.B   = work;
  a.n   = n;
  a.nch = (n + PPE_DEV_TS_ROWS - 1) / PPE_DEV_TS_ROWS;
  a.k   = k;
  a.m   = m;
  PPE_DEV_LAUNCH(ppe_dev_ts_combine, (long)(mp / PPE_TS_TB) * a.nch, stream, a);
  return 0;
}

/* ---- x += Q coef, r -= AQ coef ---- */

typedef struct {
  const double *q[PPE_DEV_TS_MAXCOLS], *aq[PPE_DEV_TS_MAXCOLS];
  double        coef[PPE_DEV_TS_MAXCOLS];
  double       *x, *r;
  long          n;
  int           k;
} ppe_dev_axpy_args;

PPE_DEV_KERNEL(ppe_dev_ts_axpy, ppe_dev_axpy_args)
{
  long p0 = t * PPE_DEV_TS_ROWS, p1 = p0 + PPE_DEV_TS_ROWS < a->n ? p0 + PPE_DEV_TS_ROWS : a->n;

  ppe_ts_axpy_rows(a->k, a->q, a->aq, a->coef, p0, p1, a->x, a->r);
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSAxpy)(long n, int k, const double *const *q, const double *const *aq, const double *coef, double *x, double *r, void *stream)
{
  ppe_dev_axpy_args a;

  if (n <= 0) return 0;
  if (k < 0 || k > PPE_DEV_TS_MAXCOLS) return PPE_DEV_TS_EINVAL;
  memset(&a, 0, sizeof(a));
  for (int i = 0; i < k; i++) {
    a.q[i]    = q[i];
    a.aq[i]   = aq[i];
    a.coef[i] = coef[i];
  }
  a.x = x;
  a.r = r;
  a.n = n;
  a.k = k;
  PPE_DEV_LAUNCH(ppe_dev_ts_axpy, (n + PPE_DEV_TS_ROWS - 1) / PPE_DEV_TS_ROWS, stream, a);
  return 0;
}

/* ---- Chebyshev step ---- */

typedef struct {
  double        c1, c2;
  const double *az, *z, *zold;
  double       *out;
} ppe_dev_cheb_args;

PPE_DEV_KERNEL(ppe_dev_ts_cheb, ppe_dev_cheb_args)
{
  ppe_ts_cheb_rows(a->c1, a->az, a->c2, a->z, a->zold, t, t + 1, a->out);
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSCheb)(long n, double c1, const double *az, double c2, const double *z, const double *zold, double *out, void *stream)
{
  ppe_dev_cheb_args a;

  a.c1   = c1;
  a.c2   = c2;
  a.az   = az;
  a.z    = z;
  a.zold = zold;
  a.out  = out;
  PPE_DEV_LAUNCH(ppe_dev_ts_cheb, n, stream, a);
  return 0;
}

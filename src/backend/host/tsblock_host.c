/*
   Host back end of the tall-skinny block kernels of KSP cbcg (src/kernels/tsblock.h):
   chunked loops over the rank's rows, compiled twice (any CPU, and AVX2 chosen at run time
   on x86-64), plus the padding of column lists to whole tiles.

   Padding: a list of columns is extended to a multiple of the tile size by repeating its
   last column (and the coefficient matrix of the combine by zero columns); the extra
   results are computed and dropped, so every tile runs the same fixed-size body.
*/
#include <ppekit/private/sstepimpl.h>
#include <kernels/tsblock.h>
#include "host.h"
#include "simd.h"

#ifndef PPE_TS_CHUNK
  #define PPE_TS_CHUNK 128 /* rows per chunk: 2s+2 columns of a chunk stay in L1/L2 */
#endif

/* The chunked loops (tsblock_host_body.h), generic and AVX2. */
#define PPE_HOST_BODY "tsblock_host_body.h"
#include "simd_instances.h"

static int ts_instance = -1; /* -1: not chosen yet; 0: generic; 1: AVX2 */

static int TSInstance(void)
{
  if (ts_instance < 0) ts_instance = PPEHostHasAVX2() ? 1 : 0;
  return ts_instance;
}

/*
   PPETSHostSetInstance - choose the instance of the host loops: PETSC_FALSE for the generic
   one, PETSC_TRUE for AVX2 where the CPU has it (the default). Returns whether AVX2 is used.
   For tests, which check that both give the same bits.
*/
PetscBool PPETSHostSetInstance(PetscBool avx2)
{
  ts_instance = -1;
  if (avx2) return TSInstance() ? PETSC_TRUE : PETSC_FALSE;
  ts_instance = 0;
  return PETSC_FALSE;
}

/* Pad a column list to a multiple of m by repeating the last column. */
static int PadColumns(int n, const double *const *c, int m, const double **cp)
{
  int np = ((n + m - 1) / m) * m;
  for (int i = 0; i < np; i++) cp[i] = c[i < n ? i : n - 1];
  return np;
}

void PPETSGram_Host(PetscInt n, PetscInt nx, const double *const *x, PetscInt ny, const double *const *y, PetscInt band, double *out)
{
  const double *xp[PPE_TS_MAXCOLS], *yp[PPE_TS_MAXCOLS];
  double        acc[PPE_TS_MAXCOLS * PPE_TS_MAXCOLS];
  int           nxp = PadColumns((int)nx, x, PPE_TS_TA, xp), nyp = PadColumns((int)ny, y, PPE_TS_TB, yp);

  for (int i = 0; i < nxp * nyp; i++) acc[i] = 0.0;
  PPE_HOST_DISPATCH(TSInstance(), Gram, ((long)n, (int)nx, xp, (int)ny, yp, (int)band, acc));
  for (PetscInt b = 0; b < ny; b++)
    for (PetscInt a = 0; a < nx; a++) out[a + nx * b] = (b >= a - band) ? acc[a + nxp * b] : 0.0;
}

void PPETSCombine_Host(PetscInt n, PetscInt k, const double *const *q, PetscInt m, double *const *s, const double *B)
{
  double  Bp[PPE_TS_MAXCOLS * PPE_TS_MAXCOLS];
  double *sp[PPE_TS_MAXCOLS];
  int     mp = (int)(((m + PPE_TS_TB - 1) / PPE_TS_TB) * PPE_TS_TB);

  for (int j = 0; j < mp; j++) sp[j] = s[j < m ? j : m - 1]; /* padding: read, never written */
  for (int j = 0; j < mp; j++)
    for (int i = 0; i < k; i++) Bp[i + k * j] = j < m ? B[i + k * j] : 0.0;
  PPE_HOST_DISPATCH(TSInstance(), Combine, ((long)n, (int)k, q, (int)m, sp, Bp));
}

void PPETSAxpy_Host(PetscInt n, PetscInt k, const double *const *q, const double *const *aq, const double *a, double *x, double *r)
{
  PPE_HOST_DISPATCH(TSInstance(), Axpy, ((long)n, (int)k, q, aq, a, x, r));
}

void PPETSCheb_Host(PetscInt n, double c1, const double *az, double c2, const double *z, const double *zold, double *out)
{
  PPE_HOST_DISPATCH(TSInstance(), Cheb, ((long)n, c1, az, c2, z, zold, out));
}

/* The same kernels with the signatures of the back-end table (host.h) */
int PPEHostTSGram(long n, int nx, const double *const *x, int ny, const double *const *y, int band, double *work, double *out, void *stream)
{
  (void)work;
  (void)stream;
  PPETSGram_Host(n, nx, x, ny, y, band, out);
  return 0;
}

int PPEHostTSCombine(long n, int k, const double *const *q, int m, double *const *s, const double *B, double *work, void *stream)
{
  (void)work;
  (void)stream;
  PPETSCombine_Host(n, k, q, m, s, B);
  return 0;
}

int PPEHostTSAxpy(long n, int k, const double *const *q, const double *const *aq, const double *coef, double *x, double *r, void *stream)
{
  (void)stream;
  PPETSAxpy_Host(n, k, q, aq, coef, x, r);
  return 0;
}

int PPEHostTSCheb(long n, double c1, const double *az, double c2, const double *z, const double *zold, double *out, void *stream)
{
  (void)stream;
  PPETSCheb_Host(n, c1, az, c2, z, zold, out);
  return 0;
}

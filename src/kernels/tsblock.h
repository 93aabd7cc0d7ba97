/*
   Single-source bodies of the tall-skinny block kernels of s-step Krylov methods (KSP cbcg).

   A block is a set of columns of the same length (the rank's rows of s vectors). The
   kernels work on a range of rows [p0, p1) so that a back end can cut the rows into chunks
   that stay in cache while every column of the chunk is used (host), or give each thread
   block its own range (device). Plain C over arrays: no PETSc objects.

     ppe_ts_gram_tile    partial sums of x_a . y_b for a tile of PPE_TS_TA x PPE_TS_TB
                         column pairs (the local part of Q^T A Q, Q^T r, Q^T A S)
     ppe_ts_combine_tile t_j = s_j - sum_i q_i B(i,j) for PPE_TS_TB columns j (S = S - Q B)
     ppe_ts_axpy_rows    x += Q a and r -= (AQ) a in one pass
     ppe_ts_cheb_rows    z_new = c1 az - c2 z - zold (one step of the Chebyshev recurrence)

   Rows are summed in PPE_TS_LANES interleaved partial sums, combined in a fixed order at the
   end of the range: the result depends on the range, never on the instruction set, so the
   host's SSE2 and AVX2 instances give the same bits. Products and sums are separate
   operations (no fused multiply-add), as everywhere in PPEKit.
*/
#ifndef PPE_KERNELS_TSBLOCK_H
#define PPE_KERNELS_TSBLOCK_H

#include "hd.h" /* PPE_HD_INLINE: the host's AVX2 loops get AVX2 bodies */

#define PPE_TS_TA    2 /* x columns of a Gram tile */
#define PPE_TS_TB    4 /* y columns of a Gram tile; columns produced together by combine */
#define PPE_TS_LANES 4 /* interleaved partial sums over rows */

/* On the host the lanes are a GCC/clang vector of 4 doubles (the compiler keeps the
   accumulators in registers; SSE2 or AVX2 by the instance); elsewhere plain arrays. Both do
   the same operations per lane in the same order. */
#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__) && !defined(PPE_TS_NO_VECTOR)
  #define PPE_TS_VECTOR 1
typedef double ppe_ts_v4 __attribute__((vector_size(4 * sizeof(double))));
  #include <string.h>
  /* unaligned load and store (macros: a function returning a vector would warn about the ABI
     in the instance compiled without AVX) */
  #define PPE_TS_LOAD(v, p)  memcpy(&(v), (p), sizeof(ppe_ts_v4))
  #define PPE_TS_STORE(p, v) memcpy((p), &(v), sizeof(ppe_ts_v4))
#else
  #define PPE_TS_VECTOR 0
#endif

/* out[a + PPE_TS_TA*b] = sum over rows [p0,p1) of x[a][p] * y[b][p]. */
PPE_HD_INLINE void ppe_ts_gram_tile(const double *const x[PPE_TS_TA], const double *const y[PPE_TS_TB], long p0, long p1, double out[PPE_TS_TA * PPE_TS_TB])
{
  double acc[PPE_TS_TA][PPE_TS_TB][PPE_TS_LANES];
  long   p = p0;

#if PPE_TS_VECTOR
  {
    ppe_ts_v4 va[PPE_TS_TA][PPE_TS_TB];
    PPE_UNROLL
    for (int a = 0; a < PPE_TS_TA; a++) {
      PPE_UNROLL
      for (int b = 0; b < PPE_TS_TB; b++) va[a][b] = (ppe_ts_v4){0.0, 0.0, 0.0, 0.0};
    }
    for (; p + PPE_TS_LANES <= p1; p += PPE_TS_LANES) {
      ppe_ts_v4 xv[PPE_TS_TA], yv[PPE_TS_TB];
      PPE_UNROLL
      for (int a = 0; a < PPE_TS_TA; a++) PPE_TS_LOAD(xv[a], x[a] + p);
      PPE_UNROLL
      for (int b = 0; b < PPE_TS_TB; b++) PPE_TS_LOAD(yv[b], y[b] + p);
      PPE_UNROLL
      for (int a = 0; a < PPE_TS_TA; a++) {
        PPE_UNROLL
        for (int b = 0; b < PPE_TS_TB; b++) va[a][b] += xv[a] * yv[b];
      }
    }
    for (int a = 0; a < PPE_TS_TA; a++)
      for (int b = 0; b < PPE_TS_TB; b++)
        for (int l = 0; l < PPE_TS_LANES; l++) acc[a][b][l] = va[a][b][l];
  }
#else
  for (int a = 0; a < PPE_TS_TA; a++)
    for (int b = 0; b < PPE_TS_TB; b++)
      for (int l = 0; l < PPE_TS_LANES; l++) acc[a][b][l] = 0.0;
  for (; p + PPE_TS_LANES <= p1; p += PPE_TS_LANES)
    for (int a = 0; a < PPE_TS_TA; a++)
      for (int b = 0; b < PPE_TS_TB; b++)
        for (int l = 0; l < PPE_TS_LANES; l++) acc[a][b][l] += x[a][p + l] * y[b][p + l];
#endif
  for (int l = 0; p < p1; p++, l++)
    for (int a = 0; a < PPE_TS_TA; a++)
      for (int b = 0; b < PPE_TS_TB; b++) acc[a][b][l] += x[a][p] * y[b][p];
  for (int a = 0; a < PPE_TS_TA; a++)
    for (int b = 0; b < PPE_TS_TB; b++) out[a + PPE_TS_TA * b] = (acc[a][b][0] + acc[a][b][1]) + (acc[a][b][2] + acc[a][b][3]);
}

/* For rows [p0,p1) and the PPE_TS_TB columns j of this tile:
     t[j][p - p0] = s[j][p] - sum_{i<k} q[i][p] * B[i + ldb*j],   stored for j < nj only
   (B is column-major with leading dimension ldb; the columns j >= nj are padding, computed
   from valid memory and dropped). t may alias s (each entry is read before it is written:
   S = S - Q B in place), never q. */
PPE_HD_INLINE void ppe_ts_combine_tile(int k, const double *const q[], const double *const s[PPE_TS_TB], const double *B, int ldb, int nj, long p0, long p1, double *const t[PPE_TS_TB])
{
  long p = p0;

  for (; p + PPE_TS_LANES <= p1; p += PPE_TS_LANES) {
#if PPE_TS_VECTOR
    ppe_ts_v4 acc[PPE_TS_TB];
    PPE_UNROLL
    for (int j = 0; j < PPE_TS_TB; j++) PPE_TS_LOAD(acc[j], s[j] + p);
    for (int i = 0; i < k; i++) {
      ppe_ts_v4 qv;
      PPE_TS_LOAD(qv, q[i] + p);
      PPE_UNROLL
      for (int j = 0; j < PPE_TS_TB; j++) acc[j] -= qv * B[i + ldb * j];
    }
    for (int j = 0; j < PPE_TS_TB; j++)
      if (j < nj) PPE_TS_STORE(t[j] + (p - p0), acc[j]);
#else
    double acc[PPE_TS_TB][PPE_TS_LANES];
    for (int j = 0; j < PPE_TS_TB; j++)
      for (int l = 0; l < PPE_TS_LANES; l++) acc[j][l] = s[j][p + l];
    for (int i = 0; i < k; i++)
      for (int j = 0; j < PPE_TS_TB; j++)
        for (int l = 0; l < PPE_TS_LANES; l++) acc[j][l] -= q[i][p + l] * B[i + ldb * j];
    for (int j = 0; j < PPE_TS_TB; j++)
      if (j < nj)
        for (int l = 0; l < PPE_TS_LANES; l++) t[j][p - p0 + l] = acc[j][l];
#endif
  }
  for (; p < p1; p++)
    for (int j = 0; j < nj; j++) {
      double v = s[j][p];
      for (int i = 0; i < k; i++) v -= q[i][p] * B[i + ldb * j];
      t[j][p - p0] = v;
    }
}

/* x[p] += sum_{i<k} q[i][p] a[i];  r[p] -= sum_{i<k} aq[i][p] a[i]  for rows [p0,p1). */
PPE_HD_INLINE void ppe_ts_axpy_rows(int k, const double *const q[], const double *const aq[], const double *a, long p0, long p1, double *x, double *r)
{
  long p = p0;

  for (; p + PPE_TS_LANES <= p1; p += PPE_TS_LANES) {
#if PPE_TS_VECTOR
    ppe_ts_v4 dx = {0.0, 0.0, 0.0, 0.0}, dr = {0.0, 0.0, 0.0, 0.0}, v, w;
    for (int i = 0; i < k; i++) {
      PPE_TS_LOAD(v, q[i] + p);
      PPE_TS_LOAD(w, aq[i] + p);
      dx += v * a[i];
      dr += w * a[i];
    }
    PPE_TS_LOAD(v, x + p);
    PPE_TS_LOAD(w, r + p);
    v += dx;
    w -= dr;
    PPE_TS_STORE(x + p, v);
    PPE_TS_STORE(r + p, w);
#else
    double dx[PPE_TS_LANES], dr[PPE_TS_LANES];
    for (int l = 0; l < PPE_TS_LANES; l++) dx[l] = dr[l] = 0.0;
    for (int i = 0; i < k; i++)
      for (int l = 0; l < PPE_TS_LANES; l++) {
        dx[l] += q[i][p + l] * a[i];
        dr[l] += aq[i][p + l] * a[i];
      }
    for (int l = 0; l < PPE_TS_LANES; l++) {
      x[p + l] += dx[l];
      r[p + l] -= dr[l];
    }
#endif
  }
  for (; p < p1; p++) {
    double dx = 0.0, dr = 0.0;
    for (int i = 0; i < k; i++) {
      dx += q[i][p] * a[i];
      dr += aq[i][p] * a[i];
    }
    x[p] += dx;
    r[p] -= dr;
  }
}

/* out[p] = c1 az[p] - c2 z[p] - zold[p] for rows [p0,p1); out may alias zold (and, with
   zold == NULL, the last term is dropped). */
PPE_HD_INLINE void ppe_ts_cheb_rows(double c1, const double *az, double c2, const double *z, const double *zold, long p0, long p1, double *out)
{
  if (zold)
    for (long p = p0; p < p1; p++) out[p] = c1 * az[p] - c2 * z[p] - zold[p];
  else
    for (long p = p0; p < p1; p++) out[p] = c1 * az[p] - c2 * z[p];
}

#endif

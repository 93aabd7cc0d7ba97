/*
   Fast DCT/DST: the numbers of FFTW's r2r kinds REDFT10, REDFT01, RODFT10, RODFT01, REDFT11
   and RODFT11 (FFTW's unnormalised definitions) from one real-to-complex or complex-to-real
   FFT of the same length, whose FFTW plans have SIMD codelets (the r2r kinds have none), and
   a pre and a post pass written so that the compiler vectorises them.

   Algorithm: J. Makhoul, "A fast cosine transform in one and two dimensions", IEEE Trans.
   ASSP 28(1), 1980, for a line x of length n, with h = n/2 + 1 complex entries of the half
   spectrum and ne = ceil(n/2) even entries:
     DCT-II (REDFT10)   v_m = x_2m (m < ne), v_{n-1-m} = x_{2m+1} (m < n - ne); a + i b = r2c(v);
                        y = 2 Re(exp(-i pi k / 2n) V_k), i.e. with C_k = 2 cos(pi k / 2n),
                        S_k = 2 sin(pi k / 2n):  y_k = C_k a_k + S_k b_k (k < h),
                        y_{n-k} = S_k a_k - C_k b_k (0 < k <= n - h)
     DCT-III (REDFT01)  2n times the inverse of DCT-II: V_k = exp(i pi k / 2n) (X_k - i X_{n-k})
                        (X_n = 0), v = c2r(V), x_2m = v_m, x_{2m+1} = v_{n-1-m}
     DST-II (RODFT10)   reversal o DCT-II o (sign flip of the odd entries), as
                        cos(pi (j+1/2)(n-1-k) / n) = (-1)^j sin(pi (j+1/2)(k+1) / n)
     DST-III (RODFT01)  (sign flip of the odd entries) o DCT-III o reversal (2n DST-II^-1)
     DCT-IV (REDFT11)   T = DCT-II(u), u_j = 2 cos(pi (j+1/2) / 2n) x_j, then y_0 = T_0 / 2 and
                        y_k = T_k - y_{k-1}, from 2 cos(t/2) cos(t k) = cos(t (k+1/2)) + cos(t (k-1/2))
     DST-IV (RODFT11)   reversal o DCT-IV o (sign flip of the odd entries)
   The reorder, the signs and the DCT-IV weights are one weighted copy into the work buffer
   (pre pass); the twiddles, the reversal and the DCT-IV recurrence are the copy out of it
   (post pass). The weight pw[m] belongs to v_m and entry ix[m] of x (ix[m] = 2m for m < ne,
   2(n-1-m)+1 otherwise) in both directions.

   Two ways through a batch (fastdct.h):
     column blocks  lines of stride is != 1 with a loop of unit distance (y lines): bw
                    neighbouring lines are copied row by row into rbuf[m bw + c], the inner
                    loop running across the bw lines (contiguous, unit stride); FFTW's r2c /
                    c2r runs with a vector loop of bw and stride 1; the post pass reads rows
                    cbuf[k bw + c] and writes rows of the output.
     line blocks    anything else (contiguous x lines): bw lines one after the other in
                    rbuf[l n + j]; the passes run along each line (stride-2 and reversed
                    accesses, vectorised with permutations when is = 1).
   Every block is read whole before it is written, so in == out works.

   Accuracy: the II and III kinds match FFTW to a few ulps of the largest output. The DCT-IV
   recurrence adds up the rounding errors of T along the line: about 3e-15 of the largest
   output at n = 97, 2e-14 at n = 16384 on random data (FFTW's own REDFT11: 1e-16 to 1e-15).
*/
#include <ppekit/private/fastdct.h>
#include <petsc/private/petscimpl.h> /* PetscAssertPointer on PETSc 3.18 and 3.19 */
#include <stdint.h>

/* bytes of work buffer per block (real + complex): the block stays in L1/L2; of 16, 32, 64, 128
   and 256 KB, 32 KB was fastest for the 2D DCT of a 128^3 block (Xeon, 48 KB L1d, 2 MB L2) */
#ifndef PPE_FASTR2R_BLOCK_BYTES
  #define PPE_FASTR2R_BLOCK_BYTES 32768
#endif

/* The passes are compiled for generic x86-64 (SSE2) and for AVX2, chosen by the CPU at load
   time (GCC's target_clones: an ifunc per pass); -DPPE_NO_AVX2 keeps the generic one only. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__) && !defined(PPE_NO_AVX2)
  #define PPE_FASTR2R_CLONES __attribute__((target_clones("avx2", "default")))
#else
  #define PPE_FASTR2R_CLONES
#endif

typedef enum {
  FAST_DCT2, /* r2c, twiddle: DCT-II, DST-II */
  FAST_DCT3, /* twiddle, c2r: DCT-III, DST-III */
  FAST_DCT4  /* r2c, twiddle, recurrence: DCT-IV, DST-IV */
} FastBase;

struct _n_PPEFastR2R {
  fftw_r2r_kind kind;
  FastBase      base;
  PetscBool     rev;         /* a DST: reversed output (II, IV) or input (III) */
  PetscInt      n, h, ne;    /* length, n/2 + 1 complex entries, ceil(n/2) even entries */
  PetscInt      is;          /* stride of the lines */
  PetscInt      cnt[2];      /* loop counts, {1, 1} for missing loops */
  PetscInt      dist[2];     /* loop distances */
  PetscBool     cols;        /* column blocks (else line blocks) */
  PetscInt      vl;          /* column blocks: the loop of unit distance (the other is the outer loop) */
  PetscInt      bw;          /* lines per block */
  PetscInt      wlast;       /* lines of the last block of a sweep (of the vector loop, or of all lines) */
  fftw_plan     plan[2];     /* blocks of bw lines, last block of wlast lines (NULL when wlast = bw) */
  double       *rbuf, *cbuf; /* real (n bw) and complex (h bw) work buffers, 64-byte aligned */
  double       *tw;          /* 2h twiddles C_k, S_k */
  double       *pw;          /* n weights, one per v_m */
  PetscInt     *ix;          /* n: the entry of x that v_m holds */
  double       *mem;         /* the allocation behind rbuf, cbuf, tw, pw */
};

PetscErrorCode PPEFastR2RSupported(fftw_r2r_kind kind, PetscBool *ok)
{
  PetscFunctionBegin;
  *ok = (PetscBool)(kind == FFTW_REDFT10 || kind == FFTW_REDFT01 || kind == FFTW_RODFT10 || kind == FFTW_RODFT01 || kind == FFTW_REDFT11 || kind == FFTW_RODFT11);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- rows of w lines */
/* The inner loops of the column blocks: unit stride across w neighbouring lines, restrict
   parameters (GCC drops restrict on block-scope pointers and would version the loops). */

static inline void RowScale(PetscInt w, double s, const double *restrict x, double *restrict y)
{
  for (PetscInt c = 0; c < w; c++) y[c] = s * x[c];
}

static inline void RowDiff(PetscInt w, const double *restrict t, const double *restrict yp, double *restrict y)
{
  for (PetscInt c = 0; c < w; c++) y[c] = t[c] - yp[c];
}

/* y1 = C a + S b from the interleaved z = (a, b) */
static inline void RowTwiddle1(PetscInt w, double C, double S, const double *restrict z, double *restrict y1)
{
  for (PetscInt c = 0; c < w; c++) y1[c] = C * z[2 * c] + S * z[2 * c + 1];
}

/* and y2 = S a - C b */
static inline void RowTwiddle2(PetscInt w, double C, double S, const double *restrict z, double *restrict y1, double *restrict y2)
{
  for (PetscInt c = 0; c < w; c++) {
    double a = z[2 * c], b = z[2 * c + 1];

    y1[c] = C * a + S * b;
    y2[c] = S * a - C * b;
  }
}

/* z = (C xa + S xb, S xa - C xb) interleaved (xa = xb for the middle row of an even n: both only read) */
static inline void RowPreC2R(PetscInt w, double C, double S, const double *restrict xa, const double *restrict xb, double *restrict z)
{
  for (PetscInt c = 0; c < w; c++) {
    z[2 * c]     = C * xa[c] + S * xb[c];
    z[2 * c + 1] = S * xa[c] - C * xb[c];
  }
}

/* z = (x, 0) interleaved */
static inline void RowPreC2R0(PetscInt w, const double *restrict x, double *restrict z)
{
  for (PetscInt c = 0; c < w; c++) {
    z[2 * c]     = x[c];
    z[2 * c + 1] = 0.0;
  }
}

/* ---------------------------------------------------------------- column blocks (w lines) */

/* v_m = pw_m x_{ix_m}, row m of rbuf */
PPE_FASTR2R_CLONES static void ColsPreR2C(const PPEFastR2R f, PetscInt w, const double *in)
{
  for (PetscInt m = 0; m < f->n; m++) RowScale(w, f->pw[m], in + f->ix[m] * f->is, f->rbuf + m * f->bw);
}

/* T_k = C_k a_k + S_k b_k into row o(k) of y, T_{n-k} = S_k a_k - C_k b_k into row o(n-k);
   o(k) = k, or n-1-k when reversed (rows of stride ys) */
PPE_FASTR2R_CLONES static void ColsPostTwiddle(const PPEFastR2R f, PetscInt w, double *y, PetscInt ys, PetscBool rev)
{
  const PetscInt n = f->n, bw = f->bw;

  for (PetscInt k = 0; k < f->h; k++) {
    const double *z  = f->cbuf + 2 * k * bw;
    double       *y1 = y + (rev ? n - 1 - k : k) * ys;

    if (k > 0 && k <= n - f->h) RowTwiddle2(w, f->tw[2 * k], f->tw[2 * k + 1], z, y1, y + (rev ? k - 1 : n - k) * ys);
    else RowTwiddle1(w, f->tw[2 * k], f->tw[2 * k + 1], z, y1);
  }
}

/* DCT-IV: T rows in rbuf (free after the r2c), then y_0 = T_0 / 2, y_k = T_k - y_{k-1} */
PPE_FASTR2R_CLONES static void ColsPostDCT4(const PPEFastR2R f, PetscInt w, double *out)
{
  const PetscInt n = f->n, bw = f->bw, is = f->is;
  double        *y0   = out + (f->rev ? n - 1 : 0) * is;
  const PetscInt step = f->rev ? -is : is;

  ColsPostTwiddle(f, w, f->rbuf, bw, PETSC_FALSE);
  RowScale(w, 0.5, f->rbuf, y0);
  for (PetscInt k = 1; k < n; k++) RowDiff(w, f->rbuf + k * bw, y0 + (k - 1) * step, y0 + k * step);
}

/* V_k = (C_k X'_k + S_k X'_{n-k}) + i (S_k X'_k - C_k X'_{n-k}), X'_k = X_k or X_{n-1-k} */
PPE_FASTR2R_CLONES static void ColsPreC2R(const PPEFastR2R f, PetscInt w, const double *in)
{
  const PetscInt n = f->n, is = f->is;
  PetscBool      rev = f->rev;

  RowPreC2R0(w, in + (rev ? n - 1 : 0) * is, f->cbuf);
  for (PetscInt k = 1; k < f->h; k++) RowPreC2R(w, f->tw[2 * k], f->tw[2 * k + 1], in + (rev ? n - 1 - k : k) * is, in + (rev ? k - 1 : n - k) * is, f->cbuf + 2 * k * f->bw);
}

/* x_{ix_m} = pw_m v_m */
PPE_FASTR2R_CLONES static void ColsPostC2R(const PPEFastR2R f, PetscInt w, double *out)
{
  for (PetscInt m = 0; m < f->n; m++) RowScale(w, f->pw[m], f->rbuf + m * f->bw, out + f->ix[m] * f->is);
}

/* ---------------------------------------------------------------- line blocks (one line) */
/* Called with is = 1 as a constant for contiguous lines, so that the loops vectorise. */

static inline void LinePreR2C(PetscInt n, PetscInt ne, PetscInt is, const double *restrict pw, const double *restrict x, double *restrict v)
{
  for (PetscInt m = 0; m < ne; m++) v[m] = pw[m] * x[2 * m * is];
  for (PetscInt m = 0; m < n - ne; m++) v[n - 1 - m] = pw[n - 1 - m] * x[(2 * m + 1) * is];
}

static inline void LinePostTwiddle(PetscInt n, PetscInt h, PetscInt is, PetscBool rev, const double *restrict tw, const double *restrict z, double *restrict y)
{
  if (!rev) {
    for (PetscInt k = 0; k < h; k++) y[k * is] = tw[2 * k] * z[2 * k] + tw[2 * k + 1] * z[2 * k + 1];
    for (PetscInt k = 1; k <= n - h; k++) y[(n - k) * is] = tw[2 * k + 1] * z[2 * k] - tw[2 * k] * z[2 * k + 1];
  } else {
    for (PetscInt k = 0; k < h; k++) y[(n - 1 - k) * is] = tw[2 * k] * z[2 * k] + tw[2 * k + 1] * z[2 * k + 1];
    for (PetscInt k = 1; k <= n - h; k++) y[(k - 1) * is] = tw[2 * k + 1] * z[2 * k] - tw[2 * k] * z[2 * k + 1];
  }
}

static inline void LinePostDCT4(PetscInt n, PetscInt h, PetscInt is, PetscBool rev, const double *restrict tw, const double *restrict z, double *restrict t, double *restrict y)
{
  double yk;

  LinePostTwiddle(n, h, 1, PETSC_FALSE, tw, z, t);
  yk = 0.5 * t[0];
  if (!rev) {
    y[0] = yk;
    for (PetscInt k = 1; k < n; k++) y[k * is] = yk = t[k] - yk;
  } else {
    y[(n - 1) * is] = yk;
    for (PetscInt k = 1; k < n; k++) y[(n - 1 - k) * is] = yk = t[k] - yk;
  }
}

static inline void LinePreC2R(PetscInt n, PetscInt h, PetscInt is, PetscBool rev, const double *restrict tw, const double *restrict x, double *restrict z)
{
  if (!rev) {
    z[0] = x[0];
    z[1] = 0.0;
    for (PetscInt k = 1; k < h; k++) {
      z[2 * k]     = tw[2 * k] * x[k * is] + tw[2 * k + 1] * x[(n - k) * is];
      z[2 * k + 1] = tw[2 * k + 1] * x[k * is] - tw[2 * k] * x[(n - k) * is];
    }
  } else {
    z[0] = x[(n - 1) * is];
    z[1] = 0.0;
    for (PetscInt k = 1; k < h; k++) {
      z[2 * k]     = tw[2 * k] * x[(n - 1 - k) * is] + tw[2 * k + 1] * x[(k - 1) * is];
      z[2 * k + 1] = tw[2 * k + 1] * x[(n - 1 - k) * is] - tw[2 * k] * x[(k - 1) * is];
    }
  }
}

static inline void LinePostC2R(PetscInt n, PetscInt ne, PetscInt is, const double *restrict pw, const double *restrict v, double *restrict y)
{
  for (PetscInt m = 0; m < ne; m++) y[2 * m * is] = pw[m] * v[m];
  for (PetscInt m = 0; m < n - ne; m++) y[(2 * m + 1) * is] = pw[n - 1 - m] * v[n - 1 - m];
}

/* the passes over the w lines of a line block starting at line l0 */
PPE_FASTR2R_CLONES static void LinesPre(const PPEFastR2R f, PetscInt l0, PetscInt w, const double *in)
{
  const PetscInt n = f->n, h = f->h, ne = f->ne, is = f->is;

  for (PetscInt i = 0; i < w; i++) {
    PetscInt      l = l0 + i;
    const double *x = in + (l % f->cnt[0]) * f->dist[0] + (l / f->cnt[0]) * f->dist[1];

    if (f->base == FAST_DCT3) {
      if (is == 1) LinePreC2R(n, h, 1, f->rev, f->tw, x, f->cbuf + 2 * i * h);
      else LinePreC2R(n, h, is, f->rev, f->tw, x, f->cbuf + 2 * i * h);
    } else {
      if (is == 1) LinePreR2C(n, ne, 1, f->pw, x, f->rbuf + i * n);
      else LinePreR2C(n, ne, is, f->pw, x, f->rbuf + i * n);
    }
  }
}

PPE_FASTR2R_CLONES static void LinesPost(const PPEFastR2R f, PetscInt l0, PetscInt w, double *out)
{
  const PetscInt n = f->n, h = f->h, ne = f->ne, is = f->is;

  for (PetscInt i = 0; i < w; i++) {
    PetscInt l = l0 + i;
    double  *y = out + (l % f->cnt[0]) * f->dist[0] + (l / f->cnt[0]) * f->dist[1];

    switch (f->base) {
    case FAST_DCT2:
      if (is == 1) LinePostTwiddle(n, h, 1, f->rev, f->tw, f->cbuf + 2 * i * h, y);
      else LinePostTwiddle(n, h, is, f->rev, f->tw, f->cbuf + 2 * i * h, y);
      break;
    case FAST_DCT3:
      if (is == 1) LinePostC2R(n, ne, 1, f->pw, f->rbuf + i * n, y);
      else LinePostC2R(n, ne, is, f->pw, f->rbuf + i * n, y);
      break;
    case FAST_DCT4:
      LinePostDCT4(n, h, is, f->rev, f->tw, f->cbuf + 2 * i * h, f->rbuf + i * n, y);
      break;
    }
  }
}

/* ---------------------------------------------------------------- interface */

PetscErrorCode PPEFastR2RExecute(PPEFastR2R f, const double *in, double *out)
{
  PetscFunctionBegin;
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "PPEFastR2RExecute: no transform (was it created with FFTW_WISDOM_ONLY and no wisdom?)");
  if (f->cols) {
    const PetscInt V = f->cnt[f->vl], W = f->cnt[1 - f->vl], D = f->dist[1 - f->vl];

    for (PetscInt o = 0; o < W; o++)
      for (PetscInt c0 = 0; c0 < V; c0 += f->bw) {
        PetscInt      w = PetscMin(f->bw, V - c0);
        fftw_plan     p = w == f->bw ? f->plan[0] : f->plan[1];
        const double *x = in + o * D + c0;
        double       *y = out + o * D + c0;

        if (f->base == FAST_DCT3) {
          ColsPreC2R(f, w, x);
          fftw_execute(p);
          ColsPostC2R(f, w, y);
        } else {
          ColsPreR2C(f, w, x);
          fftw_execute(p);
          if (f->base == FAST_DCT2) ColsPostTwiddle(f, w, y, f->is, f->rev);
          else ColsPostDCT4(f, w, y);
        }
      }
  } else {
    const PetscInt L = f->cnt[0] * f->cnt[1];

    for (PetscInt l0 = 0; l0 < L; l0 += f->bw) {
      PetscInt w = PetscMin(f->bw, L - l0);

      LinesPre(f, l0, w, in);
      fftw_execute(w == f->bw ? f->plan[0] : f->plan[1]);
      LinesPost(f, l0, w, out);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FFTW plan of w lines on the work buffers: r2c (rbuf -> cbuf) or c2r (cbuf -> rbuf) */
static fftw_plan PlanBlock(PPEFastR2R f, PetscInt w, unsigned flags)
{
  fftw_iodim64 d, v;

  d.n = (ptrdiff_t)f->n;
  v.n = (ptrdiff_t)w;
  if (f->cols) { /* line stride bw (real and complex units alike), lines next to each other */
    d.is = d.os = (ptrdiff_t)f->bw;
    v.is = v.os = 1;
  } else { /* unit stride, lines n reals or h complex apart */
    d.is = d.os = 1;
    v.is        = (ptrdiff_t)(f->base == FAST_DCT3 ? f->h : f->n);
    v.os        = (ptrdiff_t)(f->base == FAST_DCT3 ? f->n : f->h);
  }
  if (f->base == FAST_DCT3) return fftw_plan_guru64_dft_c2r(1, &d, 1, &v, (fftw_complex *)f->cbuf, f->rbuf, flags | FFTW_DESTROY_INPUT);
  return fftw_plan_guru64_dft_r2c(1, &d, 1, &v, f->rbuf, (fftw_complex *)f->cbuf, flags | FFTW_DESTROY_INPUT);
}

PetscErrorCode PPEFastR2RCreate(fftw_r2r_kind kind, PetscInt n, PetscInt is, PetscInt nloop, const PetscInt loop[][2], unsigned flags, PPEFastR2R *fout)
{
  PPEFastR2R f;
  PetscBool  ok;
  PetscInt   L, sweep, nbuf, nr, nc;

  PetscFunctionBegin;
  PetscAssertPointer(fout, 7);
  *fout = NULL;
  PetscCall(PPEFastR2RSupported(kind, &ok));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_SUP, "PPEFastR2R: FFTW r2r kind %d is not supported (supported: REDFT10, REDFT01, RODFT10, RODFT01, REDFT11, RODFT11)", (int)kind);
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PPEFastR2R: length %" PetscInt_FMT " < 1", n);
  PetscCheck(is >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PPEFastR2R: stride %" PetscInt_FMT " < 1", is);
  PetscCheck(nloop >= 0 && nloop <= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PPEFastR2R: %" PetscInt_FMT " loops; 0, 1 or 2 are supported", nloop);
  for (PetscInt q = 0; q < nloop; q++) PetscCheck(loop[q][0] >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PPEFastR2R: loop %" PetscInt_FMT " has count %" PetscInt_FMT " < 1", q, loop[q][0]);
  PetscCall(PetscNew(&f));
  f->kind = kind;
  f->base = (kind == FFTW_REDFT10 || kind == FFTW_RODFT10) ? FAST_DCT2 : ((kind == FFTW_REDFT01 || kind == FFTW_RODFT01) ? FAST_DCT3 : FAST_DCT4);
  f->rev  = (PetscBool)(kind == FFTW_RODFT10 || kind == FFTW_RODFT01 || kind == FFTW_RODFT11);
  f->n    = n;
  f->h    = n / 2 + 1;
  f->ne   = (n + 1) / 2;
  f->is   = is;
  for (PetscInt q = 0; q < 2; q++) {
    f->cnt[q]  = q < nloop ? loop[q][0] : 1;
    f->dist[q] = q < nloop ? loop[q][1] : 0;
  }
  /* column blocks: lines of stride > 1 with a loop of unit distance running across them */
  f->vl = -1;
  if (is > 1)
    for (PetscInt q = 0; q < nloop && f->vl < 0; q++)
      if (loop[q][1] == 1 && loop[q][0] > 1) f->vl = q;
  f->cols = (PetscBool)(f->vl >= 0);
  L       = f->cnt[0] * f->cnt[1];
  sweep   = f->cols ? f->cnt[f->vl] : L;
  f->bw   = PetscMax(1, PPE_FASTR2R_BLOCK_BYTES / (16 * n)); /* rbuf + cbuf of a block */
  if (f->cols) f->bw = PetscMax(8, f->bw - f->bw % 8);       /* whole 64-byte rows */
  f->bw    = PetscMin(f->bw, sweep);
  f->wlast = sweep - ((sweep - 1) / f->bw) * f->bw;

  /* work buffers and tables, 64-byte aligned (AVX-512 loads; FFTW plans for the alignment it is given) */
  nr   = ((n * f->bw + 7) / 8) * 8;
  nc   = ((2 * f->h * f->bw + 7) / 8) * 8;
  nbuf = nr + nc + 2 * f->h + n + 8;
  PetscCall(PetscMalloc1(nbuf, &f->mem));
  PetscCall(PetscMalloc1(n, &f->ix));
  f->rbuf = (double *)(((uintptr_t)f->mem + 63) & ~(uintptr_t)63);
  f->cbuf = f->rbuf + nr;
  f->tw   = f->cbuf + nc;
  f->pw   = f->tw + 2 * f->h;
  PetscCall(PetscArrayzero(f->rbuf, nr + nc));
  for (PetscInt k = 0; k < f->h; k++) { /* C_k, S_k: 2 cos, 2 sin (pi k / 2n) forward; cos, sin backward */
    double s = f->base == FAST_DCT3 ? 1.0 : 2.0;

    f->tw[2 * k]     = s * cos(PETSC_PI * (double)k / (2.0 * (double)n));
    f->tw[2 * k + 1] = s * sin(PETSC_PI * (double)k / (2.0 * (double)n));
  }
  for (PetscInt m = 0; m < n; m++) {
    PetscInt j = m < f->ne ? 2 * m : 2 * (n - 1 - m) + 1;
    double   s = (f->rev && (j % 2)) ? -1.0 : 1.0; /* DST: sign flip of the odd entries */

    f->ix[m] = j;
    /* DCT-IV weight 2 cos(pi (j+1/2) / 2n), written as a sine of the complementary angle (accurate near pi/2) */
    f->pw[m] = f->base == FAST_DCT4 ? s * 2.0 * sin(PETSC_PI * (double)(2 * (n - j) - 1) / (4.0 * (double)n)) : s;
  }

  f->plan[0] = PlanBlock(f, f->bw, flags);
  if (f->plan[0] && f->wlast != f->bw) f->plan[1] = PlanBlock(f, f->wlast, flags);
  if (!f->plan[0] || (f->wlast != f->bw && !f->plan[1])) {
    PetscBool wisdomonly = (PetscBool)((flags & FFTW_WISDOM_ONLY) != 0);

    PetscCall(PPEFastR2RDestroy(&f));
    PetscCheck(wisdomonly, PETSC_COMM_SELF, PETSC_ERR_LIB, "PPEFastR2R: FFTW could not plan the %s of length %" PetscInt_FMT, kind == FFTW_REDFT01 || kind == FFTW_RODFT01 ? "c2r" : "r2c", n);
    PetscCall(PetscInfo(NULL, "No FFTW wisdom for the real FFT of length %" PetscInt_FMT " (FFTW_WISDOM_ONLY): no transform\n", n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *fout = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFastR2RDestroy(PPEFastR2R *fp)
{
  PPEFastR2R f = *fp;

  PetscFunctionBegin;
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  for (int s = 0; s < 2; s++)
    if (f->plan[s]) fftw_destroy_plan(f->plan[s]);
  PetscCall(PetscFree(f->mem));
  PetscCall(PetscFree(f->ix));
  PetscCall(PetscFree(*fp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

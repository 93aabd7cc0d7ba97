/*
   Harness family "tridiag": the launcher of the batched tridiagonal kernels
   (src/backend/device/tridiag_dev.h, bodies in src/kernels/tridiag.h), one thread per lane:

     thomas      Thomas on whole lines, factors pre-computed or computed on the fly;
     pthomas     periodic Thomas (a Thomas chain plus the Schur complement of the last row);
     reduce      the local reduction of P-TDMA and DistD2 to the two boundary rows of a block;
     recon       the reconstruction of a block's interior from its two boundary unknowns.

   The reference is independent of the library's code: what each kernel computes, written
   from its definition (docs/tridiag.md) with textbook algorithms in plain loops over one
   line at a time, the diagonal in its usual form B = R - A - C (not the library's excess
   form, not its views):
     - tridiagonal solves by the LU factorisation without pivoting (Thomas; G. H. Golub and
       C. F. Van Loan, Matrix Computations, 4th ed., 2013, sec. 4.3.6);
     - periodic (cyclic) lines by the Sherman-Morrison formula over that LU (W. H. Press,
       S. A. Teukolsky, W. T. Vetterling and B. P. Flannery, Numerical Recipes, 3rd ed.,
       2007, sec. 2.7.2), lines of 2 rows by Cramer's rule;
     - the factors the pre-computed kernels read (the pivots' inverses, the periodic column
       q and Schur complement, the reduction's al and be) from the same LU.
   A pinned lane (mask 0) has its last unknown set to 0 and its last row dropped.

   1. Every kernel, pre-computed and fly, against the reference, to a relative tolerance
      TD_REF_TOL of the largest value (the kernels' excess form and the textbook LU round
      differently; their systems are diagonally dominant, so both are within a few hundred
      ulps of the exact solution). The cases are those of the library's own device test: the
      packed layout [group][row][lane], the natural layout of a DMDA's z lines (groups of SZ
      consecutive lines), a line-major natural layout (lane stride n), the reduced systems
      (one group of all lanes); shared and per-line coefficients and factors; full and
      partial blocks of lanes, pinned lanes; n = 2, 3, 17 rows and a long n = 700. Some
      layouts have more than 256 lanes, so that a GPU launch has several thread blocks. The
      whole span of every written array is compared: values outside the block of lanes (and
      the boundary arrays of the kernels that only read them) must keep their bits.
   2. A P-TDMA / DistD2 solve with pz ranks simulated by pz blocks of rows on one device: each
      line of n rows is split into pz = 2 or 4 blocks (uneven sizes, blocks of 2 and 3 rows
      among them), reduce runs on every block, the reduced system of 2 pz unknowns per line
      (cyclic for periodic lines) is solved on the host, recon runs on every block, and the
      result must agree with the reference solution of the whole line (relative <= 1e-13),
      whose residual is also checked, for non-periodic and periodic lines, pre-computed and fly.
   3. Timing: thomas and pthomas (pre-computed and fly) on 512 x 512 lines of n = 512 rows
      (1 GiB of data, well beyond a GPU's caches) in the packed layout, the reduce + recon
      pair, and thomas in the natural layout (PC fftptdma's resident pencils); coefficients
      shared by all lines and factors per line, as for lines that differ only by their shift.
      16 x 16 lines of 64 rows in emulation.

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025 (P-TDMA; pre-computed vs on-the-fly factors).
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (DistD2).
*/
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lanes per group of the packed layout and groups of the host's full block: the library's
   PPE_TRIDIAG_SZ and PPE_TD_G. */
#define TD_SZ 8
#define TD_G  PPE_TD_G
/* The long line of the checks against the reference. */
#define TD_LONG_N 700
/* Tolerance against the reference, relative to the largest value of the case: the lines of
   section 1 have a row excess of at least 0.05 against couplings up to 1 (condition numbers
   up to about 100); measured about 1e-15, so this is a margin of more than 100. */
#define TD_REF_TOL 1e-12
/* Tolerances of the P-TDMA solve: against the reference solution of the whole line, and its
   residual. */
#define TD_PTDMA_TOL 1e-13
#define TD_RES_TOL   1e-13

static const char *const td_kname[PPE_TD_K_NUM] = {"thomas", "pthomas", "reduce", "recon"};

/* Run kernel k through the back end under test. */
static void TdDev(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x)
{
  HCALL(H.ops->tridiag(k, fly, R, n, x, H.stream));
}

static ppe_td_carr TdC(const double *v, long gs, long rs, long ls)
{
  ppe_td_carr x;

  x.v  = v;
  x.gs = gs;
  x.rs = rs;
  x.ls = ls;
  return x;
}

static ppe_td_arr TdW(double *v, long gs, long rs, long ls)
{
  ppe_td_arr x;

  x.v  = v;
  x.gs = gs;
  x.rs = rs;
  x.ls = ls;
  return x;
}

/* ------------------------------------------------------------ the reference */

/* LU without pivoting of the tridiagonal matrix with sub-diagonal a[1..n-1], diagonal b and
   super-diagonal c[0..n-2]: ip[i] = 1 / p_i, p_0 = b_0, p_i = b_i - (a_i / p_{i-1}) c_{i-1}. */
static void RefLU(long n, const double *a, const double *b, const double *c, double *ip)
{
  ip[0] = 1.0 / b[0];
  for (long i = 1; i < n; i++) ip[i] = 1.0 / (b[i] - (a[i] * ip[i - 1]) * c[i - 1]);
}

/* x = M^-1 x in place with the factors of RefLU(n, a, b, c, ip). */
static void RefLUSolve(long n, const double *a, const double *c, const double *ip, double *x)
{
  for (long i = 1; i < n; i++) x[i] -= (a[i] * ip[i - 1]) * x[i - 1];
  x[n - 1] *= ip[n - 1];
  for (long i = n - 2; i >= 0; i--) x[i] = (x[i] - c[i] * x[i + 1]) * ip[i];
}

/* The diagonal of a line of n rows in the usual form, from the row excess R: B_i = R_i - A_i
   - C_i, without A_0 and C_{n-1} for a line that is not periodic (they couple nothing). */
static void RefDiagonal(long n, int periodic, const double *A, const double *C, const double *R, double *B)
{
  for (long i = 0; i < n; i++) B[i] = R[i] - (periodic || i > 0 ? A[i] : 0.0) - (periodic || i < n - 1 ? C[i] : 0.0);
}

/*
   The cyclic system of n >= 2 rows, A_0 coupling x_{n-1} and C_{n-1} coupling x_0, solved in
   place: Cramer's rule for n = 2; else Sherman-Morrison with u = (g, 0, .., 0, C_{n-1}),
   v = (1, 0, .., 0, A_0 / g), g = -B_0 (Numerical Recipes' cyclic). w: 3 n doubles.
*/
static void RefCyclic(long n, const double *A, const double *B, const double *C, double *x, double *w)
{
  double *bb = w, *z = w + n, *ip = w + 2 * n, g = -B[0], f;

  if (n == 2) {
    double m01 = A[0] + C[0], m10 = A[1] + C[1], det = B[0] * B[1] - m01 * m10, x0 = x[0];

    x[0] = (x0 * B[1] - m01 * x[1]) / det;
    x[1] = (B[0] * x[1] - m10 * x0) / det;
    return;
  }
  for (long i = 0; i < n; i++) bb[i] = B[i];
  bb[0] -= g;
  bb[n - 1] -= C[n - 1] * A[0] / g;
  RefLU(n, A, bb, C, ip);
  RefLUSolve(n, A, C, ip, x);
  for (long i = 0; i < n; i++) z[i] = 0.0;
  z[0]     = g;
  z[n - 1] = C[n - 1];
  RefLUSolve(n, A, C, ip, z);
  f = (x[0] + A[0] * x[n - 1] / g) / (1.0 + z[0] + A[0] * z[n - 1] / g);
  for (long i = 0; i < n; i++) x[i] -= f * z[i];
}

/* One line (lane) of a kernel: its coefficients A, C and row excess R of n rows, pinned or
   not; its factors as the pre-computed kernel reads them (rows as the kernel's arrays, last
   per lane); d (and for reduce r0, r1; for recon the boundary unknowns x0, x1) as the kernel
   leaves them. */
typedef struct {
  long    n;
  int     pinned;
  double *A, *C, *R, *d;    /* n each */
  double *ip, *q, *al, *be; /* n each */
  double  last, r0, r1, x0, x1;
  double *B, *w; /* work: n and 3 n */
} RefLine;

/* The factors of kernel k for the line: those of the whole line (thomas; pthomas: rows
   0..n-2 without the couplings to x_{n-1}, q = T^-1 (A_0 e_0 + C_{n-2} e_{n-2}) and last the
   inverse Schur complement), or of the interior rows 1..n-2 (reduce, recon: al = T^-1 A_1
   e_1, be = T^-1 C_{n-2} e_{n-2}). last = 0 for a pinned line. */
static void RefFactors(int k, RefLine *L)
{
  const long n = L->n;

  if (k == PPE_TD_K_THOMAS) {
    RefDiagonal(n, 0, L->A, L->C, L->R, L->B);
    RefLU(n, L->A, L->B, L->C, L->ip);
    L->last = L->pinned ? 0.0 : L->ip[n - 1];
  } else if (k == PPE_TD_K_PTHOMAS) {
    RefDiagonal(n, 1, L->A, L->C, L->R, L->B);
    RefLU(n - 1, L->A, L->B, L->C, L->ip);
    for (long i = 0; i < n - 1; i++) L->q[i] = 0.0;
    L->q[0] += L->A[0];
    L->q[n - 2] += L->C[n - 2];
    RefLUSolve(n - 1, L->A, L->C, L->ip, L->q);
    L->last = L->pinned ? 0.0 : 1.0 / (L->B[n - 1] - L->C[n - 1] * L->q[0] - L->A[n - 1] * L->q[n - 2]);
  } else if (n >= 3) { /* the interior of a block: every row has both couplings */
    RefDiagonal(n, 1, L->A, L->C, L->R, L->B);
    RefLU(n - 2, L->A + 1, L->B + 1, L->C + 1, L->ip + 1);
    for (long i = 1; i < n - 1; i++) L->al[i] = L->be[i] = 0.0;
    L->al[1] = L->A[1];
    L->be[n - 2] += L->C[n - 2];
    RefLUSolve(n - 2, L->A + 1, L->C + 1, L->ip + 1, L->al + 1);
    RefLUSolve(n - 2, L->A + 1, L->C + 1, L->ip + 1, L->be + 1);
  }
}

/* What kernel k makes of the line's data (after RefFactors(k, L)). */
static void RefRun(int k, RefLine *L)
{
  const long n = L->n;
  double    *d = L->d;

  switch (k) {
  case PPE_TD_K_THOMAS: /* a pinned line: rows 0..n-2 with x_{n-1} = 0 */
    RefLUSolve(L->pinned ? n - 1 : n, L->A, L->C, L->ip, d);
    if (L->pinned) d[n - 1] = 0.0;
    break;
  case PPE_TD_K_PTHOMAS:
    if (L->pinned) {
      RefLUSolve(n - 1, L->A, L->C, L->ip, d);
      d[n - 1] = 0.0;
    } else RefCyclic(n, L->A, L->B, L->C, d, L->w);
    break;
  case PPE_TD_K_REDUCE: /* g = T^-1 d on the interior, the boundary rows' right-hand sides */
    if (n >= 3) RefLUSolve(n - 2, L->A + 1, L->C + 1, L->ip + 1, d + 1);
    L->r0 = n >= 3 ? d[0] - L->C[0] * d[1] : d[0];
    L->r1 = n >= 3 ? d[n - 1] - L->A[n - 1] * d[n - 2] : d[n - 1];
    break;
  case PPE_TD_K_RECON:
    for (long i = 1; i < n - 1; i++) d[i] = d[i] - L->al[i] * L->x0 - L->be[i] * L->x1;
    d[0]     = L->x0;
    d[n - 1] = L->x1;
    break;
  default:
    break;
  }
}

/* ------------------------------------------------------------ 1. every kernel against the reference */

/* The arrays of a kernel call (PPETdArgs); RB0, RB1 are r0, r1 (reduce) and x0, x1 (recon). */
enum {
  TA_A,
  TA_E,
  TA_C,
  TA_W,
  TA_SHIFT,
  TA_MASK,
  TA_IP,
  TA_Q,
  TA_AL,
  TA_BE,
  TA_LAST,
  TA_D,
  TA_RB0,
  TA_RB1,
  TA_S,
  TA_T,
  TA_U,
  TA_NARR
};
static const int ta_written[TA_NARR] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};

typedef struct {
  long gs, rs, ls;
} TdStride;

typedef enum {
  DATA_PACKED,    /* [group][row][lane] */
  DATA_NATURAL,   /* element (s, k) at s + k nsys: groups of SZ consecutive lines */
  DATA_LINEMAJOR, /* element (s, k) at s n + k: lane stride n, not unit */
  DATA_REDUCED    /* one group of SZ lanes, [row][lane], as the reduced systems */
} TdData;

typedef struct {
  const char  *name;
  int          G, SZ, nsys; /* groups and lanes per group of the arrays; lines (natural) */
  int          coefline;    /* coefficients per line, else shared by all lines */
  int          factline;    /* factors per line, else shared */
  TdData       data;
  int          nR; /* blocks run one after the other (the library's full groups, then the last) */
  ppe_td_lanes R[2];
  int          longn; /* also at n = TD_LONG_N */
} TdLayout;

/* The strides of the arrays of layout L with n rows, as the library builds its views. */
static void TdStrides(const TdLayout *L, long n, TdStride st[])
{
  const long SZ   = L->SZ;
  int        red  = L->data == DATA_REDUCED;
  TdStride   line = {red ? 0 : n * SZ, SZ, 1}, shared = {0, 1, 0}, lane = {red ? 0 : SZ, 0, 1};

  st[TA_A] = st[TA_E] = st[TA_C] = L->coefline ? line : shared;
  st[TA_W]                       = shared;
  st[TA_SHIFT] = st[TA_MASK] = st[TA_LAST] = st[TA_RB0] = st[TA_RB1] = lane;
  st[TA_IP] = st[TA_Q] = st[TA_AL] = st[TA_BE] = L->factline ? line : shared;
  st[TA_S] = st[TA_T] = st[TA_U] = line;
  switch (L->data) {
  case DATA_NATURAL:
    st[TA_D].gs = SZ, st[TA_D].rs = L->nsys, st[TA_D].ls = 1;
    break;
  case DATA_LINEMAJOR:
    st[TA_D].gs = SZ * n, st[TA_D].rs = 1, st[TA_D].ls = n;
    break;
  default:
    st[TA_D] = line;
  }
}

/* Index of element (g, i, l) of an array with strides st: the layout's definition. */
static size_t TdAt(const TdStride *st, long g, long i, long l)
{
  return (size_t)(g * st->gs + i * st->rs + l * st->ls);
}

/* The views of the arrays at p with strides st. */
static void TdArgs(double *const p[], const TdStride st[], PPETdArgs *x)
{
  memset(x, 0, sizeof(*x));
  x->a     = TdC(p[TA_A], st[TA_A].gs, st[TA_A].rs, st[TA_A].ls);
  x->e     = TdC(p[TA_E], st[TA_E].gs, st[TA_E].rs, st[TA_E].ls);
  x->c     = TdC(p[TA_C], st[TA_C].gs, st[TA_C].rs, st[TA_C].ls);
  x->w     = TdC(p[TA_W], st[TA_W].gs, st[TA_W].rs, st[TA_W].ls);
  x->shift = TdC(p[TA_SHIFT], st[TA_SHIFT].gs, st[TA_SHIFT].rs, st[TA_SHIFT].ls);
  x->mask  = TdC(p[TA_MASK], st[TA_MASK].gs, st[TA_MASK].rs, st[TA_MASK].ls);
  x->ip    = TdC(p[TA_IP], st[TA_IP].gs, st[TA_IP].rs, st[TA_IP].ls);
  x->q     = TdC(p[TA_Q], st[TA_Q].gs, st[TA_Q].rs, st[TA_Q].ls);
  x->al    = TdC(p[TA_AL], st[TA_AL].gs, st[TA_AL].rs, st[TA_AL].ls);
  x->be    = TdC(p[TA_BE], st[TA_BE].gs, st[TA_BE].rs, st[TA_BE].ls);
  x->last  = TdC(p[TA_LAST], st[TA_LAST].gs, st[TA_LAST].rs, st[TA_LAST].ls);
  x->d     = TdW(p[TA_D], st[TA_D].gs, st[TA_D].rs, st[TA_D].ls);
  x->r0    = TdW(p[TA_RB0], st[TA_RB0].gs, st[TA_RB0].rs, st[TA_RB0].ls);
  x->r1    = TdW(p[TA_RB1], st[TA_RB1].gs, st[TA_RB1].rs, st[TA_RB1].ls);
  x->x0    = TdC(p[TA_RB0], st[TA_RB0].gs, st[TA_RB0].rs, st[TA_RB0].ls);
  x->x1    = TdC(p[TA_RB1], st[TA_RB1].gs, st[TA_RB1].rs, st[TA_RB1].ls);
  x->s     = TdW(p[TA_S], st[TA_S].gs, st[TA_S].rs, st[TA_S].ls);
  x->t     = TdW(p[TA_T], st[TA_T].gs, st[TA_T].rs, st[TA_T].ls);
  x->u     = TdW(p[TA_U], st[TA_U].gs, st[TA_U].rs, st[TA_U].ls);
}

/* Random contents: M-matrix couplings (A, C < 0) and row excess E + shift W > 0 (diagonally
   dominant lines), some pinned lanes (mask 0); the shift of every lane the same where the
   factors are shared by all lines (then all lanes have one system). The factors are set per
   kernel by TdSetFactors. */
static void TdFillArray(const TdLayout *L, int i, double *v, size_t n)
{
  switch (i) {
  case TA_A:
  case TA_C:
    HFill(v, n, -1.0, -0.1);
    break;
  case TA_E:
    HFill(v, n, 0.05, 0.5);
    break;
  case TA_W:
    HFill(v, n, 0.5, 1.5);
    break;
  case TA_SHIFT:
    if (L->factline) HFill(v, n, 0.0, 1.0);
    else
      for (size_t j = 0; j < n; j++) v[j] = 0.25;
    break;
  case TA_MASK:
    for (size_t j = 0; j < n; j++) v[j] = j % 7 == 3 ? 0.0 : 1.0;
    break;
  default:
    HFill(v, n, -1.0, 1.0);
  }
}

/* The line of lane (g, l) of the host arrays h with strides st, n rows: coefficients, row
   excess, pinning, and (with d) its data and boundary values. */
static void TdGetLine(double *const h[], const TdStride st[], long g, long l, RefLine *L)
{
  double shift = h[TA_SHIFT][TdAt(&st[TA_SHIFT], g, 0, l)];

  for (long i = 0; i < L->n; i++) {
    L->A[i] = h[TA_A][TdAt(&st[TA_A], g, i, l)];
    L->C[i] = h[TA_C][TdAt(&st[TA_C], g, i, l)];
    L->R[i] = h[TA_E][TdAt(&st[TA_E], g, i, l)] + shift * h[TA_W][TdAt(&st[TA_W], g, i, l)];
    L->d[i] = h[TA_D][TdAt(&st[TA_D], g, i, l)];
  }
  L->pinned = h[TA_MASK][TdAt(&st[TA_MASK], g, 0, l)] == 0.0;
  L->x0     = h[TA_RB0][TdAt(&st[TA_RB0], g, 0, l)];
  L->x1     = h[TA_RB1][TdAt(&st[TA_RB1], g, 0, l)];
}

/* A line's work arrays, n rows. */
static void TdLineAlloc(long n, RefLine *L)
{
  double *p = HMallocHost((size_t)12 * (size_t)n);

  L->n  = n;
  L->A  = p;
  L->C  = p + n;
  L->R  = p + 2 * n;
  L->d  = p + 3 * n;
  L->ip = p + 4 * n;
  L->q  = p + 5 * n;
  L->al = p + 6 * n;
  L->be = p + 7 * n;
  L->B  = p + 8 * n;
  L->w  = p + 9 * n;
}

/* Set the factors of kernel k in h for every lane of the blocks of L (shared factors: every
   lane writes the same values, its system being the one of all lanes). */
static void TdSetFactors(int k, const TdLayout *L, long n, const TdStride st[], double *const h[])
{
  RefLine Ln;

  TdLineAlloc(n, &Ln);
  for (int j = 0; j < L->nR; j++)
    for (long g = L->R[j].g0; g < L->R[j].g1; g++)
      for (long l = L->R[j].l0; l < L->R[j].l1; l++) {
        TdGetLine(h, st, g, l, &Ln);
        RefFactors(k, &Ln);
        for (long i = 0; i < n; i++) {
          if (k == PPE_TD_K_THOMAS || k == PPE_TD_K_PTHOMAS || (i >= 1 && i < n - 1)) h[TA_IP][TdAt(&st[TA_IP], g, i, l)] = Ln.ip[i];
          if (k == PPE_TD_K_PTHOMAS && i < n - 1) h[TA_Q][TdAt(&st[TA_Q], g, i, l)] = Ln.q[i];
          if (k == PPE_TD_K_RECON && i >= 1 && i < n - 1) {
            h[TA_AL][TdAt(&st[TA_AL], g, i, l)] = Ln.al[i];
            h[TA_BE][TdAt(&st[TA_BE], g, i, l)] = Ln.be[i];
          }
        }
        h[TA_LAST][TdAt(&st[TA_LAST], g, 0, l)] = Ln.last;
      }
  free(Ln.A);
}

/* The reference of kernel k: ref[i] (copies of the written arrays h[i]) with every lane of
   the blocks of L run by RefRun; in[i] marks the elements of those lanes. */
static void TdReference(int k, const TdLayout *L, long n, const TdStride st[], double *const h[], double *const ref[], char *const in[])
{
  RefLine Ln;

  TdLineAlloc(n, &Ln);
  for (int j = 0; j < L->nR; j++)
    for (long g = L->R[j].g0; g < L->R[j].g1; g++)
      for (long l = L->R[j].l0; l < L->R[j].l1; l++) {
        TdGetLine(h, st, g, l, &Ln);
        RefFactors(k, &Ln);
        RefRun(k, &Ln);
        for (long i = 0; i < n; i++) ref[TA_D][TdAt(&st[TA_D], g, i, l)] = Ln.d[i];
        if (k == PPE_TD_K_REDUCE) {
          ref[TA_RB0][TdAt(&st[TA_RB0], g, 0, l)] = Ln.r0;
          ref[TA_RB1][TdAt(&st[TA_RB1], g, 0, l)] = Ln.r1;
        }
        for (int a = TA_D; a < TA_NARR; a++)
          for (long i = 0; i < ((a == TA_RB0 || a == TA_RB1) ? 1 : n); i++) in[a][TdAt(&st[a], g, i, l)] = 1;
      }
  free(Ln.A);
}

/* What the cases of one kernel, pre-computed or fly, gave. */
typedef struct {
  int    cases, fails;
  double diff;     /* largest |device - reference| / max |reference| */
  char   bad[200]; /* the first failing case */
} TdAgg;

/* The largest |b - ref| / max |ref| over the elements of the lanes run, where a (the data;
   r0 and r1 of reduce) is compared to the reference; *same: every other element of every
   written array kept its bits (the scratch of the lanes run is free). */
static double TdCompare(int k, const size_t span[], double *const back[], double *const ref[], char *const in[], int *same)
{
  double err = 0.0, scale = 0.0;

  *same = 1;
  for (int a = TA_D; a < TA_NARR; a++) {
    int checked = a == TA_D || (k == PPE_TD_K_REDUCE && (a == TA_RB0 || a == TA_RB1)), scratch = a >= TA_S;

    for (size_t j = 0; j < span[a]; j++) {
      if (in[a][j] && checked) {
        double e = fabs(back[a][j] - ref[a][j]);

        if (!(e <= err)) err = e;
        if (fabs(ref[a][j]) > scale) scale = fabs(ref[a][j]);
      } else if (!(in[a][j] && scratch) && memcmp(&back[a][j], &ref[a][j], sizeof(double))) *same = 0;
    }
  }
  return scale > 0.0 ? err / scale : err;
}

/* Every kernel on layout L with n rows: the device against the reference. */
static void TdCheckLayout(const TdLayout *L, long n, TdAgg agg[PPE_TD_K_NUM][2])
{
  TdStride st[TA_NARR];
  size_t   span[TA_NARR];
  double  *h0[TA_NARR], *hk[TA_NARR], *dp[TA_NARR], *ref[TA_NARR], *back[TA_NARR];
  char    *in[TA_NARR];

  TdStrides(L, n, st);
  for (int i = 0; i < TA_NARR; i++) {
    span[i] = (size_t)((long)(L->G - 1) * st[i].gs + (n - 1) * st[i].rs + (long)(L->SZ - 1) * st[i].ls + 1);
    h0[i]   = HMallocHost(span[i]);
    hk[i]   = HMallocHost(span[i]);
    TdFillArray(L, i, h0[i], span[i]);
    dp[i]  = HAlloc(span[i]);
    ref[i] = back[i] = NULL;
    in[i]            = NULL;
    if (ta_written[i]) {
      ref[i]  = HMallocHost(span[i]);
      back[i] = HMallocHost(span[i]);
      in[i]   = calloc(span[i], 1);
    }
  }
  for (int k = 0; k < PPE_TD_K_NUM; k++)
    for (int fly = 0; fly < 2; fly++) {
      TdAgg    *A = &agg[k][fly];
      PPETdArgs xd;
      int       same = 1, changed = 0;
      double    err;

      for (int i = 0; i < TA_NARR; i++) memcpy(hk[i], h0[i], span[i] * sizeof(double));
      TdSetFactors(k, L, n, st, hk);
      for (int i = 0; i < TA_NARR; i++) {
        HPut(dp[i], hk[i], span[i]);
        if (ta_written[i]) {
          memcpy(ref[i], hk[i], span[i] * sizeof(double));
          memset(in[i], 0, span[i]);
        }
      }
      TdReference(k, L, n, st, hk, ref, in);
      TdArgs(dp, st, &xd);
      for (int j = 0; j < L->nR; j++) TdDev(k, fly, L->R[j], n, &xd);
      for (int i = 0; i < TA_NARR; i++)
        if (ta_written[i]) HGet(back[i], dp[i], span[i]);
      err = TdCompare(k, span, back, ref, in, &same);
      /* the kernel wrote its result: the data, or the boundary rows' right-hand sides of reduce */
      changed = memcmp(back[TA_D], hk[TA_D], span[TA_D] * sizeof(double)) != 0 || (k == PPE_TD_K_REDUCE && memcmp(back[TA_RB0], hk[TA_RB0], span[TA_RB0] * sizeof(double)) != 0);
      A->cases++;
      if (!(err <= A->diff)) A->diff = err;
      if (!(err <= TD_REF_TOL && same && changed)) {
        if (!A->fails++) snprintf(A->bad, sizeof(A->bad), "; FIRST FAILURE: n = %ld, %s: relative error %.2e%s%s", n, L->name, err, same ? "" : ", a value outside the lanes run changed", changed ? "" : ", nothing written");
      }
    }
  for (int i = 0; i < TA_NARR; i++) {
    HFree(dp[i]);
    free(h0[i]);
    free(hk[i]);
    free(ref[i]);
    free(back[i]);
    free(in[i]);
  }
}

static void TdCheckReference(void)
{
  const int      SZ = TD_SZ, G = TD_G;
  const TdLayout layouts[] = {
    {"packed, per-line coefficients and factors (full block)",              G,  SZ,  G * SZ,      1, 1, DATA_PACKED,    1, {{0, G, 0, SZ}},                  1},
    {"packed, shared coefficients and factors (full block)",                G,  SZ,  G * SZ,      0, 0, DATA_PACKED,    1, {{0, G, 0, SZ}},                  1},
    {"natural, shared coefficients, per-line factors (full block)",         G,  SZ,  G * SZ,      0, 1, DATA_NATURAL,   1, {{0, G, 0, SZ}},                  1},
    {"packed, per-line (partial block)",                                    3,  SZ,  3 * SZ,      1, 1, DATA_PACKED,    1, {{1, 3, 2, 7}},                   0},
    {"natural, shared (last group of 21 lines)",                            3,  SZ,  2 * SZ + 5,  0, 0, DATA_NATURAL,   1, {{2, 3, 0, 5}},                   0},
    {"natural, per-line factors, 333 lines (41 full groups, then 5 lines)", 42, SZ,  41 * SZ + 5, 0, 1, DATA_NATURAL,   2, {{0, 41, 0, SZ}, {41, 42, 0, 5}}, 1},
    {"line-major natural (lane stride n), per-line",                        2,  SZ,  2 * SZ,      1, 1, DATA_LINEMAJOR, 1, {{0, 2, 1, SZ}},                  0},
    {"packed, per-line, 40 groups in one call (320 lanes)",                 40, SZ,  40 * SZ,     1, 1, DATA_PACKED,    1, {{0, 40, 0, SZ}},                 0},
    {"reduced systems (one group of 13 lanes)",                             1,  13,  13,          1, 1, DATA_REDUCED,   1, {{0, 1, 0, 13}},                  0},
    {"reduced systems (one group of 300 lanes, lanes 3..299)",              1,  300, 300,         1, 1, DATA_REDUCED,   1, {{0, 1, 3, 300}},                 0},
  };
  const int  nlay    = (int)(sizeof(layouts) / sizeof(layouts[0]));
  const long sizes[] = {2, 3, 17, TD_LONG_N};
  TdAgg      agg[PPE_TD_K_NUM][2];

  memset(agg, 0, sizeof(agg));
  for (int j = 0; j < nlay; j++)
    for (int s = 0; s < 4; s++)
      if (sizes[s] != TD_LONG_N || layouts[j].longn) TdCheckLayout(&layouts[j], sizes[s], agg);
  for (int k = 0; k < PPE_TD_K_NUM; k++)
    for (int fly = 0; fly < 2; fly++) {
      char name[48];

      snprintf(name, sizeof(name), "tridiag %s%s", td_kname[k], fly ? " fly" : "");
      HCheck(name, agg[k][fly].cases > 0 && agg[k][fly].fails == 0,
             "%d cases (%d layouts: packed, natural, line-major, reduced; shared and per-line coefficients and factors; full and partial blocks up to 333 lanes; pinned lanes; n = 2, 3, 17, %d) against "
             "the textbook reference (LU without pivoting, Sherman-Morrison for periodic lines): max relative error %.2e (<= %.0e), every value outside the lanes run unchanged; %d failed (want 0 of > 0)%s",
             agg[k][fly].cases, nlay, TD_LONG_N, agg[k][fly].diff, TD_REF_TOL, agg[k][fly].fails, agg[k][fly].bad);
    }
}

/* ------------------------------------------------------------ 2. P-TDMA with pz blocks */

/* Solve the dense system M x = b of size N (<= 8) by Gaussian elimination with partial
   pivoting; M and b are overwritten. */
static void TdDense(int N, double M[8][8], double b[8], double x[8])
{
  for (int k = 0; k < N; k++) {
    int p = k;
    for (int i = k + 1; i < N; i++)
      if (fabs(M[i][k]) > fabs(M[p][k])) p = i;
    if (p != k) {
      double t;
      for (int j = 0; j < N; j++) {
        t       = M[k][j];
        M[k][j] = M[p][j];
        M[p][j] = t;
      }
      t    = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    for (int i = k + 1; i < N; i++) {
      double f = M[i][k] / M[k][k];
      for (int j = k; j < N; j++) M[i][j] -= f * M[k][j];
      b[i] -= f * b[k];
    }
  }
  for (int i = N - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < N; j++) s -= M[i][j] * x[j];
    x[i] = s / M[i][i];
  }
}

/* Index of element (line s, row i) in the packed layout of lines of n rows. */
static size_t TdPk(long s, long n, long i)
{
  return ((size_t)(s / TD_SZ) * (size_t)n + (size_t)i) * TD_SZ + (size_t)(s % TD_SZ);
}

/*
   One P-TDMA solve of nl lines of n rows split into pz blocks, on the device, against the
   full-line Thomas solution on the host; periodic lines or not, pre-computed factors or fly.
   Returns the largest relative difference (and *res the largest relative residual of the
   reference).
*/
static double TdPtdmaCase(long n, int pz, int periodic, int fly, double *res)
{
  const long   nl = 37, G = (nl + TD_SZ - 1) / TD_SZ, np = G * TD_SZ; /* 4 full groups and 5 lanes */
  const size_t N = (size_t)G * (size_t)n * TD_SZ;
  /* the full groups in one launch, the last group's lines in another, as the library */
  const ppe_td_lanes Rs[2] = {
    {0,                 (int)(nl / TD_SZ), 0, TD_SZ            },
    {(int)(nl / TD_SZ), (int)G,            0, (int)(nl % TD_SZ)}
  };
  long    start[5];
  double *a = HMallocHost(N), *e = HMallocHost(N), *c = HMallocHost(N), *w = HMallocHost((size_t)n);
  double *shift = HMallocHost((size_t)np), *mask = HMallocHost((size_t)np);
  double *d0 = HMallocHost(N), *ref = HMallocHost(N), *out = HMallocHost(N);
  double *ipb = HMallocHost(N), *alb = HMallocHost(N), *beb = HMallocHost(N);
  double *rb0 = HMallocHost((size_t)pz * np), *rb1 = HMallocHost((size_t)pz * np);
  double *red = HMallocHost((size_t)nl * pz * 6); /* the reduced rows of every block */
  RefLine Ln, Lb;
  double *dd, *da, *de, *dc, *dw, *dshift, *dmask, *dip, *dal, *dbe, *dr0, *dr1, *ds, *dt, *du;
  double  rel, resmax = 0.0;

  /* blocks as even as they go, the first ones one row longer */
  for (int b = 0; b <= pz; b++) start[b] = (long)b * (n / pz) + (b < (int)(n % pz) ? b : (long)(n % pz));
  /* coefficients per line (distinct lines): a well-conditioned M-matrix; a non-periodic line
     has no A_0 and no C_{n-1} (zero, as the library's set-up gives them to the kernels) */
  HFill(a, N, -1.0, -0.1);
  HFill(c, N, -1.0, -0.1);
  HFill(e, N, 0.5, 1.5);
  HFill(w, (size_t)n, 0.5, 1.5);
  HFill(shift, (size_t)np, 0.0, 1.0);
  for (long s = 0; s < np; s++) mask[s] = 1.0;
  HFill(d0, N, -1.0, 1.0);
  if (!periodic)
    for (long s = 0; s < np; s++) {
      a[TdPk(s, n, 0)]     = 0.0;
      c[TdPk(s, n, n - 1)] = 0.0;
    }
  /* per line: the reference solution of the whole line, and each block's reduction factors */
  TdLineAlloc(n, &Ln);
  TdLineAlloc(n, &Lb);
  memcpy(ref, d0, N * sizeof(double));
  for (long s = 0; s < nl; s++) {
    for (long i = 0; i < n; i++) {
      Ln.A[i] = a[TdPk(s, n, i)];
      Ln.C[i] = c[TdPk(s, n, i)];
      Ln.R[i] = e[TdPk(s, n, i)] + shift[s] * w[i];
      Ln.d[i] = d0[TdPk(s, n, i)];
    }
    Ln.pinned = 0;
    RefFactors(periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, &Ln);
    RefRun(periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, &Ln);
    for (long i = 0; i < n; i++) ref[TdPk(s, n, i)] = Ln.d[i];
    for (int b = 0; b < pz; b++) {
      long    m = start[b + 1] - start[b], o = start[b];
      double *row = red + ((size_t)s * pz + b) * 6;
      /* B = R - A - C of the block's first and last rows */
      double B0 = Ln.R[o] - Ln.A[o] - Ln.C[o], B1 = Ln.R[o + m - 1] - Ln.A[o + m - 1] - Ln.C[o + m - 1];

      Lb.n = m;
      memcpy(Lb.A, Ln.A + o, (size_t)m * sizeof(double));
      memcpy(Lb.C, Ln.C + o, (size_t)m * sizeof(double));
      memcpy(Lb.R, Ln.R + o, (size_t)m * sizeof(double));
      if (m >= 3) {
        RefFactors(PPE_TD_K_RECON, &Lb); /* ip, al, be of the block's interior */
        for (long i = 1; i < m - 1; i++) {
          ipb[TdPk(s, n, o + i)] = Lb.ip[i];
          alb[TdPk(s, n, o + i)] = Lb.al[i];
          beb[TdPk(s, n, o + i)] = Lb.be[i];
        }
        /* x_i = g_i - al_i x_0 - be_i x_{m-1} in the first and last rows */
        row[0] = Lb.A[0];
        row[1] = B0 - Lb.C[0] * Lb.al[1];
        row[2] = -(Lb.C[0] * Lb.be[1]);
        row[3] = -(Lb.A[m - 1] * Lb.al[m - 2]);
        row[4] = B1 - Lb.A[m - 1] * Lb.be[m - 2];
        row[5] = Lb.C[m - 1];
      } else {
        row[0] = Lb.A[0];
        row[1] = B0;
        row[2] = Lb.C[0];
        row[3] = Lb.A[1];
        row[4] = B1;
        row[5] = Lb.C[1];
      }
    }
  }
  /* its residual, with the matrix in the usual form (wrap terms are zero for non-periodic) */
  for (long s = 0; s < nl; s++) {
    double rmax = 0.0, dmax = 0.0;

    for (long i = 0; i < n; i++) {
      size_t k  = TdPk(s, n, i);
      double Ai = a[k], Ci = c[k], Bi = e[k] + shift[s] * w[i] - Ai - Ci;
      double r = Ai * ref[TdPk(s, n, (i + n - 1) % n)] + Bi * ref[k] + Ci * ref[TdPk(s, n, (i + 1) % n)] - d0[k];

      if (!(fabs(r) <= rmax)) rmax = fabs(r);
      if (fabs(d0[k]) > dmax) dmax = fabs(d0[k]);
    }
    if (!(rmax / dmax <= resmax)) resmax = rmax / dmax;
  }
  *res = resmax;

  /* the device: reduce every block, the reduced systems on the host, recon every block */
  dd     = HUpload(d0, N);
  da     = HUpload(a, N);
  de     = HUpload(e, N);
  dc     = HUpload(c, N);
  dw     = HUpload(w, (size_t)n);
  dshift = HUpload(shift, (size_t)np);
  dmask  = HUpload(mask, (size_t)np);
  dip    = HUpload(ipb, N);
  dal    = HUpload(alb, N);
  dbe    = HUpload(beb, N);
  dr0    = HUpload(rb0, (size_t)pz * np);
  dr1    = HUpload(rb1, (size_t)pz * np);
  ds     = HUpload(out, N); /* zeros */
  dt     = HUpload(out, N);
  du     = HUpload(out, N);
  for (int pass = 0; pass < 2; pass++) {
    for (int b = 0; b < pz; b++) {
      long      m = start[b + 1] - start[b], o = start[b] * TD_SZ;
      PPETdArgs x;

      /* the block's rows of every line: the views of a rank that holds rows start..start+m */
      memset(&x, 0, sizeof(x));
      x.a     = TdC(da + o, n * TD_SZ, TD_SZ, 1);
      x.e     = TdC(de + o, n * TD_SZ, TD_SZ, 1);
      x.c     = TdC(dc + o, n * TD_SZ, TD_SZ, 1);
      x.w     = TdC(dw + start[b], 0, 1, 0);
      x.shift = TdC(dshift, TD_SZ, 0, 1);
      x.mask  = TdC(dmask, TD_SZ, 0, 1);
      x.ip    = TdC(dip + o, n * TD_SZ, TD_SZ, 1);
      x.al    = TdC(dal + o, n * TD_SZ, TD_SZ, 1);
      x.be    = TdC(dbe + o, n * TD_SZ, TD_SZ, 1);
      x.d     = TdW(dd + o, n * TD_SZ, TD_SZ, 1);
      x.r0    = TdW(dr0 + (size_t)b * np, TD_SZ, 0, 1);
      x.r1    = TdW(dr1 + (size_t)b * np, TD_SZ, 0, 1);
      x.x0    = TdC(dr0 + (size_t)b * np, TD_SZ, 0, 1);
      x.x1    = TdC(dr1 + (size_t)b * np, TD_SZ, 0, 1);
      x.s     = TdW(ds + o, n * TD_SZ, TD_SZ, 1);
      x.t     = TdW(dt + o, n * TD_SZ, TD_SZ, 1);
      x.u     = TdW(du + o, n * TD_SZ, TD_SZ, 1);
      for (int j = 0; j < 2; j++) TdDev(pass ? PPE_TD_K_RECON : PPE_TD_K_REDUCE, fly, Rs[j], m, &x);
    }
    if (pass) break;
    /* the reduced system of each line: unknowns x_0 and x_{m-1} of blocks 0..pz-1, each
       first row coupled to the previous block's last unknown (cyclic when periodic; the
       coupling is zero otherwise), each last row to the next block's first */
    HGet(rb0, dr0, (size_t)pz * np);
    HGet(rb1, dr1, (size_t)pz * np);
    for (long s = 0; s < nl; s++) {
      double M[8][8], rhs[8], xs[8];
      int    N2 = 2 * pz;

      memset(M, 0, sizeof(M));
      for (int b = 0; b < pz; b++) {
        const double *row = red + ((size_t)s * pz + b) * 6;
        int           i0 = 2 * b, i1 = 2 * b + 1;

        M[i0][(i0 + N2 - 1) % N2] += row[0];
        M[i0][i0] += row[1];
        M[i0][i1] += row[2];
        M[i1][i0] += row[3];
        M[i1][i1] += row[4];
        M[i1][(i1 + 1) % N2] += row[5];
        rhs[i0] = rb0[(size_t)b * np + s];
        rhs[i1] = rb1[(size_t)b * np + s];
      }
      TdDense(N2, M, rhs, xs);
      for (int b = 0; b < pz; b++) {
        rb0[(size_t)b * np + s] = xs[2 * b];
        rb1[(size_t)b * np + s] = xs[2 * b + 1];
      }
    }
    HPut(dr0, rb0, (size_t)pz * np);
    HPut(dr1, rb1, (size_t)pz * np);
  }
  HGet(out, dd, N);
  rel = HRelDiff(out, ref, N);

  HFree(dd);
  HFree(da);
  HFree(de);
  HFree(dc);
  HFree(dw);
  HFree(dshift);
  HFree(dmask);
  HFree(dip);
  HFree(dal);
  HFree(dbe);
  HFree(dr0);
  HFree(dr1);
  HFree(ds);
  HFree(dt);
  HFree(du);
  free(a);
  free(e);
  free(c);
  free(w);
  free(shift);
  free(mask);
  free(d0);
  free(ref);
  free(out);
  free(ipb);
  free(alb);
  free(beb);
  free(rb0);
  free(rb1);
  free(red);
  free(Ln.A);
  free(Lb.A);
  return rel;
}

static void TdCheckPtdma(void)
{
  /* (n, pz): blocks of 2 rows (8, 4), of 4 and 3 rows (13, 4), uneven (37, 4), even (64, 2),
     long (1001, 2), (2000, 4) */
  const long sizes[][2] = {
    {8,    4},
    {13,   4},
    {37,   4},
    {64,   2},
    {1001, 2},
    {2000, 4},
  };
  const int ns = (int)(sizeof(sizes) / sizeof(sizes[0]));

  for (int periodic = 0; periodic < 2; periodic++)
    for (int fly = 0; fly < 2; fly++) {
      double worst = 0.0, worst_res = 0.0;
      char   name[64];

      for (int j = 0; j < ns; j++) {
        double res = 0.0, rel = TdPtdmaCase(sizes[j][0], (int)sizes[j][1], periodic, fly, &res);

        if (!(rel <= worst)) worst = rel;
        if (!(res <= worst_res)) worst_res = res;
      }
      snprintf(name, sizeof(name), "tridiag reduce+recon%s%s", fly ? " fly" : "", periodic ? " periodic" : "");
      HCheck(name, worst <= TD_PTDMA_TOL && worst_res <= TD_RES_TOL,
             "P-TDMA/DistD2 with pz ranks as blocks on one device, %s lines, 37 lines (full groups + 5), (n, pz) = (8,4) (13,4) (37,4) (64,2) (1001,2) (2000,4), "
             "reduced systems on the host: max relative difference to the reference solution of the whole line (%s) %.2e (<= %.0e), its residual %.2e (<= %.0e)",
             periodic ? "periodic" : "non-periodic", periodic ? "Sherman-Morrison" : "LU", worst, TD_PTDMA_TOL, worst_res, TD_RES_TOL);
    }
}

/* ------------------------------------------------------------ 3. timing */

/* Upload the host buffer h (n doubles) filled with uniform numbers in [lo, hi) into d; waits,
   so that h can be refilled at once. */
static void TdFillDev(double *d, double *h, size_t n, double lo, double hi)
{
  HFill(h, n, lo, hi);
  HPut(d, h, n);
  HSync();
}

/* Upload the n values v of one line as the per-line factors of every line (packed layout,
   ng groups) into d, through the host buffer h. */
static void TdBroadcast(double *d, double *h, long ng, long n, const double *v)
{
  for (long g = 0; g < ng; g++)
    for (long i = 0; i < n; i++)
      for (long l = 0; l < TD_SZ; l++) h[((size_t)g * (size_t)n + (size_t)i) * TD_SZ + (size_t)l] = v[i];
  HPut(d, h, (size_t)ng * (size_t)n * TD_SZ);
  HSync();
}

static void TdTime(void)
{
  /* 512 x 512 lines of 512 rows: 2^27 points, 1 GiB per array */
  const long         side = H.emu ? 16 : 512, n = H.emu ? 64 : 512, lines = side * side;
  const size_t       N = (size_t)lines * (size_t)n, L = (size_t)lines;
  const int          ng    = (int)(lines / TD_SZ);
  const ppe_td_lanes R     = {0, ng, 0, TD_SZ};
  const double       shift = 0.02;
  double            *h = HMallocHost(N), *a = HMallocHost((size_t)n), *e = HMallocHost((size_t)n);
  double            *c = HMallocHost((size_t)n), *w = HMallocHost((size_t)n);
  RefLine            Lr;
  double            *dd, *dd0, *dipT, *dipP, *dq, *dipR, *dal, *dbe, *ds, *dt, *du;
  double            *da, *de, *dc, *dw, *dshift, *dmask, *dlastT, *dlastP, *dr0, *dr1;
  double             lastT, lastP;
  PPETdArgs          x;
  char               size[40];
  double             sec;
  /* Bytes every kernel moves at least: the data read and written; the per-line factors it
     reads (pre: thomas ip, pthomas ip and q, reduce ip, recon al and be); of the
     coefficients shared by all lines a, c (pre) or a, e, c, w (fly) of n rows, and per lane
     last (pre) or shift and mask (fly); reduce writes r0, r1 and recon reads them (2 per
     lane each). The fly kernels' scratch s, t, u (per line, written and read back) is not
     counted: it is work space the method chooses, so a fly kernel's fraction of copy
     understates its memory traffic. */
  const double data = 2.0 * 8.0 * (double)N, line = 8.0 * (double)N, ends = 8.0 * 2.0 * (double)L;
  const double pre_small = 8.0 * (2.0 * (double)n + (double)L), fly_small = 8.0 * (4.0 * (double)n + 2.0 * (double)L);

  dd     = HAlloc(N);
  dd0    = HAlloc(N);
  dipT   = HAlloc(N);
  dipP   = HAlloc(N);
  dq     = HAlloc(N);
  dipR   = HAlloc(N);
  dal    = HAlloc(N);
  dbe    = HAlloc(N);
  ds     = HAlloc(N);
  dt     = HAlloc(N);
  du     = HAlloc(N);
  da     = HAlloc((size_t)n);
  de     = HAlloc((size_t)n);
  dc     = HAlloc((size_t)n);
  dw     = HAlloc((size_t)n);
  dshift = HAlloc(L);
  dmask  = HAlloc(L);
  dlastT = HAlloc(L);
  dlastP = HAlloc(L);
  dr0    = HAlloc(L);
  dr1    = HAlloc(L);
  /* One matrix for every line (shared coefficients, the same shift), an M-matrix with row
     excess near 1, and its own factors stored per line: the pre-computed and fly kernels
     solve the same systems, and repeated in-place solves keep the data finite and normal
     (||T^-1|| <= ~1.05, smooth modes shrink by ~1/(1 + shift) per call). */
  HFill(a, (size_t)n, -0.25, -0.05);
  HFill(c, (size_t)n, -0.25, -0.05);
  HFill(e, (size_t)n, 0.95, 1.05);
  HFill(w, (size_t)n, 0.5, 1.5);
  TdLineAlloc(n, &Lr); /* the factors of that line, from the reference's LU */
  for (long i = 0; i < n; i++) {
    Lr.A[i] = a[i];
    Lr.C[i] = c[i];
    Lr.R[i] = e[i] + shift * w[i];
  }
  Lr.pinned = 0;
  HPut(da, a, (size_t)n);
  HPut(dc, c, (size_t)n);
  HPut(de, e, (size_t)n);
  HPut(dw, w, (size_t)n);
  HSync();
  for (long i = 0; i < n; i++) Lr.ip[i] = Lr.q[i] = Lr.al[i] = Lr.be[i] = 0.0;
  RefFactors(PPE_TD_K_THOMAS, &Lr);
  lastT = Lr.last;
  TdBroadcast(dipT, h, ng, n, Lr.ip);
  RefFactors(PPE_TD_K_PTHOMAS, &Lr);
  lastP = Lr.last;
  TdBroadcast(dipP, h, ng, n, Lr.ip);
  TdBroadcast(dq, h, ng, n, Lr.q);
  RefFactors(PPE_TD_K_RECON, &Lr);
  TdBroadcast(dipR, h, ng, n, Lr.ip);
  TdBroadcast(dal, h, ng, n, Lr.al);
  TdBroadcast(dbe, h, ng, n, Lr.be);
  memset(h, 0, N * sizeof(double));
  HPut(ds, h, N);
  HPut(dt, h, N);
  HPut(du, h, N);
  HSync();
  for (size_t i = 0; i < L; i++) h[i] = shift;
  HPut(dshift, h, L);
  HSync();
  for (size_t i = 0; i < L; i++) h[i] = 1.0;
  HPut(dmask, h, L);
  HSync();
  for (size_t i = 0; i < L; i++) h[i] = lastT;
  HPut(dlastT, h, L);
  HSync();
  for (size_t i = 0; i < L; i++) h[i] = lastP;
  HPut(dlastP, h, L);
  HSync();
  TdFillDev(dr0, h, L, -1.0, 1.0);
  TdFillDev(dr1, h, L, -1.0, 1.0);
  TdFillDev(dd0, h, N, -1.0, 1.0);
  free(h);

  /* packed layout: data, factors and scratch [group][row][lane]; shared coefficients */
  memset(&x, 0, sizeof(x));
  x.a     = TdC(da, 0, 1, 0);
  x.e     = TdC(de, 0, 1, 0);
  x.c     = TdC(dc, 0, 1, 0);
  x.w     = TdC(dw, 0, 1, 0);
  x.shift = TdC(dshift, TD_SZ, 0, 1);
  x.mask  = TdC(dmask, TD_SZ, 0, 1);
  x.q     = TdC(dq, n * TD_SZ, TD_SZ, 1);
  x.al    = TdC(dal, n * TD_SZ, TD_SZ, 1);
  x.be    = TdC(dbe, n * TD_SZ, TD_SZ, 1);
  x.d     = TdW(dd, n * TD_SZ, TD_SZ, 1);
  x.r0    = TdW(dr0, TD_SZ, 0, 1);
  x.r1    = TdW(dr1, TD_SZ, 0, 1);
  x.x0    = TdC(dr0, TD_SZ, 0, 1);
  x.x1    = TdC(dr1, TD_SZ, 0, 1);
  x.s     = TdW(ds, n * TD_SZ, TD_SZ, 1);
  x.t     = TdW(dt, n * TD_SZ, TD_SZ, 1);
  x.u     = TdW(du, n * TD_SZ, TD_SZ, 1);
  snprintf(size, sizeof(size), "%ldx%ld lines n=%ld", side, side, n);

/* each row starts from the same data (a device copy, not timed) */
#define TD_RESET() HCALL(H.ops->copy(dd, dd0, N * sizeof(double), PPE_DEV_D2D, H.stream))

  x.ip   = TdC(dipT, n * TD_SZ, TD_SZ, 1);
  x.last = TdC(dlastT, TD_SZ, 0, 1);
  TD_RESET();
  HTIME(sec, TdDev(PPE_TD_K_THOMAS, 0, R, n, &x));
  HTiming("tridiag thomas packed", size, sec, data + line + pre_small, NULL, 0.0);
  TD_RESET();
  HTIME(sec, TdDev(PPE_TD_K_THOMAS, 1, R, n, &x));
  HTiming("tridiag thomas fly packed", size, sec, data + fly_small, NULL, 0.0);
  x.ip   = TdC(dipP, n * TD_SZ, TD_SZ, 1);
  x.last = TdC(dlastP, TD_SZ, 0, 1);
  TD_RESET();
  HTIME(sec, TdDev(PPE_TD_K_PTHOMAS, 0, R, n, &x));
  HTiming("tridiag pthomas packed", size, sec, data + 2.0 * line + pre_small, NULL, 0.0);
  TD_RESET();
  HTIME(sec, TdDev(PPE_TD_K_PTHOMAS, 1, R, n, &x));
  HTiming("tridiag pthomas fly packed", size, sec, data + fly_small, NULL, 0.0);
  x.ip = TdC(dipR, n * TD_SZ, TD_SZ, 1);
  TD_RESET();
  HTIME(sec, {
    TdDev(PPE_TD_K_REDUCE, 0, R, n, &x);
    TdDev(PPE_TD_K_RECON, 0, R, n, &x);
  });
  HTiming("tridiag reduce+recon packed", size, sec, 2.0 * data + 3.0 * line + pre_small + 2.0 * ends, NULL, 0.0);
  TD_RESET();
  HTIME(sec, {
    TdDev(PPE_TD_K_REDUCE, 1, R, n, &x);
    TdDev(PPE_TD_K_RECON, 1, R, n, &x);
  });
  HTiming("tridiag reduce+recon fly packed", size, sec, 2.0 * data + 2.0 * fly_small + 2.0 * ends, NULL, 0.0);

  /* natural layout of the data (z lines of a DMDA: consecutive lines contiguous), factors
     and scratch packed, as the library's resident solve (PC fftptdma's pencils) */
  x.d    = TdW(dd, TD_SZ, lines, 1);
  x.ip   = TdC(dipT, n * TD_SZ, TD_SZ, 1);
  x.last = TdC(dlastT, TD_SZ, 0, 1);
  TD_RESET();
  HTIME(sec, TdDev(PPE_TD_K_THOMAS, 0, R, n, &x));
  HTiming("tridiag thomas natural", size, sec, data + line + pre_small, NULL, 0.0);
  TD_RESET();
  HTIME(sec, TdDev(PPE_TD_K_THOMAS, 1, R, n, &x));
  HTiming("tridiag thomas fly natural", size, sec, data + fly_small, NULL, 0.0);
#undef TD_RESET

  HSync();
  HFree(dd);
  HFree(dd0);
  HFree(dipT);
  HFree(dipP);
  HFree(dq);
  HFree(dipR);
  HFree(dal);
  HFree(dbe);
  HFree(ds);
  HFree(dt);
  HFree(du);
  HFree(da);
  HFree(de);
  HFree(dc);
  HFree(dw);
  HFree(dshift);
  HFree(dmask);
  HFree(dlastT);
  HFree(dlastP);
  HFree(dr0);
  HFree(dr1);
  free(a);
  free(e);
  free(c);
  free(w);
  free(Lr.A);
}

void HFamily_tridiag(void)
{
  TdCheckReference();
  TdCheckPtdma();
  TdTime();
}

/*
   Harness family "tridiag": the launcher of the batched tridiagonal kernels
   (src/backend/device/tridiag_dev.h, bodies in src/kernels/tridiag.h), one thread per lane:

     thomas      Thomas on whole lines, factors pre-computed or computed on the fly;
     pthomas     periodic Thomas (a Thomas chain plus the Schur complement of the last row);
     reduce      the local reduction of P-TDMA and DistD2 to the two boundary rows of a block;
     recon       the reconstruction of a block's interior from its two boundary unknowns.

   1. Every kernel, pre-computed and fly, against a plain host loop that calls the same body
      of src/kernels/tridiag.h on the whole block of lanes in the host's order, bitwise (the
      header promises the host's bits: one lane's arithmetic does not depend on the order of
      the lanes). The cases are those of the library's own device test: the packed layout
      [group][row][lane], the natural layout of a DMDA's z lines (groups of SZ consecutive
      lines), a line-major natural layout (lane stride n), the reduced systems (one group of
      all lanes); shared and per-line coefficients and factors; full and partial blocks of
      lanes, pinned lanes (mask 0); n = 2, 3, 17 rows and a long n = 700. Some layouts have
      more than 256 lanes, so that a GPU launch has several thread blocks. The whole span of
      every written array is compared, so a write outside the block fails too.
   2. A P-TDMA / DistD2 solve with pz ranks simulated by pz blocks of rows on one device: each
      line of n rows is split into pz = 2 or 4 blocks (uneven sizes, blocks of 2 and 3 rows
      among them), reduce runs on every block, the reduced system of 2 pz unknowns per line
      (cyclic for periodic lines) is solved on the host, recon runs on every block, and the
      result must agree with a full-line Thomas solution (relative <= 1e-13) whose residual
      is also checked, for non-periodic and periodic lines, pre-computed and fly.
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
   PPE_TRIDIAG_SZ and PPE_TD_G (their headers need PETSc). */
#define TD_SZ 8
#define TD_G  4
/* The long line of the bitwise checks. */
#define TD_LONG_N 700
/* Tolerances of the P-TDMA solve: against the full-line Thomas solution, and its residual. */
#define TD_PTDMA_TOL 1e-13
#define TD_RES_TOL   1e-13

static const char *const td_kname[PPE_TD_K_NUM] = {"thomas", "pthomas", "reduce", "recon"};

/* Run kernel k through the back end under test. */
static void TdDev(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x)
{
  HCALL(H.ops->tridiag(k, fly, R, n, x, H.stream));
}

/* The reference: the body of kernel k on the block R in the host's order, views as given
   (what the host back end's generic call does). */
static void TdHost(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x)
{
  ppe_td_coefs K = ppe_td_args_coefs(x);

  switch (k) {
  case PPE_TD_K_THOMAS:
    if (fly) ppe_td_thomas_fly(R, n, K, x->s, x->t, x->d);
    else ppe_td_thomas(R, n, x->a, x->c, x->ip, x->last, x->d);
    break;
  case PPE_TD_K_PTHOMAS:
    if (fly) ppe_td_pthomas_fly(R, n, K, x->s, x->t, x->u, x->d);
    else ppe_td_pthomas(R, n, x->a, x->c, x->ip, x->q, x->last, x->d);
    break;
  case PPE_TD_K_REDUCE:
    if (fly) ppe_td_reduce_fly(R, n, K, x->s, x->u, x->d, x->r0, x->r1);
    else ppe_td_reduce(R, n, x->a, x->c, x->ip, x->d, x->r0, x->r1);
    break;
  case PPE_TD_K_RECON:
    if (fly) ppe_td_recon_fly(R, n, K, x->s, x->t, x->u, x->x0, x->x1, x->d);
    else ppe_td_recon(R, n, x->al, x->be, x->x0, x->x1, x->d);
    break;
  default:
    break;
  }
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

/* ------------------------------------------------------------ 1. bitwise, every kernel */

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
  int          nR;          /* blocks run one after the other (the library's full groups, then the last) */
  ppe_td_lanes R[2];
  int          longn;       /* also at n = TD_LONG_N */
} TdLayout;

/* The strides of the arrays of layout L with n rows, as the library builds its views. */
static void TdStrides(const TdLayout *L, long n, TdStride st[])
{
  const long SZ  = L->SZ;
  int        red = L->data == DATA_REDUCED;
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

/* Random contents: M-matrix couplings (A, C < 0, excess > 0), factors of the sizes set-up
   gives (not consistent with the coefficients: the comparison is bitwise, not of a
   solution), some pinned lanes (mask 0). */
static void TdFillArray(int i, double *v, size_t n)
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
    HFill(v, n, 0.0, 1.0);
    break;
  case TA_MASK:
    for (size_t j = 0; j < n; j++) v[j] = j % 7 == 3 ? 0.0 : 1.0;
    break;
  case TA_IP:
  case TA_LAST:
    HFill(v, n, 0.2, 0.5);
    break;
  case TA_Q:
    HFill(v, n, -0.9, 0.0);
    break;
  default:
    HFill(v, n, -1.0, 1.0);
  }
}

/* What the cases of one kernel, pre-computed or fly, gave. */
typedef struct {
  int    cases, fails;
  double diff;     /* largest |device - host| */
  char   bad[200]; /* the first failing case */
} TdAgg;

/* Every kernel on layout L with n rows: device against the host loop, bitwise. */
static void TdCheckLayout(const TdLayout *L, long n, TdAgg agg[PPE_TD_K_NUM][2])
{
  TdStride st[TA_NARR];
  size_t   span[TA_NARR];
  double  *h0[TA_NARR], *hw[TA_NARR], *hp[TA_NARR], *dp[TA_NARR], *back[TA_NARR];

  TdStrides(L, n, st);
  for (int i = 0; i < TA_NARR; i++) {
    span[i] = (size_t)((long)(L->G - 1) * st[i].gs + (n - 1) * st[i].rs + (long)(L->SZ - 1) * st[i].ls + 1);
    h0[i]   = HMallocHost(span[i]);
    TdFillArray(i, h0[i], span[i]);
    dp[i]   = HUpload(h0[i], span[i]);
    hw[i] = back[i] = NULL;
    if (ta_written[i]) {
      hw[i]   = HMallocHost(span[i]);
      back[i] = HMallocHost(span[i]);
    }
    hp[i] = ta_written[i] ? hw[i] : h0[i];
  }
  for (int k = 0; k < PPE_TD_K_NUM; k++)
    for (int fly = 0; fly < 2; fly++) {
      TdAgg    *A = &agg[k][fly];
      PPETdArgs xh, xd;
      int       same = 1, changed = 0;
      double    diff = 0.0;

      for (int i = 0; i < TA_NARR; i++)
        if (ta_written[i]) {
          memcpy(hw[i], h0[i], span[i] * sizeof(double));
          HPut(dp[i], h0[i], span[i]);
        }
      TdArgs(hp, st, &xh);
      TdArgs(dp, st, &xd);
      for (int j = 0; j < L->nR; j++) {
        TdHost(k, fly, L->R[j], n, &xh);
        TdDev(k, fly, L->R[j], n, &xd);
      }
      for (int i = 0; i < TA_NARR; i++)
        if (ta_written[i]) {
          double e = 0.0;

          HGet(back[i], dp[i], span[i]);
          if (!HBitwise(back[i], hw[i], span[i], &e)) same = 0;
          if (!(e <= diff)) diff = e;
          if (memcmp(hw[i], h0[i], span[i] * sizeof(double))) changed = 1;
        }
      A->cases++;
      if (!(diff <= A->diff)) A->diff = diff;
      if (!(same && changed)) {
        if (!A->fails++)
          snprintf(A->bad, sizeof(A->bad), "; FIRST FAILURE: n = %ld, %s%s", n, L->name, changed ? "" : " (the host wrote nothing)");
      }
    }
  for (int i = 0; i < TA_NARR; i++) {
    HFree(dp[i]);
    free(h0[i]);
    free(hw[i]);
    free(back[i]);
  }
}

static void TdCheckBitwise(void)
{
  const int      SZ = TD_SZ, G = TD_G;
  const TdLayout layouts[] = {
    {"packed, per-line coefficients and factors (full block)",                 G,  SZ, G * SZ,         1, 1, DATA_PACKED,    1, {{0, G, 0, SZ}},                        1},
    {"packed, shared coefficients and factors (full block)",                   G,  SZ, G * SZ,         0, 0, DATA_PACKED,    1, {{0, G, 0, SZ}},                        1},
    {"natural, shared coefficients, per-line factors (full block)",            G,  SZ, G * SZ,         0, 1, DATA_NATURAL,   1, {{0, G, 0, SZ}},                        1},
    {"packed, per-line (partial block)",                                       3,  SZ, 3 * SZ,         1, 1, DATA_PACKED,    1, {{1, 3, 2, 7}},                         0},
    {"natural, shared (last group of 21 lines)",                               3,  SZ, 2 * SZ + 5,     0, 0, DATA_NATURAL,   1, {{2, 3, 0, 5}},                         0},
    {"natural, per-line factors, 333 lines (41 full groups, then 5 lines)",    42, SZ, 41 * SZ + 5,    0, 1, DATA_NATURAL,   2, {{0, 41, 0, SZ}, {41, 42, 0, 5}},       1},
    {"line-major natural (lane stride n), per-line",                           2,  SZ, 2 * SZ,         1, 1, DATA_LINEMAJOR, 1, {{0, 2, 1, SZ}},                        0},
    {"packed, per-line, 40 groups in one call (320 lanes)",                    40, SZ, 40 * SZ,        1, 1, DATA_PACKED,    1, {{0, 40, 0, SZ}},                       0},
    {"reduced systems (one group of 13 lanes)",                                1,  13, 13,             1, 1, DATA_REDUCED,   1, {{0, 1, 0, 13}},                        0},
    {"reduced systems (one group of 300 lanes, lanes 3..299)",                 1,  300, 300,           1, 1, DATA_REDUCED,   1, {{0, 1, 3, 300}},                       0},
  };
  const int nlay = (int)(sizeof(layouts) / sizeof(layouts[0]));
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
             "%d cases (%d layouts: packed, natural, line-major, reduced; shared and per-line coefficients and factors; full and partial blocks up to 333 lanes; pinned lanes; n = 2, 3, 17, %d): every written array bitwise equal to the host loop's, %d failed, max |diff| %.2e%s",
             agg[k][fly].cases, nlay, TD_LONG_N, agg[k][fly].fails, agg[k][fly].diff, agg[k][fly].bad);
    }
}

/* ------------------------------------------------------------ 2. P-TDMA with pz blocks */

/*
   Thomas factors of one line given as (A, R, C) (R: the row excess B + A + C), with the
   expressions of the library's set-up and of the fly kernels: ip_0..ip_{n-2}; returns the
   last pivot. Periodic: the chain is rows 0..n-2, q = h - 1 with h = T^{-1} R', and the
   return value is the Schur complement R_{n-1} - C_{n-1} h_0 - A_{n-1} h_{n-2}.
*/
static double TdFactorLine(long n, int periodic, const double *A, const double *R, const double *C, double *ip, double *q)
{
  long   ne  = periodic ? n - 1 : n;
  double sig = R[0] - A[0];

  for (long i = 0; i < ne; i++) {
    if (i > 0) sig = R[i] - A[i] * (sig * ip[i - 1]);
    if (!periodic && i == n - 1) return sig;
    ip[i] = 1.0 / (sig - C[i]);
  }
  q[0] = R[0];
  for (long i = 1; i < n - 1; i++) q[i] = R[i] - (A[i] * ip[i - 1]) * q[i - 1];
  q[n - 2] = q[n - 2] * ip[n - 2];
  for (long i = n - 3; i >= 0; i--) q[i] = (q[i] - C[i] * q[i + 1]) * ip[i];
  {
    double s = R[n - 1] - C[n - 1] * q[0] - A[n - 1] * q[n - 2];
    for (long i = 0; i < n - 1; i++) q[i] = q[i] - 1.0;
    return s;
  }
}

/* The local reduction's factors of one block of m >= 3 rows: interior ip_1..ip_{m-2},
   al = T^{-1} (A_1 e_1) and be = T^{-1} (C_{m-2} e_{m-2}) on rows 1..m-2. */
static void TdFactorBlock(long m, const double *A, const double *R, const double *C, double *ip, double *al, double *be)
{
  double sig = 0.0;

  for (long i = 1; i < m - 1; i++) {
    double li = 0.0;

    if (i == 1) sig = R[1] - A[1];
    else {
      li  = A[i] * ip[i - 1];
      sig = R[i] - A[i] * (sig * ip[i - 1]);
    }
    ip[i] = 1.0 / (sig - C[i]);
    al[i] = i == 1 ? A[1] : -(li * al[i - 1]);
  }
  al[m - 2] = al[m - 2] * ip[m - 2];
  be[m - 2] = C[m - 2] * ip[m - 2];
  for (long i = m - 3; i >= 1; i--) {
    al[i] = (al[i] - C[i] * al[i + 1]) * ip[i];
    be[i] = (-(C[i] * be[i + 1])) * ip[i];
  }
}

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
  const ppe_td_lanes Rs[2] = {{0, (int)(nl / TD_SZ), 0, TD_SZ}, {(int)(nl / TD_SZ), (int)G, 0, (int)(nl % TD_SZ)}};
  long         start[5];
  double      *a = HMallocHost(N), *e = HMallocHost(N), *c = HMallocHost(N), *w = HMallocHost((size_t)n);
  double      *shift = HMallocHost((size_t)np), *mask = HMallocHost((size_t)np);
  double      *d0 = HMallocHost(N), *ref = HMallocHost(N), *out = HMallocHost(N);
  double      *ipf = HMallocHost(N), *qf = HMallocHost(N), *lastf = HMallocHost((size_t)np);
  double      *ipb = HMallocHost(N), *alb = HMallocHost(N), *beb = HMallocHost(N);
  double      *rb0 = HMallocHost((size_t)pz * np), *rb1 = HMallocHost((size_t)pz * np);
  double      *red = HMallocHost((size_t)nl * pz * 6); /* the reduced rows of every block */
  double      *A = HMallocHost((size_t)n), *R = HMallocHost((size_t)n), *C = HMallocHost((size_t)n);
  double      *f1 = HMallocHost((size_t)n), *f2 = HMallocHost((size_t)n), *f3 = HMallocHost((size_t)n);
  double      *dd, *da, *de, *dc, *dw, *dshift, *dmask, *dip, *dal, *dbe, *dr0, *dr1, *ds, *dt, *du;
  double       rel, resmax = 0.0;

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
  /* per line: the full-line factors (the reference) and each block's reduction factors */
  for (long s = 0; s < nl; s++) {
    double last;

    for (long i = 0; i < n; i++) {
      A[i] = a[TdPk(s, n, i)];
      C[i] = c[TdPk(s, n, i)];
      R[i] = e[TdPk(s, n, i)] + shift[s] * w[i]; /* ppe_td_excess's expression */
    }
    last     = TdFactorLine(n, periodic, A, R, C, f1, f2);
    lastf[s] = 1.0 / last;
    for (long i = 0; i < n - 1; i++) {
      ipf[TdPk(s, n, i)] = f1[i];
      if (periodic) qf[TdPk(s, n, i)] = f2[i];
    }
    for (int b = 0; b < pz; b++) {
      long    m = start[b + 1] - start[b], o = start[b];
      double *row = red + ((size_t)s * pz + b) * 6;
      /* B = R - A - C of the block's first and last rows */
      double  B0 = R[o] - A[o] - C[o], B1 = R[o + m - 1] - A[o + m - 1] - C[o + m - 1];

      if (m >= 3) {
        TdFactorBlock(m, A + o, R + o, C + o, f1, f2, f3);
        for (long i = 1; i < m - 1; i++) {
          ipb[TdPk(s, n, o + i)] = f1[i];
          alb[TdPk(s, n, o + i)] = f2[i];
          beb[TdPk(s, n, o + i)] = f3[i];
        }
        /* x_i = g_i - al_i x_0 - be_i x_{m-1} in the first and last rows */
        row[0] = A[o];
        row[1] = B0 - C[o] * f2[1];
        row[2] = -(C[o] * f3[1]);
        row[3] = -(A[o + m - 1] * f2[m - 2]);
        row[4] = B1 - A[o + m - 1] * f3[m - 2];
        row[5] = C[o + m - 1];
      } else {
        row[0] = A[o];
        row[1] = B0;
        row[2] = C[o];
        row[3] = A[o + 1];
        row[4] = B1;
        row[5] = C[o + 1];
      }
    }
  }
  /* the reference: the full-line body on the host */
  memcpy(ref, d0, N * sizeof(double));
  for (int j = 0; j < 2; j++) {
    ppe_td_carr Ac = TdC(a, n * TD_SZ, TD_SZ, 1), Cc = TdC(c, n * TD_SZ, TD_SZ, 1);
    ppe_td_carr ipc = TdC(ipf, n * TD_SZ, TD_SZ, 1), qc = TdC(qf, n * TD_SZ, TD_SZ, 1), lc = TdC(lastf, TD_SZ, 0, 1);
    ppe_td_arr  dr = TdW(ref, n * TD_SZ, TD_SZ, 1);

    if (periodic) ppe_td_pthomas(Rs[j], n, Ac, Cc, ipc, qc, lc, dr);
    else ppe_td_thomas(Rs[j], n, Ac, Cc, ipc, lc, dr);
  }
  /* its residual, with the matrix in the usual form (wrap terms are zero for non-periodic) */
  for (long s = 0; s < nl; s++) {
    double rmax = 0.0, dmax = 0.0;

    for (long i = 0; i < n; i++) {
      size_t k  = TdPk(s, n, i);
      double Ai = a[k], Ci = c[k], Bi = e[k] + shift[s] * w[i] - Ai - Ci;
      double r  = Ai * ref[TdPk(s, n, (i + n - 1) % n)] + Bi * ref[k] + Ci * ref[TdPk(s, n, (i + 1) % n)] - d0[k];

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
  free(ipf);
  free(qf);
  free(lastf);
  free(ipb);
  free(alb);
  free(beb);
  free(rb0);
  free(rb1);
  free(red);
  free(A);
  free(R);
  free(C);
  free(f1);
  free(f2);
  free(f3);
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
             "P-TDMA/DistD2 with pz ranks as blocks on one device, %s lines, 37 lines (full groups + 5), (n, pz) = (8,4) (13,4) (37,4) (64,2) (1001,2) (2000,4), reduced systems on the host: max relative difference to full-line %s %.2e (<= %.0e), full-line residual %.2e",
             periodic ? "periodic" : "non-periodic", periodic ? "periodic Thomas" : "Thomas", worst, TD_PTDMA_TOL, worst_res);
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
  const int          ng = (int)(lines / TD_SZ);
  const ppe_td_lanes R = {0, ng, 0, TD_SZ};
  const double       shift = 0.02;
  double            *h = HMallocHost(N), *a = HMallocHost((size_t)n), *e = HMallocHost((size_t)n);
  double            *c = HMallocHost((size_t)n), *w = HMallocHost((size_t)n), *r = HMallocHost((size_t)n);
  double            *a0 = HMallocHost((size_t)n), *c0 = HMallocHost((size_t)n);
  double            *f1 = HMallocHost((size_t)n), *f2 = HMallocHost((size_t)n), *f3 = HMallocHost((size_t)n);
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
  for (long i = 0; i < n; i++) {
    r[i]  = e[i] + shift * w[i];
    a0[i] = i == 0 ? 0.0 : a[i]; /* a non-periodic line has no A_0, no C_{n-1} */
    c0[i] = i == n - 1 ? 0.0 : c[i];
  }
  HPut(da, a, (size_t)n);
  HPut(dc, c, (size_t)n);
  HPut(de, e, (size_t)n);
  HPut(dw, w, (size_t)n);
  HSync();
  lastT = 1.0 / TdFactorLine(n, 0, a0, r, c0, f1, f2);
  TdBroadcast(dipT, h, ng, n, f1);
  lastP = 1.0 / TdFactorLine(n, 1, a, r, c, f1, f2);
  TdBroadcast(dipP, h, ng, n, f1);
  TdBroadcast(dq, h, ng, n, f2);
  for (long i = 0; i < n; i++) f1[i] = f2[i] = f3[i] = 0.0;
  TdFactorBlock(n, a, r, c, f1, f2, f3);
  TdBroadcast(dipR, h, ng, n, f1);
  TdBroadcast(dal, h, ng, n, f2);
  TdBroadcast(dbe, h, ng, n, f3);
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
  HTIME(sec, { TdDev(PPE_TD_K_REDUCE, 0, R, n, &x); TdDev(PPE_TD_K_RECON, 0, R, n, &x); });
  HTiming("tridiag reduce+recon packed", size, sec, 2.0 * data + 3.0 * line + pre_small + 2.0 * ends, NULL, 0.0);
  TD_RESET();
  HTIME(sec, { TdDev(PPE_TD_K_REDUCE, 1, R, n, &x); TdDev(PPE_TD_K_RECON, 1, R, n, &x); });
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
  free(r);
  free(a0);
  free(c0);
  free(f1);
  free(f2);
  free(f3);
}

void HFamily_tridiag(void)
{
  TdCheckBitwise();
  TdCheckPtdma();
  TdTime();
}

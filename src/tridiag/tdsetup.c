/*
   PPETridiag set-up: checks, factors, the choice of method per line and the plan of the
   run-time communication. Everything here runs once; a solve moves only data.

   Notation (kernels/tridiag.h): line s, this rank's rows k = 0..m-1,
   A_k x_{k-1} + B_k x_k + C_k x_{k+1} = d_k, carried as A, C and the row excess
   R_k = B_k + A_k + C_k = e_k + shift_s w_k, e = b + a + c summed exactly. Pivots are
   computed from the excess (sig recurrence of the kernels), which keeps weakly dominant
   lines (Laplacian plus a small shift) accurate to a few ulps.

   Local reduction (ptdma, distd2; m >= 2 rows, interior rows 1..m-2 with matrix T):
     al = T^{-1} A_1 e_1,  be = T^{-1} C_{m-2} e_{m-2},  x_i = g_i - al_i x_0 - be_i x_{m-1},
   and the boundary rows become, in the unknowns x_0, x_{m-1} of every rank (2P in all),
     row 0:   A_0 x_{-1} + (B_0 - C_0 al_1) x_0 - C_0 be_1 x_{m-1} = r0
     row m-1: -A_{m-1} al_{m-2} x_0 + (B_{m-1} - A_{m-1} be_{m-2}) x_{m-1} + C_{m-1} x_m = r1
   a tridiagonal (periodic: cyclic) system of 2P unknowns: the Schur complement of the line's
   matrix on the boundary unknowns, symmetric when the line is. Its rows are also kept in
   excess form: 1 + al + be = h = T^{-1} R_int, so the excess of row 0 is R_0 - C_0 h_1 and
   that of row m-1 is R_{m-1} - A_{m-1} h_{m-2}, free of cancellation.

   DistD2 keeps, across each rank boundary, the 2x2 system of (x_{m-1} of rank p-1, x_0 of
   rank p) and drops the couplings -C_0 be_1 and -A_{m-1} al_{m-2}, which decay like the
   entries of T^{-1} across the block. The drop is taken only when its effect on the 2x2
   solution is below the unit roundoff (||M^{-1}|| max|dropped| <= eps/2, M the kept 2x2).
*/
#include <ppekit/private/tridiagimpl.h>
#include <ppekit/private/deviceimpl.h>
#include <float.h> /* DBL_MIN */

#define TD_SZ PPE_TRIDIAG_SZ

/* Relative size under which a pivot is zero, for chains of n eliminations. */
static PetscReal PivotTol(PetscInt n)
{
  return 8.0 * (PetscReal)(n + 1) * PETSC_MACHINE_EPSILON;
}

/* Relative size under which the last pivot of a pinned line counts as zero. */
#define TD_PIN_TOL PETSC_SQRT_MACHINE_EPSILON

/*
   All ranks raise the same error: the one of the lowest rank that has one (code != 0), with
   that rank's message. Collective, so that bad input on one rank never leaves the others
   waiting in a later collective.
*/
static PetscErrorCode TdRaise(MPI_Comm comm, PetscErrorCode code, const char msg[])
{
  PetscMPIInt rank, size, first, mine;
  int         ecode = (int)code;
  char        text[512];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  mine = code ? rank : size;
  PetscCall(MPIU_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(PETSC_SUCCESS);
  if (rank == first) PetscCall(PetscStrncpy(text, msg, sizeof(text)));
  PetscCallMPI(MPI_Bcast(text, (PetscMPIInt)sizeof(text), MPI_CHAR, first, comm));
  PetscCallMPI(MPI_Bcast(&ecode, 1, MPI_INT, first, comm));
  SETERRQ(comm, (PetscErrorCode)ecode, "%s", text);
}

/* Element (s,k) of a coefficient: shared (m values) or per line (packed). */
static inline PetscReal Coef(const PPETridiag t, const PetscReal *v, PetscInt s, PetscInt k)
{
  return t->perline ? v[((size_t)(s / TD_SZ) * t->m + k) * TD_SZ + s % TD_SZ] : v[k];
}

/* Whether coefficient j (0: a, 2: c) of local row k is ignored: the ends of non-periodic lines. */
static inline PetscBool Ignored(const PPETridiag t, int j, PetscInt k)
{
  if (t->periodic) return PETSC_FALSE;
  return (PetscBool)((j == 0 && k == 0 && t->rank == 0) || (j == 2 && k == t->m - 1 && t->rank == t->size - 1));
}

/* b + a + c rounded once (error-free transformations: exact up to the final rounding). */
static PetscReal Excess(PetscReal b, PetscReal a, PetscReal c)
{
  volatile PetscReal s1 = b + a, v1 = s1 - b, e1 = (b - (s1 - v1)) + (a - v1);
  volatile PetscReal s2 = s1 + c, v2 = s2 - s1, e2 = (s1 - (s2 - v2)) + (c - v2);

  return s2 + (e1 + e2);
}

/* Line s of this rank: A, the row excess R = e + shift w, and C in contiguous arrays. */
static void GetLine(const PPETridiag t, PetscInt s, PetscReal A[], PetscReal R[], PetscReal C[])
{
  for (PetscInt k = 0; k < t->m; k++) {
    A[k] = Ignored(t, 0, k) ? 0.0 : Coef(t, t->a, s, k);
    R[k] = Coef(t, t->ex, s, k) + t->shift[s] * t->w[k];
    C[k] = Ignored(t, 2, k) ? 0.0 : Coef(t, t->c, s, k);
  }
}

/* A pivot that is zero relative to its row, or not finite. */
static inline PetscBool BadPivot(PetscReal p, PetscReal scale, PetscReal tol)
{
  return (PetscBool)(!PetscIsNormalReal(p) || PetscAbsReal(p) <= tol * scale);
}

/* Result of factoring one line: the row of the first bad pivot (-1: none), the last pivot. */
typedef struct {
  PetscInt  badrow;
  PetscReal badp;
  PetscReal lastp, lastscale;
} TdFactorInfo;

/* |A| + |B| + |C| of a row given by its excess: the scale of its pivot. */
static inline PetscReal RowScale(PetscReal A, PetscReal R, PetscReal C)
{
  return PetscAbsReal(A) + PetscAbsReal(R - A - C) + PetscAbsReal(C);
}

/*
   Thomas factors of rows 0..n-1 (n >= 2), rows given as (A, R, C): ip_0..ip_{n-2} and the
   last pivot; periodic: the chain is rows 0..n-2, q = h - 1 with h = T^{-1} R', and the
   "last pivot" is the excess-form Schur complement R_{n-1} - C_{n-1} h_0 - A_{n-1} h_{n-2}.
   Same expressions as the fly kernels.
*/
static void FactorThomas(PetscInt n, PetscBool periodic, const PetscReal A[], const PetscReal R[], const PetscReal C[], PetscReal tol, PetscReal ip[], PetscReal q[], TdFactorInfo *info)
{
  PetscInt  ne  = periodic ? n - 1 : n; /* rows of the chain */
  PetscReal sig = R[0] - A[0], p;

  info->badrow = -1;
  for (PetscInt i = 0; i < ne; i++) {
    if (i > 0) sig = R[i] - A[i] * (sig * ip[i - 1]);
    if (!periodic && i == n - 1) {
      info->lastp     = sig; /* no upper coupling */
      info->lastscale = RowScale(A[i], R[i], 0.0);
      return;
    }
    p = sig - C[i];
    if (BadPivot(p, RowScale(A[i], R[i], C[i]), tol) && info->badrow < 0) {
      info->badrow = i;
      info->badp   = p;
    }
    ip[i] = 1.0 / p;
  }
  /* periodic: h = T^{-1} R' (rows 0..n-2), q = h - 1 */
  q[0] = R[0];
  for (PetscInt i = 1; i < n - 1; i++) q[i] = R[i] - (A[i] * ip[i - 1]) * q[i - 1];
  q[n - 2] = q[n - 2] * ip[n - 2];
  for (PetscInt i = n - 3; i >= 0; i--) q[i] = (q[i] - C[i] * q[i + 1]) * ip[i];
  info->lastp     = R[n - 1] - C[n - 1] * q[0] - A[n - 1] * q[n - 2];
  info->lastscale = RowScale(A[n - 1], R[n - 1], C[n - 1]);
  for (PetscInt i = 0; i < n - 1; i++) q[i] = q[i] - 1.0;
}

/*
   Local reduction of one line (m >= 2): interior factors ip_1..ip_{m-2}, al, be, and the two
   reduced rows in excess form (L0, X0, U0, L1, X1, U1); h is work space.
*/
static void FactorReduce(PetscInt m, const PetscReal A[], const PetscReal R[], const PetscReal C[], PetscReal tol, PetscReal ip[], PetscReal al[], PetscReal be[], PetscReal h[], PetscReal row[6], TdFactorInfo *info)
{
  PetscReal sig = 0;

  info->badrow = -1;
  if (m == 2) {
    row[0] = A[0];
    row[1] = R[0];
    row[2] = C[0];
    row[3] = A[1];
    row[4] = R[1];
    row[5] = C[1];
    return;
  }
  for (PetscInt i = 1; i < m - 1; i++) {
    PetscReal li = 0, p;

    if (i == 1) sig = R[1] - A[1];
    else {
      li  = A[i] * ip[i - 1];
      sig = R[i] - A[i] * (sig * ip[i - 1]);
    }
    p = sig - C[i];
    if (BadPivot(p, RowScale(A[i], R[i], C[i]), tol) && info->badrow < 0) {
      info->badrow = i;
      info->badp   = p;
    }
    ip[i] = 1.0 / p;
    al[i] = i == 1 ? A[1] : -(li * al[i - 1]);
    h[i]  = i == 1 ? R[1] : R[i] - li * h[i - 1];
  }
  al[m - 2] = al[m - 2] * ip[m - 2];
  be[m - 2] = C[m - 2] * ip[m - 2];
  h[m - 2]  = h[m - 2] * ip[m - 2];
  for (PetscInt i = m - 3; i >= 1; i--) {
    al[i] = (al[i] - C[i] * al[i + 1]) * ip[i];
    be[i] = (-(C[i] * be[i + 1])) * ip[i];
    h[i]  = (h[i] - C[i] * h[i + 1]) * ip[i];
  }
  row[0] = A[0];
  row[1] = R[0] - C[0] * h[1];
  row[2] = -(C[0] * be[1]);
  row[3] = -(A[m - 1] * al[m - 2]);
  row[4] = R[m - 1] - A[m - 1] * h[m - 2];
  row[5] = C[m - 1];
}

/* Check the last pivot of a line against its pinning: the message, or "" when fine. */
static void CheckLast(PetscInt s, PetscBool pinned, const TdFactorInfo *info, PetscReal tol, const char what[], char msg[], size_t len, PetscErrorCode *code)
{
  PetscReal rel = PetscAbsReal(info->lastp) / (info->lastscale > 0 ? info->lastscale : 1.0);

  if (*code) return;
  if (!pinned && BadPivot(info->lastp, info->lastscale, tol)) {
    *code = PETSC_ERR_MAT_LU_ZRPVT;
    PetscCallVoid(PetscSNPrintf(msg, len, "Line %" PetscInt_FMT " is singular: zero last pivot %.4g of its %s (relative %.4g). If it is singular on purpose (the zero mode of an all-Neumann/periodic problem, with a consistent right-hand side), pin it with PPETridiagSetPinnedLines()", s, (double)info->lastp, what, (double)rel));
  } else if (pinned && !(rel <= TD_PIN_TOL)) {
    *code = PETSC_ERR_ARG_WRONG;
    PetscCallVoid(PetscSNPrintf(msg, len, "Line %" PetscInt_FMT " is pinned but not singular: the last pivot of its %s is %.4g (relative %.4g > %.4g); pin only lines whose matrix is singular", s, what, (double)info->lastp, (double)rel, (double)TD_PIN_TOL));
  }
}

/* Checks of the input that need the whole batch; also the global sizes. */
static PetscErrorCode CheckInput(PPETridiag t)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)t);
  PetscInt       v[8], vmin[8], vmax[8], *ms;
  PetscErrorCode code = 0;
  char           msg[512];

  PetscFunctionBegin;
  PetscCheck(t->nsys >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call PPETridiagSetSizes() before PPETridiagSetUp()");
  v[0] = t->nsys;
  v[1] = t->coef_set;
  v[2] = t->perline;
  v[3] = t->periodic;
  v[4] = t->method;
  v[5] = t->precompute;
  v[6] = t->npinned;
  v[7] = 0;
  for (PetscInt i = 0; i < t->npinned; i++) v[7] += t->pinned[i] + 1;
  PetscCall(MPIU_Allreduce(v, vmin, 8, MPIU_INT, MPI_MIN, comm));
  PetscCall(MPIU_Allreduce(v, vmax, 8, MPIU_INT, MPI_MAX, comm));
  PetscCheck(vmin[0] == vmax[0], comm, PETSC_ERR_ARG_SIZ, "Every rank of a tridiagonal batch needs the same number of lines: got %" PetscInt_FMT " to %" PetscInt_FMT, vmin[0], vmax[0]);
  PetscCheck(vmin[1], comm, PETSC_ERR_ORDER, "Set the coefficients (PPETridiagSetCoefficients(), PPETridiagSetLineCoefficients() or PPETridiagSetZOperator()) on every rank before set-up");
  PetscCheck(vmin[2] == vmax[2], comm, PETSC_ERR_ARG_INCOMP, "Some ranks set per-line coefficients and others shared ones: use the same kind on every rank");
  PetscCheck(vmin[3] == vmax[3], comm, PETSC_ERR_ARG_INCOMP, "Periodicity differs between the ranks of the batch");
  PetscCheck(vmin[4] == vmax[4], comm, PETSC_ERR_ARG_INCOMP, "The method differs between the ranks of the batch (%s to %s)", PPETridiagMethods[vmin[4]], PPETridiagMethods[vmax[4]]);
  PetscCheck(vmin[5] == vmax[5], comm, PETSC_ERR_ARG_INCOMP, "Pre-computation is on for some ranks of the batch and off for others");
  PetscCheck(vmin[6] == vmax[6] && vmin[7] == vmax[7], comm, PETSC_ERR_ARG_INCOMP, "The pinned lines differ between the ranks of the batch: give the same list on every rank");
  /* rows per rank: global size, offsets, m >= 2 everywhere */
  PetscCall(PetscMalloc1(t->size, &ms));
  PetscCallMPI(MPI_Allgather(&t->m, 1, MPIU_INT, ms, 1, MPIU_INT, comm));
  t->n      = 0;
  t->rstart = 0;
  for (PetscMPIInt r = 0; r < t->size; r++) {
    if (r == t->rank) t->rstart = t->n;
    t->n += ms[r];
  }
  {
    PetscMPIInt bad = -1;
    PetscInt    mbad = 0;

    for (PetscMPIInt r = t->size - 1; r >= 0; r--)
      if (ms[r] < 2) {
        bad  = r;
        mbad = ms[r];
      }
    PetscCall(PetscFree(ms));
    PetscCheck(bad < 0, comm, PETSC_ERR_ARG_SIZ, "Every rank of a tridiagonal batch needs at least 2 rows of each line: rank %d has %" PetscInt_FMT, (int)bad, mbad);
  }
  /* finite coefficients, shift and weights */
  {
    const char *name[3] = {"a (lower)", "b (diagonal)", "c (upper)"};
    PetscReal  *arr[3]  = {t->a, t->b, t->c};
    PetscInt    nl      = t->perline ? t->nsys : 1;

    for (int j = 0; j < 3 && !code; j++)
      for (PetscInt s = 0; s < nl && !code; s++)
        for (PetscInt k = 0; k < t->m && !code; k++) {
          PetscReal x = Coef(t, arr[j], s, k);
          if (PetscIsInfOrNanReal(x) && !Ignored(t, j, k)) {
            code = PETSC_ERR_FP;
            PetscCall(PetscSNPrintf(msg, sizeof(msg), "Coefficient %s of %s%" PetscInt_FMT ", global row %" PetscInt_FMT " is %.4g: coefficients must be finite", name[j], t->perline ? "line " : "every line", t->perline ? s : 0, t->rstart + k, (double)x));
            if (!t->perline) PetscCall(PetscSNPrintf(msg, sizeof(msg), "Coefficient %s of global row %" PetscInt_FMT " is %.4g: coefficients must be finite", name[j], t->rstart + k, (double)x));
          }
        }
    for (PetscInt k = 0; k < t->m && !code && t->has_w; k++)
      if (PetscIsInfOrNanReal(t->w[k])) {
        code = PETSC_ERR_FP;
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "Shift weight w of global row %" PetscInt_FMT " is %.4g: weights must be finite", t->rstart + k, (double)t->w[k]));
      }
    for (PetscInt s = 0; s < t->nsys && !code && t->has_shift; s++)
      if (PetscIsInfOrNanReal(t->shift[s])) {
        code = PETSC_ERR_FP;
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "Shift of line %" PetscInt_FMT " is %.4g: shifts must be finite", s, (double)t->shift[s]));
      }
  }
  PetscCall(TdRaise(comm, code, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Internal arrays: weights, shifts, mask; non-periodic ends cut. */
static PetscErrorCode PrepareCoefficients(PPETridiag t)
{
  size_t nl = (size_t)t->ng * TD_SZ;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(t->m, 1), &t->ones));
  for (PetscInt k = 0; k < t->m; k++) t->ones[k] = 1.0;
  if (!t->has_w) {
    PetscCall(PetscFree(t->w));
    PetscCall(PetscMalloc1(PetscMax(t->m, 1), &t->w));
    PetscCall(PetscArraycpy(t->w, t->ones, t->m));
  }
  if (!t->shift) PetscCall(PetscCalloc1(PetscMax(nl, 1), &t->shift));
  PetscCall(PetscFree(t->mask));
  PetscCall(PetscMalloc1(PetscMax(nl, 1), &t->mask));
  for (size_t s = 0; s < nl; s++) t->mask[s] = 1.0;
  for (PetscInt i = 0; i < t->npinned; i++) t->mask[t->pinned[i]] = 0.0;
  t->mode = t->perline ? PPE_TD_MODE_LINE : (t->has_shift ? PPE_TD_MODE_FACTORS : PPE_TD_MODE_SHARED);
  /* the excess of the diagonal, without the ignored couplings of non-periodic ends */
  {
    PetscInt nl2 = t->perline ? t->nsys : 1;
    size_t   len = t->perline ? (size_t)t->ng * t->m * TD_SZ : (size_t)t->m;

    PetscCall(PetscCalloc1(PetscMax(len, 1), &t->ex));
    for (PetscInt s = 0; s < nl2; s++)
      for (PetscInt k = 0; k < t->m; k++) {
        size_t    o = t->perline ? ((size_t)(s / TD_SZ) * t->m + k) * TD_SZ + s % TD_SZ : (size_t)k;
        PetscReal a = Ignored(t, 0, k) ? 0.0 : t->a[o], c = Ignored(t, 2, k) ? 0.0 : t->c[o];

        t->ex[o] = Excess(t->b[o], a, c);
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Store the factors of line s (or of every line in shared mode) in the packed arrays. */
static void StoreLine(PPETridiag t, PetscInt s, PetscReal *dst, const PetscReal src[])
{
  if (!dst) return;
  if (t->mode == PPE_TD_MODE_SHARED) {
    for (PetscInt k = 0; k < t->m; k++) dst[k] = src[k];
  } else {
    for (PetscInt k = 0; k < t->m; k++) dst[((size_t)(s / TD_SZ) * t->m + k) * TD_SZ + s % TD_SZ] = src[k];
  }
}

/* Allocate the stored factors: shared (m) or per line (packed). */
static PetscErrorCode AllocFactor(PPETridiag t, PetscReal **f)
{
  size_t len = t->mode == PPE_TD_MODE_SHARED ? (size_t)t->m : (size_t)t->ng * t->m * TD_SZ;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(PetscMax(len, 1), f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Thomas factors of every line at once when the lines share their coefficients and differ in
   the shift only (PPE_TD_MODE_FACTORS, not periodic, factors stored): the same recurrence as
   FactorThomas() with the TD_SZ lines of a group in the inner loop, which the compiler
   vectorises; a solver's set-up then costs about one pass over the factors instead of a
   scalar pass per line with gathers and strided stores. *ok is false when some interior
   pivot is bad (the caller then runs the per-line path, which reports the line and row).
*/
static void FactorThomasLanes(PPETridiag t, PetscReal tol, PetscBool *ok, PetscReal *lastp, PetscReal *lastscale)
{
  PetscInt m = t->m;
  int      bad = 0;

  for (PetscInt g = 0; g < t->ng; g++) {
    const PetscReal *sh = t->shift + (size_t)g * TD_SZ;
    PetscReal *PETSC_RESTRICT ip = t->ip + (size_t)g * m * TD_SZ, sig[TD_SZ] = {0};
    PetscInt nlane = PetscMin(TD_SZ, t->nsys - g * TD_SZ);

    for (PetscInt k = 0; k < m; k++) {
      PetscReal A = Ignored(t, 0, k) ? 0.0 : t->a[k], C = Ignored(t, 2, k) ? 0.0 : t->c[k], ex = t->ex[k], w = t->w[k];
      PetscReal sc = PetscAbsReal(A) + PetscAbsReal(C);
      PetscReal *PETSC_RESTRICT ipk = ip + (size_t)k * TD_SZ;
      const PetscReal *PETSC_RESTRICT ipm = ip + (size_t)(k > 0 ? k - 1 : 0) * TD_SZ;

      if (k == m - 1) {
        for (int l = 0; l < TD_SZ; l++) {
          PetscReal R = ex + sh[l] * w;
          sig[l] = k ? R - A * (sig[l] * ipm[l]) : R - A;
          if (l < nlane) {
            lastp[g * TD_SZ + l]     = sig[l];
            lastscale[g * TD_SZ + l] = PetscAbsReal(A) + PetscAbsReal(R - A);
          }
          ipk[l] = 0.0;
        }
        break;
      }
      for (int l = 0; l < TD_SZ; l++) {
        PetscReal R = ex + sh[l] * w, p;
        sig[l] = k ? R - A * (sig[l] * ipm[l]) : R - A;
        p      = sig[l] - C;
        ipk[l] = 1.0 / p;
        /* a pivot that is zero relative to its row, or not finite (NaN fails every test) */
        bad |= (l < nlane) & !(PetscAbsReal(p) > tol * (sc + PetscAbsReal(R - A - C)) && PetscAbsReal(p) <= PETSC_MAX_REAL && PetscAbsReal(p) >= DBL_MIN);
      }
    }
  }
  *ok = (PetscBool)!bad;
}

/* One-rank lines solved whole: Thomas or periodic Thomas factors. */
static PetscErrorCode SetUpThomas(PPETridiag t)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)t);
  PetscInt       m = t->m, nl;
  PetscReal     *A, *B, *C, *ip, *q, tol = PivotTol(t->n);
  PetscBool      store = t->precompute;
  PetscErrorCode code  = 0;
  char           msg[512];

  PetscFunctionBegin;
  t->nthomas = t->nsys;
  PetscCall(PetscMalloc5(m, &A, m, &B, m, &C, m, &ip, m, &q));
  if (store) {
    PetscCall(AllocFactor(t, &t->ip));
    if (t->periodic) PetscCall(AllocFactor(t, &t->q));
  }
  PetscCall(PetscCalloc1(PetscMax(t->ng * TD_SZ, 1), &t->last));
  /* shared mode: one factorisation, every line checked against its own pinning */
  nl = t->mode == PPE_TD_MODE_SHARED ? PetscMin(t->nsys, 1) : t->nsys;
  if (store && t->mode == PPE_TD_MODE_FACTORS && !t->periodic && m >= 2) {
    PetscReal *lp, *ls;
    PetscBool  ok;

    PetscCall(PetscMalloc2(t->ng * TD_SZ, &lp, t->ng * TD_SZ, &ls));
    FactorThomasLanes(t, tol, &ok, lp, ls);
    for (PetscInt s = 0; s < t->nsys && ok && !code; s++) {
      TdFactorInfo info;

      info.lastp     = lp[s];
      info.lastscale = ls[s];
      CheckLast(s, (PetscBool)(t->mask[s] == 0.0), &info, tol, "matrix", msg, sizeof(msg), &code);
      t->last[s] = t->mask[s] == 0.0 ? 0.0 : 1.0 / info.lastp;
    }
    PetscCall(PetscFree2(lp, ls));
    if (ok) nl = 0; /* done; else the per-line path finds and reports the bad pivot */
  }
  for (PetscInt s = 0; s < nl && !code; s++) {
    TdFactorInfo info;

    GetLine(t, s, A, B, C);
    FactorThomas(m, t->periodic, A, B, C, tol, ip, q, &info);
    if (info.badrow >= 0) {
      code = PETSC_ERR_MAT_LU_ZRPVT;
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "Zero pivot %.4g in line %" PetscInt_FMT " at row %" PetscInt_FMT ": the tridiagonal solvers do not pivot (they need diagonally dominant or positive definite lines)", (double)info.badp, s, info.badrow));
      break;
    }
    if (store) {
      ip[m - 1] = 0.0;
      q[m - 1]  = 0.0;
      StoreLine(t, s, t->ip, ip);
      if (t->periodic) StoreLine(t, s, t->q, q);
    }
    if (t->mode == PPE_TD_MODE_SHARED) {
      for (PetscInt r = 0; r < t->nsys && !code; r++) {
        CheckLast(r, (PetscBool)(t->mask[r] == 0.0), &info, tol, "matrix", msg, sizeof(msg), &code);
        t->last[r] = t->mask[r] == 0.0 ? 0.0 : 1.0 / info.lastp;
      }
    } else {
      CheckLast(s, (PetscBool)(t->mask[s] == 0.0), &info, tol, "matrix", msg, sizeof(msg), &code);
      t->last[s] = t->mask[s] == 0.0 ? 0.0 : 1.0 / info.lastp;
    }
  }
  PetscCall(PetscFree5(A, B, C, ip, q));
  PetscCall(TdRaise(comm, code, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   DistD2 2x2 system of the rank boundary between row a = (La, Xa, Ua) (x_{m-1} of the lower
   rank) and row b = (Lb, Xb, Ub) (x_0 of the upper rank), rows in excess form (X = D + L + U).
   Returns the bound on the effect of the dropped couplings La and Ub, and the coefficients of
   both unknowns. The determinant is formed from the kept row sums (sa = Da + Ua, sb = Db + Lb):
   det = sa sb - sa Lb - Ua sb, one-signed for M-matrices.
*/
static PetscReal Pair(const PetscReal a[3], const PetscReal b[3], PetscReal ka[2], PetscReal kb[2])
{
  PetscReal Da = a[1] - a[0] - a[2], Db = b[1] - b[0] - b[2], sa = a[1] - a[0], sb = b[1] - b[2];
  PetscReal det = sa * sb - sa * b[0] - a[2] * sb, inorm;

  if (!PetscIsNormalReal(det)) return PETSC_MAX_REAL;
  /* x_a = (Db r_a - Ua r_b)/det,  x_b = (Da r_b - Lb r_a)/det */
  ka[0] = Db / det;
  ka[1] = -a[2] / det;
  kb[0] = Da / det;
  kb[1] = -b[0] / det;
  inorm = PetscMax(PetscAbsReal(Db) + PetscAbsReal(a[2]), PetscAbsReal(b[0]) + PetscAbsReal(Da)) / PetscAbsReal(det);
  return inorm * PetscMax(PetscAbsReal(a[0]), PetscAbsReal(b[2]));
}

/* Exchange the reduced rows with the neighbours and decide, per line, whether distd2 is exact. */
static PetscErrorCode SetUpDistD2Check(PPETridiag t, const PetscReal *row, PetscInt *valid, PetscReal *bound)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)t);
  PetscInt    ns   = t->nsys;
  PetscReal  *sf, *sl, *rprev, *rnext;
  PetscMPIInt prev, next, cnt, nvalid;
  MPI_Request req[4];
  PetscReal   eps2 = 0.5 * PETSC_MACHINE_EPSILON;

  PetscFunctionBegin;
  prev = (t->rank > 0 || t->periodic) ? (t->rank + t->size - 1) % t->size : MPI_PROC_NULL;
  next = (t->rank < t->size - 1 || t->periodic) ? (t->rank + 1) % t->size : MPI_PROC_NULL;
  PetscCall(PetscMalloc4(3 * ns + 1, &sf, 3 * ns + 1, &sl, 3 * ns + 1, &rprev, 3 * ns + 1, &rnext));
  for (PetscInt s = 0; s < ns; s++)
    for (int j = 0; j < 3; j++) {
      sf[3 * s + j]    = row[6 * s + j];
      sl[3 * s + j]    = row[6 * s + 3 + j];
      rprev[3 * s + j] = 0;
      rnext[3 * s + j] = 0;
    }
  PetscCall(PetscMPIIntCast(3 * ns, &cnt));
  if (t->size > 1) {
    PetscCallMPI(MPI_Irecv(rprev, cnt, MPIU_REAL, prev, 1, comm, &req[0]));
    PetscCallMPI(MPI_Irecv(rnext, cnt, MPIU_REAL, next, 0, comm, &req[1]));
    PetscCallMPI(MPI_Isend(sf, cnt, MPIU_REAL, prev, 0, comm, &req[2]));
    PetscCallMPI(MPI_Isend(sl, cnt, MPIU_REAL, next, 1, comm, &req[3]));
    PetscCallMPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    t->setup_bytes += (prev != MPI_PROC_NULL ? 1 : 0) * 3.0 * ns * sizeof(PetscReal) + (next != MPI_PROC_NULL ? 1 : 0) * 3.0 * ns * sizeof(PetscReal);
  }
  t->d2.prev = prev;
  t->d2.next = next;
  for (PetscInt s = 0; s < ns; s++) {
    PetscReal ka[2], kb[2], blo, bhi;

    if (t->size == 1 && t->periodic) {
      /* the pair is this rank's own two boundary rows: the 2x2 system is exact */
      PetscReal a[3] = {0.0, row[6 * s + 4], row[6 * s + 3] + row[6 * s + 5]}, b[3] = {row[6 * s + 0] + row[6 * s + 2], row[6 * s + 1], 0.0};

      blo = bhi = Pair(a, b, ka, kb);
      if (blo < PETSC_MAX_REAL) blo = bhi = 0.0;
    } else {
      const PetscReal *r = row + 6 * s;

      blo = prev == MPI_PROC_NULL ? PetscAbsReal(r[2]) / PetscAbsReal(r[1] - r[0] - r[2]) : Pair(rprev + 3 * s, r, ka, kb);
      bhi = next == MPI_PROC_NULL ? PetscAbsReal(r[3]) / PetscAbsReal(r[4] - r[3] - r[5]) : Pair(r + 3, rnext + 3 * s, ka, kb);
    }
    bound[s] = PetscMax(blo, bhi);
    if (!PetscIsNormalReal(bound[s]) && bound[s] != 0.0) bound[s] = PETSC_MAX_REAL;
    valid[s] = (PetscInt)(bound[s] <= eps2 && t->mask[s] != 0.0);
  }
  PetscCall(PetscMPIIntCast(ns, &nvalid));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, valid, nvalid, MPIU_INT, MPI_LAND, comm));
  PetscCall(PetscFree4(sf, sl, rprev, rnext));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coefficients of the distd2 lines' 2x2 solves (after SetUpDistD2Check and its exchange). */
static PetscErrorCode SetUpDistD2(PPETridiag t, const PetscReal *row, const PetscInt *valid)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)t);
  PetscInt    nd = 0, ns = t->nsys;
  PetscReal  *sf, *sl, *rprev, *rnext;
  PetscMPIInt cnt;
  MPI_Request req[4];

  PetscFunctionBegin;
  for (PetscInt s = 0; s < ns; s++) nd += valid[s] ? 1 : 0;
  t->ndistd2 = t->d2.nd = nd;
  if (!nd) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(nd, &t->d2.lines, 4 * nd, &t->d2.k));
  PetscCall(PetscCalloc4(nd, &t->d2.sb0, nd, &t->d2.sb1, nd, &t->d2.rb0, nd, &t->d2.rb1));
  nd = 0;
  for (PetscInt s = 0; s < ns; s++)
    if (valid[s]) t->d2.lines[nd++] = s;
  /* the neighbours' rows of the distd2 lines (again: the check exchanged all lines) */
  PetscCall(PetscMalloc4(3 * nd, &sf, 3 * nd, &sl, 3 * nd, &rprev, 3 * nd, &rnext));
  for (PetscInt i = 0; i < nd; i++)
    for (int j = 0; j < 3; j++) {
      sf[3 * i + j]    = row[6 * t->d2.lines[i] + j];
      sl[3 * i + j]    = row[6 * t->d2.lines[i] + 3 + j];
      rprev[3 * i + j] = 0;
      rnext[3 * i + j] = 0;
    }
  PetscCall(PetscMPIIntCast(3 * nd, &cnt));
  if (t->size > 1) {
    PetscCallMPI(MPI_Irecv(rprev, cnt, MPIU_REAL, t->d2.prev, 1, comm, &req[0]));
    PetscCallMPI(MPI_Irecv(rnext, cnt, MPIU_REAL, t->d2.next, 0, comm, &req[1]));
    PetscCallMPI(MPI_Isend(sf, cnt, MPIU_REAL, t->d2.prev, 0, comm, &req[2]));
    PetscCallMPI(MPI_Isend(sl, cnt, MPIU_REAL, t->d2.next, 1, comm, &req[3]));
    PetscCallMPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
  }
  for (PetscInt i = 0; i < nd; i++) {
    const PetscReal *r = row + 6 * t->d2.lines[i];
    PetscReal       *k = t->d2.k + 4 * i, ka[2], kb[2];

    if (t->size == 1 && t->periodic) {
      /* x0 = (D1 r0 - (L0+U0) r1)/det, x1 = (D0 r1 - (L1+U1) r0)/det */
      PetscReal a[3] = {0.0, r[4], r[3] + r[5]}, b[3] = {r[0] + r[2], r[1], 0.0};

      (void)Pair(a, b, ka, kb); /* a: x1, b: x0 */
      k[0] = kb[0];
      k[1] = kb[1];
      k[2] = ka[0];
      k[3] = ka[1];
      continue;
    }
    if (t->d2.prev == MPI_PROC_NULL) {
      k[0] = 1.0 / (r[1] - r[0] - r[2]);
      k[1] = 0.0;
    } else {
      (void)Pair(rprev + 3 * i, r, ka, kb);
      k[0] = kb[0];
      k[1] = kb[1];
    }
    if (t->d2.next == MPI_PROC_NULL) {
      k[2] = 1.0 / (r[4] - r[3] - r[5]);
      k[3] = 0.0;
    } else {
      (void)Pair(r + 3, rnext + 3 * i, ka, kb);
      k[2] = ka[0];
      k[3] = ka[1];
    }
  }
  PetscCall(PetscFree4(sf, sl, rprev, rnext));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ptdma lines: owners, all-to-all plan, reduced systems gathered and factored. */
static PetscErrorCode SetUpPTDMA(PPETridiag t, const PetscReal *row, const PetscInt *valid)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)t);
  PPETdReduced  *R    = &t->red;
  PetscInt       ns = t->nsys, np = 0, P = t->size, nr = 2 * t->size;
  PetscReal     *sbuf, *rbuf, *A, *B, *C, *ip, *q, tol = PivotTol(t->n);
  PetscMPIInt   *sc, *sd, *rc, *rd;
  PetscErrorCode code = 0;
  char           msg[512];

  PetscFunctionBegin;
  for (PetscInt s = 0; s < ns; s++) np += valid[s] ? 0 : 1;
  t->nptdma = R->np = np;
  if (!np) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(np, &R->lines, ns, &R->pos));
  np = 0;
  for (PetscInt s = 0; s < ns; s++) {
    R->pos[s] = valid[s] ? -1 : np;
    if (!valid[s]) R->lines[np++] = s;
  }
  R->nr   = nr;
  R->lo   = (PetscInt)(((PetscInt64)t->rank * np) / P);
  R->nown = (PetscInt)(((PetscInt64)(t->rank + 1) * np) / P) - R->lo;
  PetscCall(PetscMalloc4(P, &R->scnt, P, &R->sdsp, P, &R->rcnt, P, &R->rdsp));
  for (PetscMPIInt q = 0; q < P; q++) {
    PetscInt lo = (PetscInt)(((PetscInt64)q * np) / P), hi = (PetscInt)(((PetscInt64)(q + 1) * np) / P);

    PetscCall(PetscMPIIntCast(2 * (hi - lo), &R->scnt[q]));
    PetscCall(PetscMPIIntCast(2 * lo, &R->sdsp[q]));
    PetscCall(PetscMPIIntCast(2 * R->nown, &R->rcnt[q]));
    PetscCall(PetscMPIIntCast(2 * R->nown * q, &R->rdsp[q]));
  }
  /* set-up exchange: the 6 reduced-row values of each line to its owner */
  PetscCall(PetscMalloc4(P, &sc, P, &sd, P, &rc, P, &rd));
  for (PetscMPIInt q = 0; q < P; q++) {
    sc[q] = 3 * R->scnt[q];
    sd[q] = 3 * R->sdsp[q];
    rc[q] = 3 * R->rcnt[q];
    rd[q] = 3 * R->rdsp[q];
    if (q != t->rank) t->setup_bytes += (PetscLogDouble)sc[q] * sizeof(PetscReal);
  }
  PetscCall(PetscMalloc2(6 * np, &sbuf, 6 * R->nown * P + 1, &rbuf));
  for (PetscInt i = 0; i < np; i++)
    for (int j = 0; j < 6; j++) sbuf[6 * i + j] = row[6 * R->lines[i] + j];
  if (P > 1) PetscCallMPI(MPI_Alltoallv(sbuf, sc, sd, MPIU_REAL, rbuf, rc, rd, MPIU_REAL, comm));
  else PetscCall(PetscArraycpy(rbuf, sbuf, 6 * np));
  PetscCall(PetscFree4(sc, sd, rc, rd));
  /* the reduced systems of my lines, [row][line] */
  PetscCall(PetscMalloc5(nr * R->nown + 1, &R->L, nr * R->nown + 1, &R->U, nr * R->nown + 1, &R->ip, nr * R->nown + 1, &R->q, R->nown + 1, &R->last));
  PetscCall(PetscMalloc5(nr, &A, nr, &B, nr, &C, nr, &ip, nr, &q));
  for (PetscInt j = 0; j < R->nown && !code; j++) {
    PetscInt     s = R->lines[R->lo + j];
    TdFactorInfo info;

    for (PetscInt p = 0; p < P; p++) {
      const PetscReal *r = rbuf + 6 * R->nown * p + 6 * j;

      A[2 * p]     = r[0];
      B[2 * p]     = r[1];
      C[2 * p]     = r[2];
      A[2 * p + 1] = r[3];
      B[2 * p + 1] = r[4];
      C[2 * p + 1] = r[5];
    }
    FactorThomas(nr, t->periodic, A, B, C, tol, ip, q, &info);
    if (info.badrow >= 0) {
      code = PETSC_ERR_MAT_LU_ZRPVT;
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "Zero pivot %.4g in the reduced system of line %" PetscInt_FMT " (boundary unknown %" PetscInt_FMT " of %" PetscInt_FMT "): the tridiagonal solvers do not pivot (they need diagonally dominant or positive definite lines)", (double)info.badp, s, info.badrow, nr));
      break;
    }
    CheckLast(s, (PetscBool)(t->mask[s] == 0.0), &info, tol, "reduced system", msg, sizeof(msg), &code);
    ip[nr - 1] = 0.0;
    q[nr - 1]  = 0.0;
    for (PetscInt r = 0; r < nr; r++) {
      R->L[r * R->nown + j]  = A[r];
      R->U[r * R->nown + j]  = C[r];
      R->ip[r * R->nown + j] = ip[r];
      R->q[r * R->nown + j]  = t->periodic ? q[r] : 0.0;
    }
    R->last[j] = t->mask[s] == 0.0 ? 0.0 : 1.0 / info.lastp;
  }
  PetscCall(PetscFree5(A, B, C, ip, q));
  PetscCall(PetscFree2(sbuf, rbuf));
  PetscCall(TdRaise(comm, code, msg));
  PetscCall(PetscMalloc3(2 * np, &R->sbuf, 2 * R->nown * P + 1, &R->rbuf, nr * R->nown + 1, &R->rhs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lines split over the ranks: local reduction, method per line, distd2 pairs, ptdma systems. */
static PetscErrorCode SetUpReductionWith(PPETridiag t, PetscReal *row, PetscInt *valid, PetscReal *bound)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)t);
  PetscInt       m = t->m, ns = t->nsys, nl;
  PetscReal     *A, *B, *C, *ip, *al, *be, *h, tol = PivotTol(t->n);
  PetscBool      store = t->precompute;
  PetscErrorCode code  = 0;
  char           msg[512];

  PetscFunctionBegin;
  PetscCall(PetscMalloc7(m, &A, m, &B, m, &C, m, &ip, m, &al, m, &be, m, &h));
  if (store) {
    PetscCall(AllocFactor(t, &t->ip));
    PetscCall(AllocFactor(t, &t->al));
    PetscCall(AllocFactor(t, &t->be));
  }
  nl = t->mode == PPE_TD_MODE_SHARED ? PetscMin(ns, 1) : ns;
  for (PetscInt s = 0; s < nl && !code; s++) {
    TdFactorInfo info;

    GetLine(t, s, A, B, C);
    for (PetscInt k = 0; k < m; k++) ip[k] = al[k] = be[k] = h[k] = 0.0;
    FactorReduce(m, A, B, C, tol, ip, al, be, h, row + 6 * s, &info);
    if (info.badrow >= 0) {
      code = PETSC_ERR_MAT_LU_ZRPVT;
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "Zero pivot %.4g in line %" PetscInt_FMT " at global row %" PetscInt_FMT ": the tridiagonal solvers do not pivot (they need diagonally dominant or positive definite lines)", (double)info.badp, s, t->rstart + info.badrow));
      break;
    }
    if (store) {
      StoreLine(t, s, t->ip, ip);
      StoreLine(t, s, t->al, al);
      StoreLine(t, s, t->be, be);
    }
  }
  if (t->mode == PPE_TD_MODE_SHARED)
    for (PetscInt s = 1; s < ns; s++) PetscCall(PetscArraycpy(row + 6 * s, row, 6));
  PetscCall(PetscFree7(A, B, C, ip, al, be, h));
  PetscCall(TdRaise(comm, code, msg));

  /* method per line: valid[s] = solved by distd2 */
  if (t->method == PPE_TRIDIAG_DISTD2 || t->method == PPE_TRIDIAG_AUTO) {
    PetscCall(SetUpDistD2Check(t, row, valid, bound));
    if (t->method == PPE_TRIDIAG_DISTD2) {
      for (PetscInt s = 0; s < ns && !code; s++) {
        if (valid[s]) continue;
        code = PETSC_ERR_ARG_INCOMP;
        if (t->mask[s] == 0.0) PetscCall(PetscSNPrintf(msg, sizeof(msg), "distd2 cannot solve line %" PetscInt_FMT ": it is pinned (singular); use %s ptdma or auto", s, t->methodopt));
        else if (bound[s] > 0.5 * PETSC_MACHINE_EPSILON)
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "distd2 cannot solve line %" PetscInt_FMT ": the couplings it would drop at a boundary of rank %d change the 2x2 solution by up to %.4g relative, above the unit roundoff %.4g (the line is not dominant enough for %" PetscInt_FMT " rows on this rank); use %s ptdma or auto", s, (int)t->rank, (double)bound[s], (double)(0.5 * PETSC_MACHINE_EPSILON), m, t->methodopt));
        else code = 0; /* invalid because of another rank's boundary: that rank reports it */
      }
      PetscCall(TdRaise(comm, code, msg));
      /* a line invalid only through a neighbour on this rank's side was reported there */
    }
    PetscCall(SetUpDistD2(t, row, valid));
  } else {
    t->d2.prev = t->d2.next = MPI_PROC_NULL;
  }
  PetscCall(SetUpPTDMA(t, row, valid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work arrays of the reduction set-up, freed also when it fails. */
static PetscErrorCode SetUpReduction(PPETridiag t)
{
  PetscInt      *valid, ns = t->nsys;
  PetscReal     *row, *bound;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscCalloc3(6 * ns + 1, &row, ns + 1, &valid, ns + 1, &bound));
  ierr = SetUpReductionWith(t, row, valid, bound);
  PetscCall(PetscFree3(row, valid, bound));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Runtime buffers of the solves. */
static PetscErrorCode SetUpBuffers(PPETridiag t)
{
  size_t tile = (size_t)PPE_TD_G * TD_SZ * t->m;

  PetscFunctionBegin;
  if (!t->precompute) PetscCall(PetscMalloc1(3 * tile, &t->scr));
  PetscCall(PetscCalloc2(PetscMax(t->ng * TD_SZ, 1), &t->rb0, PetscMax(t->ng * TD_SZ, 1), &t->rb1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPETridiagSetUp_Private(PPETridiag t)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)t);

  PetscFunctionBegin;
  PetscCall(PPETridiagReset_Private(t)); /* what a failed set-up may have left */
  t->setup_bytes = 0;
  PetscCall(CheckInput(t));
  PetscCall(PrepareCoefficients(t));
  /* shared coefficients without shift: factors shared whatever precompute says */
  if (t->size == 1 && (t->method == PPE_TRIDIAG_THOMAS || t->method == PPE_TRIDIAG_AUTO)) {
    t->used = PPE_TRIDIAG_THOMAS;
    PetscCall(SetUpThomas(t));
  } else {
    PetscCheck(t->method != PPE_TRIDIAG_THOMAS, comm, PETSC_ERR_SUP,
               "Method thomas solves lines held whole by one rank; this batch splits its lines over %d ranks: use %s ptdma, distd2 or auto", (int)t->size, t->methodopt);
    PetscCall(SetUpReduction(t));
    t->used = t->nptdma && t->ndistd2 ? PPE_TRIDIAG_AUTO : (t->ndistd2 ? PPE_TRIDIAG_DISTD2 : PPE_TRIDIAG_PTDMA);
  }
  PetscCall(SetUpBuffers(t));
  if (t->backend_set) PetscCall(PPEBackendCheck(comm, t->backend));
  else PetscCall(PPEBackendGetDefault(comm, &t->backend));
  t->nsolves = 0;
  t->bytes   = 0;
  t->msgs    = 0;
  PetscCall(PetscInfo(t, "%" PetscInt_FMT " lines of %" PetscInt_FMT " rows on %d ranks: thomas %" PetscInt_FMT ", ptdma %" PetscInt_FMT ", distd2 %" PetscInt_FMT "; set-up sent %.0f bytes\n", t->nsys, t->n, (int)t->size, t->nthomas, t->nptdma, t->ndistd2, (double)t->setup_bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free everything set-up made; the coefficients as given stay. */
PetscErrorCode PPETridiagReset_Private(PPETridiag t)
{
  PetscFunctionBegin;
  PetscCall(PPETridiagDeviceDestroy(t));
  PetscCall(PetscFree(t->ex));
  PetscCall(PetscFree(t->ip));
  PetscCall(PetscFree(t->q));
  PetscCall(PetscFree(t->al));
  PetscCall(PetscFree(t->be));
  PetscCall(PetscFree(t->last));
  PetscCall(PetscFree(t->ones));
  PetscCall(PetscFree(t->scr));
  PetscCall(PetscFree2(t->rb0, t->rb1));
  PetscCall(PetscFree2(t->red.lines, t->red.pos));
  PetscCall(PetscFree4(t->red.scnt, t->red.sdsp, t->red.rcnt, t->red.rdsp));
  PetscCall(PetscFree5(t->red.L, t->red.U, t->red.ip, t->red.q, t->red.last));
  PetscCall(PetscFree3(t->red.sbuf, t->red.rbuf, t->red.rhs));
  PetscCall(PetscFree2(t->d2.lines, t->d2.k));
  PetscCall(PetscFree4(t->d2.sb0, t->d2.sb1, t->d2.rb0, t->d2.rb1));
  PetscCall(PetscMemzero(&t->red, sizeof(t->red)));
  PetscCall(PetscMemzero(&t->d2, sizeof(t->d2)));
  t->nthomas = t->nptdma = t->ndistd2 = 0;
  t->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

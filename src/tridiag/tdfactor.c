/*
   PPETridiag set-up, the factorisation of one line (tdsetup.c has the notation): the line's
   rows in contiguous arrays, Thomas and periodic Thomas factors, the local reduction of a
   line split over the ranks, the checks of the last pivot against the pinning, and the storage
   of the factors.
*/
#include <ppekit/private/tridiagimpl.h>

#define TD_SZ PPE_TRIDIAG_SZ

/* Relative size under which the last pivot of a pinned line counts as zero: the last pivot of
   a singular line is zero up to the roundings of its eliminations, which grow with the line's
   condition far above eps, while that of a line pinned by mistake is of the size of its row;
   the square root of eps lies between the two. */
#define TD_PIN_TOL PETSC_SQRT_MACHINE_EPSILON

/* Line s of this rank: A, the row excess R = e + shift w, and C in contiguous arrays. */
void PPETdGetLine(const PPETridiag t, PetscInt s, PetscReal A[], PetscReal R[], PetscReal C[])
{
  for (PetscInt k = 0; k < t->m; k++) {
    A[k] = PPETdIgnored(t, 0, k) ? 0.0 : PPETdCoef(t, t->a, s, k);
    R[k] = PPETdCoef(t, t->ex, s, k) + t->shift[s] * t->w[k];
    C[k] = PPETdIgnored(t, 2, k) ? 0.0 : PPETdCoef(t, t->c, s, k);
  }
}

/* A pivot that is zero relative to its row, or not finite. */
static inline PetscBool BadPivot(PetscReal p, PetscReal scale, PetscReal tol)
{
  return (PetscBool)(!PetscIsNormalReal(p) || PetscAbsReal(p) <= tol * scale);
}

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
void PPETdFactorThomas(PetscInt n, PetscBool periodic, const PetscReal A[], const PetscReal R[], const PetscReal C[], PetscReal tol, PetscReal ip[], PetscReal q[], PPETdFactorInfo *info)
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
void PPETdFactorReduce(PetscInt m, const PetscReal A[], const PetscReal R[], const PetscReal C[], PetscReal tol, PetscReal ip[], PetscReal al[], PetscReal be[], PetscReal h[], PetscReal row[6], PPETdFactorInfo *info)
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
void PPETdCheckLast(PetscInt s, PetscBool pinned, const PPETdFactorInfo *info, PetscReal tol, const char what[], char msg[], size_t len, PetscErrorCode *code)
{
  PetscReal rel = PetscAbsReal(info->lastp) / (info->lastscale > 0 ? info->lastscale : 1.0);

  if (*code) return;
  if (!pinned && BadPivot(info->lastp, info->lastscale, tol)) {
    *code = PETSC_ERR_MAT_LU_ZRPVT;
    PetscCallVoid(
      PetscSNPrintf(msg, len,
                    "Line %" PetscInt_FMT
                    " is singular: zero last pivot %.4g of its %s (relative %.4g). If it is singular on purpose (the zero mode of an all-Neumann/periodic problem, with a consistent right-hand side), pin it with PPETridiagSetPinnedLines()",
                    s, (double)info->lastp, what, (double)rel));
  } else if (pinned && !(rel <= TD_PIN_TOL)) {
    *code = PETSC_ERR_ARG_WRONG;
    PetscCallVoid(
      PetscSNPrintf(msg, len, "Line %" PetscInt_FMT " is pinned but not singular: the last pivot of its %s is %.4g (relative %.4g > %.4g); pin only lines whose matrix is singular", s, what, (double)info->lastp, (double)rel, (double)TD_PIN_TOL));
  }
}

/* Store the factors of line s (or of every line in shared mode) in the packed arrays. */
void PPETdStoreLine(PPETridiag t, PetscInt s, PetscReal *dst, const PetscReal src[])
{
  if (!dst) return;
  if (t->mode == PPE_TD_MODE_SHARED) {
    for (PetscInt k = 0; k < t->m; k++) dst[k] = src[k];
  } else {
    for (PetscInt k = 0; k < t->m; k++) dst[((size_t)(s / TD_SZ) * t->m + k) * TD_SZ + s % TD_SZ] = src[k];
  }
}

/* Allocate the stored factors: shared (m) or per line (packed). */
PetscErrorCode PPETdAllocFactor(PPETridiag t, PetscReal **f)
{
  size_t len = t->mode == PPE_TD_MODE_SHARED ? (size_t)t->m : (size_t)t->ng * t->m * TD_SZ;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(PetscMax(len, 1), f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

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

   This file has the checks, the coefficients, the lines held whole by one rank (Thomas) and
   the driver; tdreduce.c the lines split over the ranks (local reduction, DistD2, P-TDMA);
   tdfactor.c the factorisation of one line, which both use.
*/
#include <ppekit/private/tridiagimpl.h>
#include <ppekit/private/backendimpl.h>
#include <float.h> /* DBL_MIN */

#define TD_SZ PPE_TRIDIAG_SZ

/* b + a + c rounded once (error-free transformations: exact up to the final rounding). */
static PetscReal Excess(PetscReal b, PetscReal a, PetscReal c)
{
  volatile PetscReal s1 = b + a, v1 = s1 - b, e1 = (b - (s1 - v1)) + (a - v1);
  volatile PetscReal s2 = s1 + c, v2 = s2 - s1, e2 = (s1 - (s2 - v2)) + (c - v2);

  return s2 + (e1 + e2);
}

/* Checks of the input that need the whole batch; also the global sizes. */
static PetscErrorCode CheckInput(PPETridiag t)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)t);
  PetscInt       v[8] = {t->nsys, t->coef_set, t->perline, t->periodic, t->method, t->precompute, t->npinned, 0}, vmin[8], vmax[8], *ms;
  PetscErrorCode code = 0;
  char           msg[512];

  PetscFunctionBegin;
  PetscCheck(t->nsys >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call PPETridiagSetSizes() before PPETridiagSetUp()");
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
    PetscMPIInt bad  = -1;
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
          PetscReal x = PPETdCoef(t, arr[j], s, k);
          if (PetscIsInfOrNanReal(x) && !PPETdIgnored(t, j, k)) {
            code = PETSC_ERR_FP;
            PetscCall(
              PetscSNPrintf(msg, sizeof(msg), "Coefficient %s of %s%" PetscInt_FMT ", global row %" PetscInt_FMT " is %.4g: coefficients must be finite", name[j], t->perline ? "line " : "every line", t->perline ? s : 0, t->rstart + k, (double)x));
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
  PetscCall(PPERaiseCollective(comm, code, msg));
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
        PetscReal a = PPETdIgnored(t, 0, k) ? 0.0 : t->a[o], c = PPETdIgnored(t, 2, k) ? 0.0 : t->c[o];

        t->ex[o] = Excess(t->b[o], a, c);
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Thomas factors of every line at once when the lines share their coefficients and differ in
   the shift only (PPE_TD_MODE_FACTORS, not periodic, factors stored): the same recurrence as
   PPETdFactorThomas() with the TD_SZ lines of a group in the inner loop, which the compiler
   vectorises; a solver's set-up then costs about one pass over the factors instead of a
   scalar pass per line with gathers and strided stores. *ok is false when some interior
   pivot is bad (the caller then runs the per-line path, which reports the line and row).
*/
static void FactorThomasLanes(PPETridiag t, PetscReal tol, PetscBool *ok, PetscReal *lastp, PetscReal *lastscale)
{
  PetscInt m   = t->m;
  int      bad = 0;

  for (PetscInt g = 0; g < t->ng; g++) {
    const PetscReal          *sh = t->shift + (size_t)g * TD_SZ;
    PetscReal *PETSC_RESTRICT ip = t->ip + (size_t)g * m * TD_SZ, sig[TD_SZ] = {0};
    PetscInt                  nlane = PetscMin(TD_SZ, t->nsys - g * TD_SZ);

    for (PetscInt k = 0; k < m; k++) {
      PetscReal                       A = PPETdIgnored(t, 0, k) ? 0.0 : t->a[k], C = PPETdIgnored(t, 2, k) ? 0.0 : t->c[k], ex = t->ex[k], w = t->w[k];
      PetscReal                       sc  = PetscAbsReal(A) + PetscAbsReal(C);
      PetscReal *PETSC_RESTRICT       ipk = ip + (size_t)k * TD_SZ;
      const PetscReal *PETSC_RESTRICT ipm = ip + (size_t)(k > 0 ? k - 1 : 0) * TD_SZ;

      if (k == m - 1) {
        for (int l = 0; l < TD_SZ; l++) {
          PetscReal R = ex + sh[l] * w;
          sig[l]      = k ? R - A * (sig[l] * ipm[l]) : R - A;
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
        sig[l]      = k ? R - A * (sig[l] * ipm[l]) : R - A;
        p           = sig[l] - C;
        ipk[l]      = 1.0 / p;
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
  PetscInt       m    = t->m, nl;
  PetscReal     *A, *B, *C, *ip, *q, tol = PPETdPivotTol(t->n);
  PetscBool      store = t->precompute;
  PetscErrorCode code  = 0;
  char           msg[512];

  PetscFunctionBegin;
  t->nthomas = t->nsys;
  PetscCall(PetscMalloc5(m, &A, m, &B, m, &C, m, &ip, m, &q));
  if (store) {
    PetscCall(PPETdAllocFactor(t, &t->ip));
    if (t->periodic) PetscCall(PPETdAllocFactor(t, &t->q));
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
      PPETdFactorInfo info;

      info.lastp     = lp[s];
      info.lastscale = ls[s];
      PPETdCheckLast(s, (PetscBool)(t->mask[s] == 0.0), &info, tol, "matrix", msg, sizeof(msg), &code);
      t->last[s] = t->mask[s] == 0.0 ? 0.0 : 1.0 / info.lastp;
    }
    PetscCall(PetscFree2(lp, ls));
    if (ok) nl = 0; /* done; else the per-line path finds and reports the bad pivot */
  }
  for (PetscInt s = 0; s < nl && !code; s++) {
    PPETdFactorInfo info;

    PPETdGetLine(t, s, A, B, C);
    PPETdFactorThomas(m, t->periodic, A, B, C, tol, ip, q, &info);
    if (info.badrow >= 0) {
      code = PETSC_ERR_MAT_LU_ZRPVT;
      PetscCall(
        PetscSNPrintf(msg, sizeof(msg), "Zero pivot %.4g in line %" PetscInt_FMT " at row %" PetscInt_FMT ": the tridiagonal solvers do not pivot (they need diagonally dominant or positive definite lines)", (double)info.badp, s, info.badrow));
      break;
    }
    if (store) {
      ip[m - 1] = 0.0;
      q[m - 1]  = 0.0;
      PPETdStoreLine(t, s, t->ip, ip);
      if (t->periodic) PPETdStoreLine(t, s, t->q, q);
    }
    if (t->mode == PPE_TD_MODE_SHARED) {
      for (PetscInt r = 0; r < t->nsys && !code; r++) {
        PPETdCheckLast(r, (PetscBool)(t->mask[r] == 0.0), &info, tol, "matrix", msg, sizeof(msg), &code);
        t->last[r] = t->mask[r] == 0.0 ? 0.0 : 1.0 / info.lastp;
      }
    } else {
      PPETdCheckLast(s, (PetscBool)(t->mask[s] == 0.0), &info, tol, "matrix", msg, sizeof(msg), &code);
      t->last[s] = t->mask[s] == 0.0 ? 0.0 : 1.0 / info.lastp;
    }
  }
  PetscCall(PetscFree5(A, B, C, ip, q));
  PetscCall(PPERaiseCollective(comm, code, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Runtime buffers of the solves on the host: the boundary values of the exchange. */
static PetscErrorCode SetUpBuffers(PPETridiag t)
{
  PetscFunctionBegin;
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
    PetscCheck(t->method != PPE_TRIDIAG_THOMAS, comm, PETSC_ERR_SUP, "Method thomas solves lines held whole by one rank; this batch splits its lines over %d ranks: use %s ptdma, distd2 or auto", (int)t->size, t->methodopt);
    PetscCall(PPETridiagSetUpReduction(t));
    t->used = t->nptdma && t->ndistd2 ? PPE_TRIDIAG_AUTO : (t->ndistd2 ? PPE_TRIDIAG_DISTD2 : PPE_TRIDIAG_PTDMA);
  }
  PetscCall(SetUpBuffers(t));
  if (t->backend_set) PetscCall(PPEBackendCheck(comm, t->backend));
  else PetscCall(PPEBackendGetDefault(comm, &t->backend));
  PetscCall(PPETridiagSetUpBackend(t)); /* the arrays in the back end's memory: device copies now, not at the first solve */
  t->nsolves = 0;
  t->bytes   = 0;
  t->msgs    = 0;
  PetscCall(PetscInfo(t, "%" PetscInt_FMT " lines of %" PetscInt_FMT " rows on %d ranks: thomas %" PetscInt_FMT ", ptdma %" PetscInt_FMT ", distd2 %" PetscInt_FMT "; set-up sent %.0f bytes\n", t->nsys, t->n, (int)t->size, t->nthomas, t->nptdma,
                      t->ndistd2, (double)t->setup_bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free everything set-up made; the coefficients as given stay. */
PetscErrorCode PPETridiagReset_Private(PPETridiag t)
{
  PetscFunctionBegin;
  PetscCall(PPETridiagResetBackend(t));
  PetscCall(PetscFree(t->ex));
  PetscCall(PetscFree(t->ip));
  PetscCall(PetscFree(t->q));
  PetscCall(PetscFree(t->al));
  PetscCall(PetscFree(t->be));
  PetscCall(PetscFree(t->last));
  PetscCall(PetscFree(t->ones));
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
  t->setupcalled                      = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

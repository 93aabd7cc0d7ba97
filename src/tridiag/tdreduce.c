/*
   PPETridiag set-up of lines split over the ranks (tdsetup.c has the notation and the local
   reduction): the method of each line, the DistD2 2x2 systems with the neighbours and the
   check that they are exact, and the P-TDMA reduced systems gathered on their owners and
   factored.
*/
#include <ppekit/private/tridiagimpl.h>

/* The unit roundoff: DistD2 drops the couplings of a line only where they change its 2x2
   solution by less than this, relative, so that the line is solved to machine precision. */
#define TD_UNIT_ROUNDOFF (0.5 * PETSC_MACHINE_EPSILON)

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
  PetscReal   eps2 = TD_UNIT_ROUNDOFF;

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
  PetscReal     *sbuf, *rbuf, *A, *B, *C, *ip, *q, tol = PPETdPivotTol(t->n);
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
    PetscInt        s = R->lines[R->lo + j];
    PPETdFactorInfo info;

    for (PetscInt p = 0; p < P; p++) {
      const PetscReal *r = rbuf + 6 * R->nown * p + 6 * j;

      A[2 * p]     = r[0];
      B[2 * p]     = r[1];
      C[2 * p]     = r[2];
      A[2 * p + 1] = r[3];
      B[2 * p + 1] = r[4];
      C[2 * p + 1] = r[5];
    }
    PPETdFactorThomas(nr, t->periodic, A, B, C, tol, ip, q, &info);
    if (info.badrow >= 0) {
      code = PETSC_ERR_MAT_LU_ZRPVT;
      PetscCall(PetscSNPrintf(msg, sizeof(msg),
                              "Zero pivot %.4g in the reduced system of line %" PetscInt_FMT " (boundary unknown %" PetscInt_FMT " of %" PetscInt_FMT
                              "): the tridiagonal solvers do not pivot (they need diagonally dominant or positive definite lines)",
                              (double)info.badp, s, info.badrow, nr));
      break;
    }
    PPETdCheckLast(s, (PetscBool)(t->mask[s] == 0.0), &info, tol, "reduced system", msg, sizeof(msg), &code);
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
  PetscCall(PPERaiseCollective(comm, code, msg));
  PetscCall(PetscMalloc3(2 * np, &R->sbuf, 2 * R->nown * P + 1, &R->rbuf, nr * R->nown + 1, &R->rhs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lines split over the ranks: local reduction, method per line, distd2 pairs, ptdma systems. */
static PetscErrorCode SetUpReductionWith(PPETridiag t, PetscReal *row, PetscInt *valid, PetscReal *bound)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)t);
  PetscInt       m = t->m, ns = t->nsys, nl;
  PetscReal     *A, *B, *C, *ip, *al, *be, *h, tol = PPETdPivotTol(t->n);
  PetscBool      store = t->precompute;
  PetscErrorCode code  = 0;
  char           msg[512];

  PetscFunctionBegin;
  PetscCall(PetscMalloc7(m, &A, m, &B, m, &C, m, &ip, m, &al, m, &be, m, &h));
  if (store) {
    PetscCall(PPETdAllocFactor(t, &t->ip));
    PetscCall(PPETdAllocFactor(t, &t->al));
    PetscCall(PPETdAllocFactor(t, &t->be));
  }
  nl = t->mode == PPE_TD_MODE_SHARED ? PetscMin(ns, 1) : ns;
  for (PetscInt s = 0; s < nl && !code; s++) {
    PPETdFactorInfo info;

    PPETdGetLine(t, s, A, B, C);
    for (PetscInt k = 0; k < m; k++) ip[k] = al[k] = be[k] = h[k] = 0.0;
    PPETdFactorReduce(m, A, B, C, tol, ip, al, be, h, row + 6 * s, &info);
    if (info.badrow >= 0) {
      code = PETSC_ERR_MAT_LU_ZRPVT;
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "Zero pivot %.4g in line %" PetscInt_FMT " at global row %" PetscInt_FMT ": the tridiagonal solvers do not pivot (they need diagonally dominant or positive definite lines)", (double)info.badp, s,
                              t->rstart + info.badrow));
      break;
    }
    if (store) {
      PPETdStoreLine(t, s, t->ip, ip);
      PPETdStoreLine(t, s, t->al, al);
      PPETdStoreLine(t, s, t->be, be);
    }
  }
  if (t->mode == PPE_TD_MODE_SHARED)
    for (PetscInt s = 1; s < ns; s++) PetscCall(PetscArraycpy(row + 6 * s, row, 6));
  PetscCall(PetscFree7(A, B, C, ip, al, be, h));
  PetscCall(PPERaiseCollective(comm, code, msg));

  /* method per line: valid[s] = solved by distd2 */
  if (t->method == PPE_TRIDIAG_DISTD2 || t->method == PPE_TRIDIAG_AUTO) {
    PetscCall(SetUpDistD2Check(t, row, valid, bound));
    if (t->method == PPE_TRIDIAG_DISTD2) {
      for (PetscInt s = 0; s < ns && !code; s++) {
        if (valid[s]) continue;
        code = PETSC_ERR_ARG_INCOMP;
        if (t->mask[s] == 0.0) PetscCall(PetscSNPrintf(msg, sizeof(msg), "distd2 cannot solve line %" PetscInt_FMT ": it is pinned (singular); use %s ptdma or auto", s, t->methodopt));
        else if (bound[s] > TD_UNIT_ROUNDOFF)
          PetscCall(PetscSNPrintf(msg, sizeof(msg),
                                  "distd2 cannot solve line %" PetscInt_FMT
                                  ": the couplings it would drop at a boundary of rank %d change the 2x2 solution by up to %.4g relative, above the unit roundoff %.4g (the line is not dominant enough for %" PetscInt_FMT
                                  " rows on this rank); use %s ptdma or auto",
                                  s, (int)t->rank, (double)bound[s], (double)TD_UNIT_ROUNDOFF, m, t->methodopt));
        else code = 0; /* invalid because of another rank's boundary: that rank reports it */
      }
      PetscCall(PPERaiseCollective(comm, code, msg));
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
PetscErrorCode PPETridiagSetUpReduction(PPETridiag t)
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

/*
   PPETridiag solve: the kernels over blocks of lines, the run-time exchanges, packing, and
   the communication counters.

     thomas:  one pass of the Thomas (or periodic Thomas) kernel over every block.
     ptdma:   reduce (boundary right-hand sides r0, r1 of every line) ->
              all-to-all of 2 values per line to the rank that owns its reduced system ->
              reduced solves (2P unknowns per line) -> all-to-all of the 2 solved values
              back -> reconstruct.
     distd2:  reduce -> r0 to the previous rank, r1 to the next -> 2x2 solves -> reconstruct.
   Lines of both kinds (auto) share the passes; the neighbour messages overlap the all-to-alls.
*/
#include <ppekit/private/tridiagimpl.h>

#define TD_SZ PPE_TRIDIAG_SZ

/* The host arrays of the batch, as the kernels see them (scratch: PPE_TD_G groups). */
static void HostArrays(const PPETridiag t, PPETdArrays *A)
{
  A->a         = t->a;
  A->ex        = t->ex;
  A->c         = t->c;
  A->w         = t->w;
  A->shift     = t->shift;
  A->mask      = t->mask;
  A->ip        = t->ip;
  A->q         = t->q;
  A->al        = t->al;
  A->be        = t->be;
  A->last      = t->last;
  A->rb0       = t->rb0;
  A->rb1       = t->rb1;
  A->scr       = t->scr;
  A->scrgroups = PPE_TD_G;
}

/*
   Views of the block of lines that starts at line s0 (a multiple of SZ), as groups of SZ
   lines: in the packed layout each group is contiguous; in the natural layout the groups
   are consecutive lines of each row. Per-line arrays are packed (each group contiguous,
   streamed in both layouts). The arrays are the host's or their device copies (Ar).
*/
void PPETridiagBlockArgs(const PPETridiag t, const PPETdArrays *Ar, PetscScalar *d, PetscBool packed, PetscInt s0, PPETdArgs *x)
{
  const long SZ = TD_SZ, m = t->m, off = (long)(s0 / SZ) * m * SZ, tile = (long)Ar->scrgroups * TD_SZ * m;

#define TD_COEF(v)  (t->perline ? (ppe_td_carr){(v) + off, m * SZ, SZ, 1} : (ppe_td_carr){(v), 0, 1, 0})
#define TD_FACT(v)  ((v) ? (t->mode == PPE_TD_MODE_SHARED ? (ppe_td_carr){(v), 0, 1, 0} : (ppe_td_carr){(v) + off, m * SZ, SZ, 1}) : (ppe_td_carr){NULL, 0, 0, 0})
#define TD_LANE(v)  ((ppe_td_carr){(v) + s0, SZ, 0, 1})
#define TD_LANEW(v) ((ppe_td_arr){(v) + s0, SZ, 0, 1})
#define TD_SCR(j)   ((ppe_td_arr){Ar->scr ? Ar->scr + (j) * tile : NULL, m * SZ, SZ, 1})
  x->a     = TD_COEF(Ar->a);
  x->e     = TD_COEF(Ar->ex);
  x->c     = TD_COEF(Ar->c);
  x->w     = (ppe_td_carr){Ar->w, 0, 1, 0};
  x->shift = TD_LANE(Ar->shift);
  x->mask  = TD_LANE(Ar->mask);
  x->ip    = TD_FACT(Ar->ip);
  x->q     = TD_FACT(Ar->q);
  x->al    = TD_FACT(Ar->al);
  x->be    = TD_FACT(Ar->be);
  x->last  = Ar->last ? TD_LANE(Ar->last) : (ppe_td_carr){NULL, 0, 0, 0};
  if (packed) x->d = (ppe_td_arr){d + off, m * SZ, SZ, 1};
  else x->d = (ppe_td_arr){d + s0 * t->ls, SZ * t->ls, t->ks, t->ls};
  x->r0 = TD_LANEW(Ar->rb0);
  x->r1 = TD_LANEW(Ar->rb1);
  x->x0 = TD_LANE(Ar->rb0);
  x->x1 = TD_LANE(Ar->rb1);
  x->s  = TD_SCR(0);
  x->t  = TD_SCR(1);
  x->u  = TD_SCR(2);
#undef TD_COEF
#undef TD_FACT
#undef TD_LANE
#undef TD_LANEW
#undef TD_SCR
}

/* Kernel k over every line: full blocks of PPE_TD_G groups of SZ lines, then the rest. */
static void RunKernel(const PPETridiag t, PPETdKernel k, PetscScalar *d, PetscBool packed)
{
  PetscInt    nfull = t->nsys / TD_SZ, rem = t->nsys % TD_SZ;
  PetscBool   fly   = (PetscBool)!t->precompute;
  PPETdArgs   x;
  PPETdArrays A;

  HostArrays(t, &A);
  for (PetscInt G0 = 0; G0 < nfull; G0 += PPE_TD_G) {
    ppe_td_lanes R = {0, (int)PetscMin(PPE_TD_G, nfull - G0), 0, TD_SZ};

    PPETridiagBlockArgs(t, &A, d, packed, G0 * TD_SZ, &x);
    PPETridiagKernel_Host(k, fly, t->mode, t->avx2, R, t->m, &x);
  }
  if (rem) {
    ppe_td_lanes R = {0, 1, 0, (int)rem};

    PPETridiagBlockArgs(t, &A, d, packed, nfull * TD_SZ, &x);
    PPETridiagKernel_Host(k, fly, t->mode, t->avx2, R, t->m, &x);
  }
}

/* Count a send of cnt values to rank r (other ranks only). */
static inline void Count(PPETridiag t, PetscMPIInt r, PetscInt cnt)
{
  if (r == MPI_PROC_NULL || r == t->rank || cnt <= 0) return;
  t->bytes += (PetscLogDouble)cnt * sizeof(PetscScalar);
  t->msgs += 1;
}

/* The reduced systems of the ptdma lines this rank owns: gather, solve, send back. */
static PetscErrorCode SolvePTDMA(PPETridiag t)
{
  MPI_Comm      comm = PetscObjectComm((PetscObject)t);
  PPETdReduced *R    = &t->red;
  PetscInt      P = t->size, nown = R->nown, np = R->np;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < np; i++) {
    R->sbuf[2 * i]     = t->rb0[R->lines[i]];
    R->sbuf[2 * i + 1] = t->rb1[R->lines[i]];
  }
  PetscCall(PetscLogEventBegin(PPE_TridiagComm, t, 0, 0, 0));
  if (P > 1) {
    PetscCallMPI(MPI_Alltoallv(R->sbuf, R->scnt, R->sdsp, MPIU_SCALAR, R->rbuf, R->rcnt, R->rdsp, MPIU_SCALAR, comm));
    for (PetscMPIInt q = 0; q < P; q++) Count(t, q, R->scnt[q]);
  } else PetscCall(PetscArraycpy(R->rbuf, R->sbuf, 2 * np));
  PetscCall(PetscLogEventEnd(PPE_TridiagComm, t, 0, 0, 0));

  PetscCall(PetscLogEventBegin(PPE_TridiagRSys, t, 0, 0, 0));
  if (nown) {
    PPETdArgs    x;
    ppe_td_lanes L = {0, 1, 0, 0};

    PetscCall(PetscCIntCast(nown, &L.l1)); /* the lanes of the kernels are C ints */

    /* received [rank p][line j][2] -> reduced row 2p+k of line j */
    for (PetscInt p = 0; p < P; p++)
      for (PetscInt j = 0; j < nown; j++) {
        R->rhs[(2 * p) * nown + j]     = R->rbuf[2 * nown * p + 2 * j];
        R->rhs[(2 * p + 1) * nown + j] = R->rbuf[2 * nown * p + 2 * j + 1];
      }
    PetscCall(PetscMemzero(&x, sizeof(x)));
    x.a    = (ppe_td_carr){R->L, 0, nown, 1};
    x.c    = (ppe_td_carr){R->U, 0, nown, 1};
    x.ip   = (ppe_td_carr){R->ip, 0, nown, 1};
    x.q    = (ppe_td_carr){R->q, 0, nown, 1};
    x.last = (ppe_td_carr){R->last, 0, 0, 1};
    x.d    = (ppe_td_arr){R->rhs, 0, nown, 1};
    PPETridiagKernel_Host(t->periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, PETSC_FALSE, PPE_TD_MODE_LINE, t->avx2, L, R->nr, &x);
    for (PetscInt p = 0; p < P; p++)
      for (PetscInt j = 0; j < nown; j++) {
        R->rbuf[2 * nown * p + 2 * j]     = R->rhs[(2 * p) * nown + j];
        R->rbuf[2 * nown * p + 2 * j + 1] = R->rhs[(2 * p + 1) * nown + j];
      }
  }
  PetscCall(PetscLogEventEnd(PPE_TridiagRSys, t, 0, 0, 0));

  PetscCall(PetscLogEventBegin(PPE_TridiagComm, t, 0, 0, 0));
  if (P > 1) {
    PetscCallMPI(MPI_Alltoallv(R->rbuf, R->rcnt, R->rdsp, MPIU_SCALAR, R->sbuf, R->scnt, R->sdsp, MPIU_SCALAR, comm));
    for (PetscMPIInt q = 0; q < P; q++) Count(t, q, R->rcnt[q]);
  } else PetscCall(PetscArraycpy(R->sbuf, R->rbuf, 2 * np));
  PetscCall(PetscLogEventEnd(PPE_TridiagComm, t, 0, 0, 0));
  for (PetscInt i = 0; i < np; i++) {
    t->rb0[R->lines[i]] = R->sbuf[2 * i];
    t->rb1[R->lines[i]] = R->sbuf[2 * i + 1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Boundary unknowns of every line from the boundary right-hand sides (rb0, rb1 in place). */
PetscErrorCode PPETridiagExchange(PPETridiag t)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)t);
  PPETdDistD2 *D    = &t->d2;
  MPI_Request  req[4];
  PetscMPIInt  nd, nreq = 0;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(D->nd, &nd));
  if (nd) {
    for (PetscInt i = 0; i < nd; i++) {
      D->sb0[i] = t->rb0[D->lines[i]];
      D->sb1[i] = t->rb1[D->lines[i]];
    }
    PetscCall(PetscLogEventBegin(PPE_TridiagComm, t, 0, 0, 0));
    if (t->size > 1) {
      PetscCallMPI(MPI_Irecv(D->rb1, nd, MPIU_SCALAR, D->prev, 3, comm, &req[nreq++]));
      PetscCallMPI(MPI_Irecv(D->rb0, nd, MPIU_SCALAR, D->next, 2, comm, &req[nreq++]));
      if (D->prev != MPI_PROC_NULL) PetscCallMPI(MPI_Isend(D->sb0, nd, MPIU_SCALAR, D->prev, 2, comm, &req[nreq++]));
      if (D->next != MPI_PROC_NULL) PetscCallMPI(MPI_Isend(D->sb1, nd, MPIU_SCALAR, D->next, 3, comm, &req[nreq++]));
      Count(t, D->prev, nd);
      Count(t, D->next, nd);
    } else if (t->periodic) {
      /* one rank, periodic: the pair is this rank's own two boundary rows */
      PetscCall(PetscArraycpy(D->rb1, D->sb1, nd));
      PetscCall(PetscArraycpy(D->rb0, D->sb0, nd));
    }
    PetscCall(PetscLogEventEnd(PPE_TridiagComm, t, 0, 0, 0));
  }
  if (t->red.np) PetscCall(SolvePTDMA(t));
  if (nd) {
    PetscCall(PetscLogEventBegin(PPE_TridiagComm, t, 0, 0, 0));
    if (nreq) PetscCallMPI(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
    PetscCall(PetscLogEventEnd(PPE_TridiagComm, t, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PPE_TridiagRSys, t, 0, 0, 0));
    for (PetscInt i = 0; i < nd; i++) {
      const PetscReal *k = D->k + 4 * i;
      PetscInt         s = D->lines[i];

      t->rb0[s] = k[0] * D->sb0[i] + k[1] * D->rb1[i];
      t->rb1[s] = k[2] * D->sb1[i] + k[3] * D->rb0[i];
    }
    PetscCall(PetscLogEventEnd(PPE_TridiagRSys, t, 0, 0, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPETridiagSolve_Private(PPETridiag t, PetscScalar d[], PetscBool packed)
{
  PetscFunctionBegin;
  PetscCheck(d || t->nsys == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null data array given to a tridiagonal solve");
  if (t->backend != PPE_BACKEND_HOST) {
    PetscCall(PPETridiagSolveDevice(t, d, packed));
  } else if (t->used == PPE_TRIDIAG_THOMAS) {
    PetscCall(PetscLogEventBegin(PPE_TridiagLocal, t, 0, 0, 0));
    RunKernel(t, t->periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, d, packed);
    PetscCall(PetscLogEventEnd(PPE_TridiagLocal, t, 0, 0, 0));
  } else {
    PetscCall(PetscLogEventBegin(PPE_TridiagLocal, t, 0, 0, 0));
    RunKernel(t, PPE_TD_K_REDUCE, d, packed);
    PetscCall(PetscLogEventEnd(PPE_TridiagLocal, t, 0, 0, 0));
    PetscCall(PPETridiagExchange(t));
    PetscCall(PetscLogEventBegin(PPE_TridiagRecon, t, 0, 0, 0));
    RunKernel(t, PPE_TD_K_RECON, d, packed);
    PetscCall(PetscLogEventEnd(PPE_TridiagRecon, t, 0, 0, 0));
  }
  t->nsolves++;
  PetscCall(PetscLogFlops((t->used == PPE_TRIDIAG_THOMAS ? (t->periodic ? 8.0 : 5.0) : 10.0) * t->nsys * t->m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSolve - solves every line in place, data in the natural layout

   Collective

   Input Parameters:
+  td - the batch
-  d  - right-hand sides on entry, solutions on exit; element (s,k) at d[s*ls + k*ks]

   Level: beginner

.seealso: PPETridiagSolvePacked(), PPETridiagSetNaturalLayout()
@*/
PetscErrorCode PPETridiagSolve(PPETridiag td, PetscScalar d[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCall(PPETridiagSetUp(td));
  PetscCall(PetscLogEventBegin(PPE_TridiagSolve, td, 0, 0, 0));
  PetscCall(PPETridiagSolve_Private(td, d, PETSC_FALSE));
  PetscCall(PetscLogEventEnd(PPE_TridiagSolve, td, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSolvePacked - solves every line in place, data in the packed layout

   Collective

   Input Parameters:
+  td - the batch
-  dp - right-hand sides on entry, solutions on exit, in the packed layout (see PPETridiagPack())

   Level: intermediate

.seealso: PPETridiagPack(), PPETridiagGetPackedSize()
@*/
PetscErrorCode PPETridiagSolvePacked(PPETridiag td, PetscScalar dp[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCall(PPETridiagSetUp(td));
  PetscCall(PetscLogEventBegin(PPE_TridiagSolve, td, 0, 0, 0));
  PetscCall(PPETridiagSolve_Private(td, dp, PETSC_TRUE));
  PetscCall(PetscLogEventEnd(PPE_TridiagSolve, td, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagGetPackedSize - length of an array in the packed layout: ceil(nsys/SZ)*m*SZ

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPETridiagGetPackedSize(PPETridiag td, PetscInt *len)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  *len = td->ng * td->m * PPE_TRIDIAG_SZ;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagPack - copies natural-layout data into the packed layout: element (s,k) goes to
   dp[((s/SZ)*m + k)*SZ + s%SZ], SZ = PPE_TRIDIAG_SZ; the lanes past nsys are zeroed

   Not Collective

   Level: intermediate

.seealso: PPETridiagUnpack(), PPETridiagSolvePacked()
@*/
PetscErrorCode PPETridiagPack(PPETridiag td, const PetscScalar d[], PetscScalar dp[])
{
  const PetscInt SZ = PPE_TRIDIAG_SZ, m = td->m;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCall(PetscLogEventBegin(PPE_TridiagPack, td, 0, 0, 0));
  for (PetscInt g = 0; g < td->ng; g++) {
    PetscInt nl = PetscMin(SZ, td->nsys - g * SZ);

    for (PetscInt k = 0; k < m; k++) {
      PetscScalar       *o = dp + ((size_t)g * m + k) * SZ;
      const PetscScalar *i = d + (size_t)g * SZ * td->ls + (size_t)k * td->ks;

      if (td->ls == 1 && nl == SZ)
        for (PetscInt l = 0; l < SZ; l++) o[l] = i[l];
      else
        for (PetscInt l = 0; l < SZ; l++) o[l] = l < nl ? i[(size_t)l * td->ls] : 0.0;
    }
  }
  PetscCall(PetscLogEventEnd(PPE_TridiagPack, td, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagUnpack - copies packed-layout data back into the natural layout

   Not Collective

   Level: intermediate

.seealso: PPETridiagPack()
@*/
PetscErrorCode PPETridiagUnpack(PPETridiag td, const PetscScalar dp[], PetscScalar d[])
{
  const PetscInt SZ = PPE_TRIDIAG_SZ, m = td->m;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCall(PetscLogEventBegin(PPE_TridiagPack, td, 0, 0, 0));
  for (PetscInt g = 0; g < td->ng; g++) {
    PetscInt nl = PetscMin(SZ, td->nsys - g * SZ);

    for (PetscInt k = 0; k < m; k++) {
      const PetscScalar *i = dp + ((size_t)g * m + k) * SZ;
      PetscScalar       *o = d + (size_t)g * SZ * td->ls + (size_t)k * td->ks;

      if (td->ls == 1 && nl == SZ)
        for (PetscInt l = 0; l < SZ; l++) o[l] = i[l];
      else
        for (PetscInt l = 0; l < nl; l++) o[(size_t)l * td->ls] = i[l];
    }
  }
  PetscCall(PetscLogEventEnd(PPE_TridiagPack, td, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagGetLineMethods - how many lines each method solves (after set-up)

   Not Collective

   Output Parameters:
+  nthomas - lines solved by thomas
.  nptdma  - lines solved by ptdma
-  ndistd2 - lines solved by distd2

   Level: intermediate
@*/
PetscErrorCode PPETridiagGetLineMethods(PPETridiag td, PetscInt *nthomas, PetscInt *nptdma, PetscInt *ndistd2)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCheck(td->setupcalled, PetscObjectComm((PetscObject)td), PETSC_ERR_ORDER, "Call PPETridiagSetUp() first");
  if (nthomas) *nthomas = td->nthomas;
  if (nptdma) *nptdma = td->nptdma;
  if (ndistd2) *ndistd2 = td->ndistd2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagGetCommCounts - what this rank's solves sent to other ranks since set-up (or the
   last PPETridiagResetCommCounts())

   Not Collective

   Output Parameters:
+  nsolves  - solves
.  bytes    - bytes sent to other ranks (the rank's own share of an all-to-all excluded)
-  messages - messages sent to other ranks (non-empty all-to-all blocks and point-to-point sends)

   Notes:
   Counted from the counts handed to MPI. Set-up communication is not included. PETSc's own
   counters (PPECountersGet()) also see these calls; they count an all-to-all's block to the
   rank itself too.

   Level: intermediate

.seealso: PPETridiagGetCommModel(), PPECountersGet()
@*/
PetscErrorCode PPETridiagGetCommCounts(PPETridiag td, PetscInt *nsolves, PetscLogDouble *bytes, PetscLogDouble *messages)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  if (nsolves) *nsolves = td->nsolves;
  if (bytes) *bytes = td->bytes;
  if (messages) *messages = td->msgs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagResetCommCounts - zeroes the counters of PPETridiagGetCommCounts()

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPETridiagResetCommCounts(PPETridiag td)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  td->nsolves = 0;
  td->bytes   = 0;
  td->msgs    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagGetCommModel - bytes and messages one solve should send from this rank, by the
   model of the method (after set-up)

   Not Collective

   Output Parameters:
+  bytes    - ptdma: 2 values per line out to the owners of the reduced systems and 2 back,
              for the lines whose reduced systems other ranks own; distd2: 1 value per line
              to each neighbour rank
-  messages - ptdma: 2 per other rank owning some reduced systems (there and back); distd2:
              1 per neighbour rank

   Level: intermediate

.seealso: PPETridiagGetCommCounts()
@*/
PetscErrorCode PPETridiagGetCommModel(PPETridiag td, PetscLogDouble *bytes, PetscLogDouble *messages)
{
  PetscLogDouble b = 0, msg = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCheck(td->setupcalled, PetscObjectComm((PetscObject)td), PETSC_ERR_ORDER, "Call PPETridiagSetUp() first");
  if (td->nptdma && td->size > 1) {
    /* out: my 2 values of every line whose reduced system another rank owns */
    for (PetscMPIInt q = 0; q < td->size; q++) {
      PetscInt lo = (PetscInt)(((PetscInt64)q * td->red.np) / td->size), hi = (PetscInt)(((PetscInt64)(q + 1) * td->red.np) / td->size);

      if (q == td->rank || hi == lo) continue;
      b += 2.0 * sizeof(PetscScalar) * (hi - lo);
      msg += 1;
    }
    /* back: the 2 solved values of each line I own, to every other rank */
    if (td->red.nown) {
      b += 2.0 * sizeof(PetscScalar) * td->red.nown * (td->size - 1);
      msg += td->size - 1;
    }
  }
  if (td->ndistd2) {
    if (td->d2.prev != MPI_PROC_NULL && td->d2.prev != td->rank) {
      b += sizeof(PetscScalar) * td->ndistd2;
      msg += 1;
    }
    if (td->d2.next != MPI_PROC_NULL && td->d2.next != td->rank) {
      b += sizeof(PetscScalar) * td->ndistd2;
      msg += 1;
    }
  }
  if (bytes) *bytes = b;
  if (messages) *messages = msg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

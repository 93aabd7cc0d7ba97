/*
   PPETridiag solve, the exchange between the local reduction and the reconstruction
   (tdsolve.c), on the host, where MPI delivers the messages: it gives every line its
   boundary unknowns (P-TDMA: all-to-all to the owners of the reduced systems, reduced solves
   by the host's table, and back; DistD2: neighbour messages and 2x2 solves).
*/
#include <ppekit/private/tridiagimpl.h>

#define TD_SZ PPE_TRIDIAG_SZ

/* Count a send of cnt values to rank r (other ranks only). */
static inline void Count(PPETridiag t, PetscMPIInt r, PetscInt cnt)
{
  if (r == MPI_PROC_NULL || r == t->rank || cnt <= 0) return;
  t->bytes += (PetscLogDouble)cnt * sizeof(PetscScalar);
  t->msgs += 1;
}

/* The all-to-all of the reduced values (2 per line), logged and counted: the boundary
   right-hand sides to the owners of the reduced systems (sbuf -> rbuf), or back, the
   solutions to the ranks of the lines (rbuf -> sbuf). */
static PetscErrorCode AllToAll(PPETridiag t, PetscBool back)
{
  PPETdReduced      *R  = &t->red;
  const PetscReal   *sb = back ? R->rbuf : R->sbuf;
  PetscReal         *rb = back ? R->sbuf : R->rbuf;
  const PetscMPIInt *sc = back ? R->rcnt : R->scnt, *sd = back ? R->rdsp : R->sdsp;
  const PetscMPIInt *rc = back ? R->scnt : R->rcnt, *rd = back ? R->sdsp : R->rdsp;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_TridiagComm, t, 0, 0, 0));
  if (t->size > 1) {
    PetscCallMPI(MPI_Alltoallv(sb, sc, sd, MPIU_SCALAR, rb, rc, rd, MPIU_SCALAR, PetscObjectComm((PetscObject)t)));
    for (PetscMPIInt q = 0; q < t->size; q++) Count(t, q, sc[q]);
  } else PetscCall(PetscArraycpy(rb, sb, 2 * R->np));
  PetscCall(PetscLogEventEnd(PPE_TridiagComm, t, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reduced systems of the ptdma lines this rank owns: gather, solve, send back. */
static PetscErrorCode SolvePTDMA(PPETridiag t)
{
  PPETdReduced *R = &t->red;
  PetscInt      P = t->size, nown = R->nown, np = R->np;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < np; i++) {
    R->sbuf[2 * i]     = t->rb0[R->lines[i]];
    R->sbuf[2 * i + 1] = t->rb1[R->lines[i]];
  }
  PetscCall(AllToAll(t, PETSC_FALSE));

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
    PPEBackendCall(&PPEBackendOps_Host, PPEBackendOps_Host.tridiag(t->periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, 0, L, R->nr, &x, NULL));
    for (PetscInt p = 0; p < P; p++)
      for (PetscInt j = 0; j < nown; j++) {
        R->rbuf[2 * nown * p + 2 * j]     = R->rhs[(2 * p) * nown + j];
        R->rbuf[2 * nown * p + 2 * j + 1] = R->rhs[(2 * p + 1) * nown + j];
      }
  }
  PetscCall(PetscLogEventEnd(PPE_TridiagRSys, t, 0, 0, 0));

  PetscCall(AllToAll(t, PETSC_TRUE));
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

/*
   PPETridiag solve, the steps that the host solve (tdsolve.c) and the device solve
   (tddevice.c) share: the views of a block of lines that the kernels take, and the exchange
   between the local reduction and the reconstruction, which gives every line its boundary
   unknowns (P-TDMA: all-to-all to the owners of the reduced systems, reduced solves, and
   back; DistD2: neighbour messages and 2x2 solves).
*/
#include <ppekit/private/tridiagimpl.h>

#define TD_SZ PPE_TRIDIAG_SZ

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

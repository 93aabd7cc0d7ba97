/*
   PPETridiag solve: the kernels over blocks of lines, and the run-time exchanges.

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

/*
   Views of a block of lines. Natural layout: lines s0.. as one group of contiguous lanes.
   Packed layout: groups G0.. of SZ lanes (s0 = G0*SZ). Per-line arrays are [row][line].
*/
static void BlockArgs(const PPETridiag t, PetscScalar *d, PetscBool packed, PetscInt s0, PPETdArgs *x)
{
  const long SZ = TD_SZ, m = t->m, ns = t->nsys, tile = (long)PetscMax(PPE_TD_L, PPE_TD_G * TD_SZ) * m;
  const long gs = packed ? SZ : 0; /* group stride of per-line and per-lane arrays */

#define TD_COEF(v) (t->perline ? (ppe_td_carr){(v) + s0, gs, ns, 1} : (ppe_td_carr){(v), 0, 1, 0})
#define TD_FACT(v) ((v) ? (t->mode == PPE_TD_MODE_SHARED ? (ppe_td_carr){(v), 0, 1, 0} : (ppe_td_carr){(v) + s0, gs, ns, 1}) : (ppe_td_carr){NULL, 0, 0, 0})
#define TD_LANE(v) ((ppe_td_carr){(v) + s0, gs, 0, 1})
#define TD_LANEW(v) ((ppe_td_arr){(v) + s0, gs, 0, 1})
#define TD_SCR(j)  (packed ? (ppe_td_arr){t->scr ? t->scr + (j) * tile : NULL, m * SZ, SZ, 1} : (ppe_td_arr){t->scr ? t->scr + (j) * tile : NULL, 0, PPE_TD_L, 1})
  x->a     = TD_COEF(t->a);
  x->e     = TD_COEF(t->ex);
  x->c     = TD_COEF(t->c);
  x->w     = (ppe_td_carr){t->w, 0, 1, 0};
  x->shift = TD_LANE(t->shift);
  x->mask  = TD_LANE(t->mask);
  x->ip    = TD_FACT(t->ip);
  x->q     = TD_FACT(t->q);
  x->al    = TD_FACT(t->al);
  x->be    = TD_FACT(t->be);
  x->last  = t->last ? TD_LANE(t->last) : (ppe_td_carr){NULL, 0, 0, 0};
  if (packed) x->d = (ppe_td_arr){d + (s0 / SZ) * m * SZ, m * SZ, SZ, 1};
  else x->d = (ppe_td_arr){d + s0 * t->ls, 0, t->ks, t->ls};
  x->r0 = TD_LANEW(t->rb0);
  x->r1 = TD_LANEW(t->rb1);
  x->x0 = TD_LANE(t->rb0);
  x->x1 = TD_LANE(t->rb1);
  x->s  = TD_SCR(0);
  x->t  = TD_SCR(1);
  x->u  = TD_SCR(2);
#undef TD_COEF
#undef TD_FACT
#undef TD_LANE
#undef TD_LANEW
#undef TD_SCR
}

/* Kernel k over every line: full blocks (PPE_TD_L contiguous lines, or PPE_TD_G groups of
   SZ packed lines), then the rest. */
static void RunKernel(const PPETridiag t, PPETdKernel k, PetscScalar *d, PetscBool packed)
{
  PetscInt  ns  = t->nsys;
  PetscBool fly = (PetscBool)!t->precompute;
  PPETdArgs x;

  if (!packed) {
    for (PetscInt s0 = 0; s0 < ns; s0 += PPE_TD_L) {
      ppe_td_lanes R = {0, 1, 0, (int)PetscMin(PPE_TD_L, ns - s0)};

      BlockArgs(t, d, packed, s0, &x);
      PPETridiagKernel_Host(k, fly, t->mode, t->avx2, R, t->m, &x);
    }
  } else {
    PetscInt nfull = ns / TD_SZ, rem = ns % TD_SZ;

    for (PetscInt G0 = 0; G0 < nfull; G0 += PPE_TD_G) {
      ppe_td_lanes R = {0, (int)PetscMin(PPE_TD_G, nfull - G0), 0, TD_SZ};

      BlockArgs(t, d, packed, G0 * TD_SZ, &x);
      PPETridiagKernel_Host(k, fly, t->mode, t->avx2, R, t->m, &x);
    }
    if (rem) {
      ppe_td_lanes R = {0, 1, 0, (int)rem};

      BlockArgs(t, d, packed, nfull * TD_SZ, &x);
      PPETridiagKernel_Host(k, fly, t->mode, t->avx2, R, t->m, &x);
    }
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
    ppe_td_lanes L = {0, 1, 0, (int)nown};

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
static PetscErrorCode Exchange(PPETridiag t)
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
  if (t->used == PPE_TRIDIAG_THOMAS) {
    PetscCall(PetscLogEventBegin(PPE_TridiagLocal, t, 0, 0, 0));
    RunKernel(t, t->periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, d, packed);
    PetscCall(PetscLogEventEnd(PPE_TridiagLocal, t, 0, 0, 0));
  } else {
    PetscCall(PetscLogEventBegin(PPE_TridiagLocal, t, 0, 0, 0));
    RunKernel(t, PPE_TD_K_REDUCE, d, packed);
    PetscCall(PetscLogEventEnd(PPE_TridiagLocal, t, 0, 0, 0));
    PetscCall(Exchange(t));
    PetscCall(PetscLogEventBegin(PPE_TridiagRecon, t, 0, 0, 0));
    RunKernel(t, PPE_TD_K_RECON, d, packed);
    PetscCall(PetscLogEventEnd(PPE_TridiagRecon, t, 0, 0, 0));
  }
  t->nsolves++;
  PetscCall(PetscLogFlops((t->used == PPE_TRIDIAG_THOMAS ? (t->periodic ? 8.0 : 5.0) : 10.0) * t->nsys * t->m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

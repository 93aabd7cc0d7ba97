/*
   PPETridiag solve on the host: the kernels over blocks of lines, the public solves, and
   packing. The exchange between reduction and reconstruction is in tdexchange.c (shared with
   the device solve, tddevice.c), the communication counters in tdcounts.c.

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
  PetscCall(PetscLogFlops(PPETdSolveFlops(t)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A public solve: set up if needed, then the solve of d in its layout under the solve event. */
static PetscErrorCode SolveLogged(PPETridiag td, PetscScalar d[], PetscBool packed)
{
  PetscFunctionBegin;
  PetscCall(PPETridiagSetUp(td));
  PetscCall(PetscLogEventBegin(PPE_TridiagSolve, td, 0, 0, 0));
  PetscCall(PPETridiagSolve_Private(td, d, packed));
  PetscCall(PetscLogEventEnd(PPE_TridiagSolve, td, 0, 0, 0));
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
  PetscCall(SolveLogged(td, d, PETSC_FALSE));
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
  PetscCall(SolveLogged(td, dp, PETSC_TRUE));
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

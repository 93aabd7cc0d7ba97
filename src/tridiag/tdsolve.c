/*
   PPETridiag solve: one orchestration for every back end, which calls the back end's table on
   the batch's arrays in its memory (tdarrays.c); the public solves, and packing. The exchange
   between reduction and reconstruction is in tdexchange.c, the communication counters in
   tdcounts.c.

     thomas:  one pass of the Thomas (or periodic Thomas) kernel over every line.
     ptdma:   reduce (boundary right-hand sides r0, r1 of every line) ->
              all-to-all of 2 values per line to the rank that owns its reduced system ->
              reduced solves (2P unknowns per line) -> all-to-all of the 2 solved values
              back -> reconstruct.
     distd2:  reduce -> r0 to the previous rank, r1 to the next -> 2x2 solves -> reconstruct.
   Lines of both kinds (auto) share the passes; the neighbour messages overlap the all-to-alls.
   The exchange runs on the host (MPI on host memory): a device's boundary values, 2 per line,
   are copied to the host and back (on the host they are the same arrays: nothing moves).
*/
#include <ppekit/private/tridiagimpl.h>

#define TD_SZ PPE_TRIDIAG_SZ

#define TDCALL(t, expr) PPEBackendCall((t)->bops, expr)

/* Kernel k over every line of the data d (in the back end's memory): the full groups of SZ
   lines in calls of t->arr.scrgroups groups (the host: blocks that stay in cache; a device:
   one launch), then the lines of the last group. */
static PetscErrorCode RunKernel(PPETridiag t, PPETdKernel k, PetscScalar *d, PetscBool packed)
{
  const int fly = t->precompute ? 0 : 1;
  int       nfull, rem = (int)(t->nsys % TD_SZ), G = (int)t->arr.scrgroups;
  PPETdArgs x;

  PetscFunctionBegin;
  PetscCall(PetscCIntCast(t->nsys / TD_SZ, &nfull)); /* the launchers count groups in C ints */
  for (int G0 = 0; G0 < nfull; G0 += G) {
    ppe_td_lanes R = {0, PetscMin(G, nfull - G0), 0, TD_SZ};

    PPETridiagBlockArgs(t, d, packed, (PetscInt)G0 * TD_SZ, &x);
    TDCALL(t, t->bops->tridiag((int)k, fly, R, t->m, &x, t->bstream));
  }
  if (rem) {
    ppe_td_lanes R = {0, 1, 0, rem};

    PPETridiagBlockArgs(t, d, packed, (PetscInt)nfull * TD_SZ, &x);
    TDCALL(t, t->bops->tridiag((int)k, fly, R, t->m, &x, t->bstream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The boundary values of every line between the back end's arrays and the host's (a device's
   copy; nothing on the host, where they are the same arrays). */
static PetscErrorCode BoundaryValues(PPETridiag t, ppe_dev_copy_kind kind)
{
  size_t bytes = (size_t)t->ng * TD_SZ * sizeof(PetscReal);

  PetscFunctionBegin;
  if (kind == PPE_DEV_D2H) {
    TDCALL(t, t->bops->copy(t->rb0, t->arr.rb0, bytes, kind, t->bstream));
    TDCALL(t, t->bops->copy(t->rb1, t->arr.rb1, bytes, kind, t->bstream));
  } else {
    TDCALL(t, t->bops->copy(t->arr.rb0, t->rb0, bytes, kind, t->bstream));
    TDCALL(t, t->bops->copy(t->arr.rb1, t->rb1, bytes, kind, t->bstream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solve of the data d in the back end's memory; returns when the solution is there. */
static PetscErrorCode SolveOn(PPETridiag t, PetscScalar *d, PetscBool packed)
{
  PetscFunctionBegin;
  PetscCheck(d || t->nsys == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null data array given to a tridiagonal solve");
  PetscCall(PetscLogEventBegin(PPE_TridiagLocal, t, 0, 0, 0));
  if (t->used == PPE_TRIDIAG_THOMAS) PetscCall(RunKernel(t, t->periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, d, packed));
  else {
    PetscCall(RunKernel(t, PPE_TD_K_REDUCE, d, packed));
    PetscCall(BoundaryValues(t, PPE_DEV_D2H));
  }
  TDCALL(t, t->bops->sync(t->bstream));
  PetscCall(PetscLogEventEnd(PPE_TridiagLocal, t, 0, 0, 0));
  if (t->used != PPE_TRIDIAG_THOMAS) {
    PetscCall(PPETridiagExchange(t));
    PetscCall(PetscLogEventBegin(PPE_TridiagRecon, t, 0, 0, 0));
    PetscCall(BoundaryValues(t, PPE_DEV_H2D));
    PetscCall(RunKernel(t, PPE_TD_K_RECON, d, packed));
    TDCALL(t, t->bops->sync(t->bstream));
    PetscCall(PetscLogEventEnd(PPE_TridiagRecon, t, 0, 0, 0));
  }
  t->nsolves++;
  PetscCall(PetscLogFlops(PPETdSolveFlops(t)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solve of host data d: its array in the memory of the back end (in place on the host,
   else through a staging buffer copied in and out), through the vector of its span. */
PetscErrorCode PPETridiagSolve_Private(PPETridiag t, PetscScalar d[], PetscBool packed)
{
  Vec       v = t->data[packed ? 1 : 0];
  PPEArrays A;

  PetscFunctionBegin;
  PetscCheck(d || t->nsys == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null data array given to a tridiagonal solve");
  PetscCall(VecPlaceArray(v, d));
  PetscCall(PPEArraysGet(t->backend, 1, &v, NULL, PPE_ACCESS_READWRITE, &A));
  PetscCall(SolveOn(t, A.a[0], packed));
  PetscCall(PPEArraysRestore(&A));
  PetscCall(VecResetArray(v));
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

/*
   PPETridiagSolveResident - solves every line in place, data in the natural layout held in
   the memory of the batch's back end (host memory on the host; the device pipeline of PC
   fftptdma); the work queued on other streams on that data must have finished. Returns when
   the solution is there. Collective.
*/
PetscErrorCode PPETridiagSolveResident(PPETridiag t, PetscScalar dd[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(t, PPETRIDIAG_CLASSID, 1);
  PetscCall(PPETridiagSetUp(t));
  PetscCall(PetscLogEventBegin(PPE_TridiagSolve, t, 0, 0, 0));
  PetscCall(SolveOn(t, dd, PETSC_FALSE));
  PetscCall(PetscLogEventEnd(PPE_TridiagSolve, t, 0, 0, 0));
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
PPE_OBJ_GETTER(PPETridiagGetPackedSize, PPETridiag, td, PPETRIDIAG_CLASSID, PetscInt, len, PPETridiagCheckSizes(td), td->ng * td->m * PPE_TRIDIAG_SZ)

/* From src to dst between the natural and the packed layout (pack: natural -> packed, the
   lanes past nsys zeroed; else packed -> natural, the lanes past nsys left alone). */
static PetscErrorCode PackOrUnpack(PPETridiag td, const PetscScalar src[], PetscScalar dst[], PetscBool pack)
{
  const PetscInt SZ = PPE_TRIDIAG_SZ, m = td->m;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCall(PetscLogEventBegin(PPE_TridiagPack, td, 0, 0, 0));
  for (PetscInt g = 0; g < td->ng; g++) {
    PetscInt nl = PetscMin(SZ, td->nsys - g * SZ);

    for (PetscInt k = 0; k < m; k++) {
      size_t             po = ((size_t)g * m + k) * SZ, no = (size_t)g * SZ * td->ls + (size_t)k * td->ks;
      const PetscScalar *i = src + (pack ? no : po);
      PetscScalar       *o = dst + (pack ? po : no);

      if (td->ls == 1 && nl == SZ) PetscCall(PetscArraycpy(o, i, SZ));
      else if (pack)
        for (PetscInt l = 0; l < SZ; l++) o[l] = l < nl ? i[(size_t)l * td->ls] : 0.0;
      else
        for (PetscInt l = 0; l < nl; l++) o[(size_t)l * td->ls] = i[l];
    }
  }
  PetscCall(PetscLogEventEnd(PPE_TridiagPack, td, 0, 0, 0));
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
  PetscFunctionBegin;
  PetscCall(PackOrUnpack(td, d, dp, PETSC_TRUE));
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
  PetscFunctionBegin;
  PetscCall(PackOrUnpack(td, dp, d, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

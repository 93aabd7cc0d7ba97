/*
   KSP bcgsfused: the public setters and getters, each under its manual page; each dispatches to
   the method composed by KSPCreate_BCGSFused() in bcgsfused.c. See the manual page
   KSPBCGSFUSED there.
*/
#include <petsc/private/kspimpl.h>
#include <ppekit/private/ppeimpl.h>

/*@
   KSPBCGSFusedSetFuse - fuse the operator apply with the dot products that follow it (when the
   operator is a MATPPESTENCIL), or apply with MatMult and take the dots in a second pass (for
   comparison: the iterates are the same up to the order of the local sums)

   Logically Collective

   Input Parameters:
+  ksp - the KSPBCGSFUSED solver
-  flg - PETSC_TRUE to fuse (the default, BCGSFUSED_DEFAULT_FUSE in bcgsfused.c)

   Options Database Key:
.  -ksp_bcgsfused_fuse <bool> - fuse

   Level: advanced

.seealso: KSPBCGSFUSED, KSPBCGSFusedGetFuse(), PPEStencilMultDot()
@*/
PPE_API_SETTER(KSPBCGSFusedSetFuse, KSP, ksp, PetscBool, flg, Bool)

/*@
   KSPBCGSFusedGetFuse - whether the operator apply and its dot products are fused

   Not Collective

   Level: advanced

.seealso: KSPBCGSFUSED, KSPBCGSFusedSetFuse()
@*/
PPE_API_GETTER(KSPBCGSFusedGetFuse, KSP, ksp, PetscBool, flg)

/*@
   KSPBCGSFusedGetReductionCount - the number of global reductions (synchronisation points) of
   the last solve: the initial norm and three per iteration (one more at a t = 0 breakdown);
   on one rank they cost nothing but are counted the same

   Not Collective

   Level: advanced

.seealso: KSPBCGSFUSED, PPECountersGet()
@*/
PPE_API_GETTER(KSPBCGSFusedGetReductionCount, KSP, ksp, PetscInt, n)

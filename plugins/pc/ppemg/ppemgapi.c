/*
   The public functions of PC ppemg (plugins/pc/ppemg/ppemg.c): each checks its arguments and
   calls the method the type composed, so that calling one on another PC type does nothing
   (setters) or is an error (getters).
*/
#include <ppekit/private/ppeimpl.h>
#include <ppekit/ppemg.h>
#include "../../pluginimpl.h"

/*@
   PCPPEMGSetLevels - sets the number of multigrid levels, the fine one included

   Logically Collective

   Input Parameters:
+  pc - the PCPPEMG preconditioner
-  n  - the number of levels, or PETSC_DECIDE (coarsen until the grid has at most
        -pc_ppemg_coarse_max points, 4096 by default, or can be coarsened no further)

   Options Database Key:
.  -pc_ppemg_levels <n> - the number of levels

   Notes:
   A level halves its strongly coupled directions (every rank's block in pairs of cells, one
   cell alone where the block is odd); coarsening stops where a rank would own a single point
   along a halved direction or the direction would have fewer than 3 points. Asking for more
   levels than that is an error at set-up that says where coarsening stops.

   Level: intermediate

.seealso: PCPPEMG, PCPPEMGGetLevels()
@*/
PPE_API_SETTER(PCPPEMGSetLevels, PC, pc, PetscInt, n, Int)

/*@
   PCPPEMGGetLevels - the number of levels of a PCPPEMG preconditioner

   Not Collective

   Input Parameter:
.  pc - the PCPPEMG preconditioner

   Output Parameter:
.  n - after the set-up, the levels it has (the fine one included); before it, what was asked
       for (PETSC_DECIDE unless PCPPEMGSetLevels() or -pc_ppemg_levels gave a number)

   Level: intermediate

.seealso: PCPPEMG, PCPPEMGSetLevels(), PCView()
@*/
PPE_API_GETTER(PCPPEMGGetLevels, PC, pc, PetscInt, n)

/*@
   PCPPEMGSetSmoother - sets the smoother of every level but the coarsest

   Logically Collective; a change makes a new hierarchy at the next set-up

   Input Parameters:
+  pc - the PCPPEMG preconditioner
-  s  - PC_PPEMG_SMOOTHER_AUTO (the default: zline where some z spacing is finer than the x and y
        spacings by more than 1.5, else chebyci), PC_PPEMG_SMOOTHER_CHEBYCI, PC_PPEMG_SMOOTHER_JACOBI,
        PC_PPEMG_SMOOTHER_TILEILU or PC_PPEMG_SMOOTHER_ZLINE

   Options Database Key:
.  -pc_ppemg_smoother <chebyci,jacobi,tileilu,zline,auto> - the smoother

   Notes:
   zline is Chebyshev in T^-1 A, T the z couplings and the diagonal (every z line solved exactly,
   across ranks where z is split), with x and y coarsened and z kept on every level: robust on
   grids stretched towards walls, where point smoothers lose their grip.

   Level: intermediate

.seealso: PCPPEMG, PCPPEMGSetDegree(), PCCHEBYCI, PCTILEILU
@*/
PPE_API_SETTER(PCPPEMGSetSmoother, PC, pc, PCPPEMGSmoother, s, Enum)

/*@
   PCPPEMGGetSmoother - the smoother of a PCPPEMG preconditioner

   Not Collective

   Input Parameter:
.  pc - the PCPPEMG preconditioner

   Output Parameter:
.  s - after the set-up, the smoother in use (auto resolved to zline or chebyci); before it,
       the one asked for

   Level: intermediate

.seealso: PCPPEMG, PCPPEMGSetSmoother()
@*/
PPE_API_GETTER(PCPPEMGGetSmoother, PC, pc, PCPPEMGSmoother, s)

/*@
   PCPPEMGSetDegree - sets the degree of the Chebyshev smoother (operator applications per
   smoothing, after the residual), or the number of Jacobi or tileilu steps

   Logically Collective

   Input Parameters:
+  pc - the PCPPEMG preconditioner
-  k  - 1 to 64, or PETSC_DECIDE (the default: 3, with the zline smoother 4)

   Options Database Key:
.  -pc_ppemg_degree <k> - the degree

   Level: intermediate

.seealso: PCPPEMG, PCPPEMGSetSmoother()
@*/
PPE_API_SETTER(PCPPEMGSetDegree, PC, pc, PetscInt, k, Int)

/*@
   PCPPEMGGetDegree - the smoother degree (or steps) of a PCPPEMG preconditioner

   Not Collective

   Input Parameter:
.  pc - the PCPPEMG preconditioner

   Output Parameter:
.  k - after the set-up, the degree in use (the smoother's default resolved); before it, the one
       asked for (PETSC_DECIDE unless set)

   Level: intermediate

.seealso: PCPPEMG, PCPPEMGSetDegree()
@*/
PPE_API_GETTER(PCPPEMGGetDegree, PC, pc, PetscInt, k)

/*@
   PCPPEMGGetMG - the inner PCMG of a PCPPEMG preconditioner (its levels' smoothers, operators
   and transfers: PCMGGetSmoother(), PCMGGetCoarseSolve(), ...)

   Not Collective

   Input Parameter:
.  pc - the PCPPEMG preconditioner

   Output Parameter:
.  mg - the inner PCMG after the set-up (owned by pc: do not destroy), NULL before it

   Level: advanced

.seealso: PCPPEMG, PCMG, PCPPEMGGetLevels()
@*/
PPE_API_GETTER(PCPPEMGGetMG, PC, pc, PC, mg)

/*@
   PCPPEMGGetSetUpTimes - the seconds of the last set-up of a PCPPEMG preconditioner: making
   the hierarchy (grids, operators, transfers; the first set-up only) and the part that depends
   on the coefficients (coarse faces, the coarsest level assembled and factorised, the
   smoothers), which is all a new density costs

   Not Collective

   Output Parameters:
+  levels - the hierarchy's time (may be NULL)
-  coef   - the coefficient-dependent time (may be NULL)

   Level: intermediate

.seealso: PCPPEMG, PPEStencilSetDensity()
@*/
PPE_API_GETTER2(PCPPEMGGetSetUpTimes, PC, pc, PetscLogDouble, levels, coef)

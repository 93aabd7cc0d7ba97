/*
   PC chebyci: the public setters and getters (each dispatches to the method composed by
   PCCreate_ChebyCI() in chebyci.c). See the manual page PCCHEBYCI there.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025.
*/
#include "../../pluginimpl.h"

/*@
   PCChebyCISetMode - sets which operator the Chebyshev iteration applies

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
-  mode - PC_CHEBYCI_GLOBAL (full operator, halo exchange), PC_CHEBYCI_BLOCK (rank-local block,
          its own bounds) or PC_CHEBYCI_NOCOMM (rank-local block, global bounds)

   Options Database Key:
.  -pc_chebyci_mode <global,block,nocomm> - the mode

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCIGetMode()
@*/
PPE_API_SETTER(PCChebyCISetMode, PC, pc, PCChebyCIMode, mode, Enum)

/*@
   PCChebyCIGetMode - the mode of a PCCHEBYCI preconditioner

   Not Collective

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCISetMode()
@*/
PPE_API_GETTER(PCChebyCIGetMode, PC, pc, PCChebyCIMode, mode)

/*@
   PCChebyCISetIterations - sets the number of Chebyshev iterations (operator applications)
   per application of the preconditioner

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
-  its - the number of iterations, at least 1 (default 24, as in Pennati et al. (2025))

   Options Database Key:
.  -pc_chebyci_its <its> - the number of iterations

   Notes:
   In mode nocomm the halo values are taken as zero; their error reaches the centre of an
   n^3 subdomain after about n/2 iterations, which Pennati et al. (2025) take as the useful
   maximum.

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCIGetIterations()
@*/
PPE_API_SETTER(PCChebyCISetIterations, PC, pc, PetscInt, its, Int)

/*@
   PCChebyCIGetIterations - the number of Chebyshev iterations per application

   Not Collective

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCISetIterations()
@*/
PPE_API_GETTER(PCChebyCIGetIterations, PC, pc, PetscInt, its)

/*@
   PCChebyCISetEigSource - sets where the eigenvalue bounds come from

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
-  src - PC_CHEBYCI_EIG_GRID (exact, from the operator's PPEGrid), PC_CHEBYCI_EIG_GERSHGORIN,
         PC_CHEBYCI_EIG_USER (PCChebyCISetEigenvalues()) or PC_CHEBYCI_EIG_ESTIMATE (Lanczos)

   Options Database Key:
.  -pc_chebyci_eig_source <grid,gershgorin,user,estimate> - the source

   Notes:
   Without this call the source is grid when the operator has a PPEGrid, estimate otherwise.
   The sources grid and gershgorin fail with an error when the operator has no grid.

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCIGetEigSource(), PCChebyCISetEigenvalues()
@*/
PPE_API_SETTER(PCChebyCISetEigSource, PC, pc, PCChebyCIEigSource, src, Enum)

/*@
   PCChebyCIGetEigSource - the eigenvalue source: the one used after set-up, the one asked before

   Not Collective

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCISetEigSource()
@*/
PPE_API_GETTER(PCChebyCIGetEigSource, PC, pc, PCChebyCIEigSource, src)

/*@
   PCChebyCISetEigenvalues - gives bounds on the spectrum of the iterated operator (W^-1 A when
   weighted, A otherwise) and sets the eigenvalue source to user

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
.  lmin - lower bound, > 0
-  lmax - upper bound, > lmin

   Options Database Key:
.  -pc_chebyci_eigenvalues <lmin,lmax> - the bounds

   Notes:
   The scale factors (PCChebyCISetEigScale()) still apply. Not for mode block, whose
   subdomains each use their own bounds.

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCISetEigScale(), PCChebyCISetEigSource()
@*/
PPE_API_SETTER2(PCChebyCISetEigenvalues, PC, pc, PetscReal, lmin, lmax, Real)

/*@
   PCChebyCISetEigScale - sets the factors applied to the eigenvalue bounds: the polynomial
   is built for [min_factor lmin, max_factor lmax]

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
.  fmin - factor on lmin, > 0
-  fmax - factor on lmax, > 0

   Options Database Key:
.  -pc_chebyci_eig_scale <min_factor,max_factor> - the factors

   Notes:
   Default: 100 and 1 - 1e-4 in modes global and nocomm (the values of Pennati et al. (2025)
   for G(CI) and GNoComm(CI)), 1 and 1 in mode block; the default 100 is lowered to max(1, lmax/(10 lmin))
   when the spectrum is narrower than a ratio of 1000, so that the interval never empties. An interval slightly inside the spectrum damps the
   bulk of it faster and leaves the few extreme modes to the outer Krylov method.

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCIGetEigScale()
@*/
PPE_API_SETTER2(PCChebyCISetEigScale, PC, pc, PetscReal, fmin, fmax, Real)

/*@
   PCChebyCIGetEigScale - the factors applied to the eigenvalue bounds (the mode's default
   unless set)

   Not Collective

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCISetEigScale()
@*/
PPE_API_GETTER2(PCChebyCIGetEigScale, PC, pc, PetscReal, fmin, fmax)

/*@
   PCChebyCISetWeighted - iterate on W^-1 A (W the grid's diagonal of volume weights: the
   operator of Pennati et al. (2025), whose spectrum the grid knows exactly) or on A itself

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
-  flg - PETSC_TRUE for W^-1 A (default when the operator has a PPEGrid; needs one)

   Options Database Key:
.  -pc_chebyci_weighted <bool> - iterate on W^-1 A

   Notes:
   W = I on uniform grids except at vertex-centred Neumann faces and on stretched z; there
   the bounds of A itself are only safe bounds, not the extremes.

   Level: advanced

.seealso: PCCHEBYCI, PCChebyCIGetWeighted()
@*/
PPE_API_SETTER(PCChebyCISetWeighted, PC, pc, PetscBool, flg, Bool)

/*@
   PCChebyCIGetWeighted - whether the iteration runs on W^-1 A (the value used after set-up)

   Not Collective

   Level: advanced

.seealso: PCCHEBYCI, PCChebyCISetWeighted()
@*/
PPE_API_GETTER(PCChebyCIGetWeighted, PC, pc, PetscBool, flg)

/*@
   PCChebyCISetEstimateIterations - sets the number of CG (Lanczos) iterations of the
   eigenvalue estimate used with source estimate

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
-  its - at least 2 (default 40)

   Options Database Key:
.  -pc_chebyci_est_its <its> - the number of iterations

   Level: advanced

.seealso: PCCHEBYCI, PCChebyCISetEigSource()
@*/
PPE_API_SETTER(PCChebyCISetEstimateIterations, PC, pc, PetscInt, its, Int)

/*@
   PCChebyCIGetInterval - the eigenvalue bounds of this rank's iterated operator and the
   Chebyshev interval built from them (after set-up)

   Not Collective

   Output Parameters:
+  lmin, lmax - the bounds before scaling (in mode block, this subdomain's)
-  alpha, beta - the interval used, [min_factor lmin, max_factor lmax]

   Level: intermediate

.seealso: PCCHEBYCI, PCChebyCISetEigScale()
@*/
PetscErrorCode PCChebyCIGetInterval(PC pc, PetscReal *lmin, PetscReal *lmax, PetscReal *alpha, PetscReal *beta)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCChebyCIGetInterval_C", (PC, PetscReal *, PetscReal *, PetscReal *, PetscReal *), (pc, lmin, lmax, alpha, beta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCChebyCISetFuse - run each operator application and the Chebyshev update that follows it
   as one sweep over the grid (KernelCI2 of Pennati et al. (2025); MATPPESTENCIL operators), or as MatMult
   followed by a vector kernel (for comparison: the results are the same bits)

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
-  flg - PETSC_TRUE to fuse (default)

   Options Database Key:
.  -pc_chebyci_fuse <bool> - fuse

   Level: advanced

.seealso: PCCHEBYCI, KSPBCGSFusedSetFuse()
@*/
PPE_API_SETTER(PCChebyCISetFuse, PC, pc, PetscBool, flg, Bool)

/*@
   PCChebyCISetBlockSteps - in modes block and nocomm (no message between steps), run n Chebyshev
   steps per sweep over the rank-local block, temporally blocked: a wavefront over the z planes
   in which step j of a plane follows step j - 1 of the plane above while those planes are in
   cache, so that the steps inside a sweep never go to memory (the host back end; the results
   are the same bits as one step per sweep)

   Logically Collective

   Input Parameters:
+  pc - the PCCHEBYCI preconditioner
-  n - steps per sweep, 0 or 1 for one step per sweep, or PETSC_DECIDE (default): by the
       size of the local z plane and the operator's kind, 2 to 12

   Options Database Key:
.  -pc_chebyci_block_steps <n> - steps per sweep

   Level: advanced

   Notes:
   Blocking needs the fused step (PCChebyCISetFuse(), a MATPPESTENCIL operator on the host back
   end) and a z direction that is not periodic and whole on the rank; otherwise each step is
   its own sweep, and -ksp_view says why.

.seealso: PCCHEBYCI, PCChebyCIGetBlockSteps(), PCChebyCISetFuse(), PCChebyCISetMode()
@*/
PPE_API_SETTER(PCChebyCISetBlockSteps, PC, pc, PetscInt, n, Int)

/*@
   PCChebyCIGetBlockSteps - the steps per temporally blocked sweep: after set-up the number
   used (0 when each step is its own sweep), before it the number asked (PETSC_DECIDE: the
   default)

   Not Collective

   Level: advanced

.seealso: PCCHEBYCI, PCChebyCISetBlockSteps()
@*/
PPE_API_GETTER(PCChebyCIGetBlockSteps, PC, pc, PetscInt, n)

/*@
   PCChebyCIGetApplications - the number of applications since the last set-up (each costs
   PCChebyCIGetIterations() operator applications)

   Not Collective

   Level: advanced

.seealso: PCCHEBYCI, PCChebyCIGetIterations()
@*/
PPE_API_GETTER(PCChebyCIGetApplications, PC, pc, PetscInt, n)

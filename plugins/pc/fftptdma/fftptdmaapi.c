/*
   Public setters and getters of PC fftptdma (plugins/pc/fftptdma/fftptdma.c).
*/
#include <petsc/private/pcimpl.h>
#include "../../pluginimpl.h"

/*@
   PCFFTPTDMASetZSolve - sets how PCFFTPTDMA solves the tridiagonal systems along z

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  zs - PC_FFTPTDMA_ZSOLVE_PTDMA, PC_FFTPTDMA_ZSOLVE_TRANSPOSE, PC_FFTPTDMA_ZSOLVE_DISTD2 or PC_FFTPTDMA_ZSOLVE_AUTO

   Options Database Key:
.  -pc_fftptdma_zsolve <ptdma|transpose|distd2|auto> - the method (default auto: PCFFTPTDMA_DEFAULT_ZSOLVE)

   Notes:
   ptdma and distd2 solve in place on the y-pencils across the pz ranks of each z group
   (distd2 is refused at set-up for lines where it is not exact); transpose moves the
   y-pencils to z-pencils inside each z group and runs Thomas locally (the full-transpose
   method, for comparison); auto uses Thomas when pz = 1 and otherwise DistD2 where exact
   and P-TDMA for the other lines. With pz = 1 every method is a local Thomas.

   Level: intermediate

.seealso: PCFFTPTDMA, PCFFTPTDMAZSolve, PCFFTPTDMASetPencilGrid()
@*/
PPE_API_SETTER(PCFFTPTDMASetZSolve, PC, pc, PCFFTPTDMAZSolve, zs, Enum)

/*@
   PCFFTPTDMAGetZSolve - the z method of PCFFTPTDMA

   Not Collective

   Level: intermediate

.seealso: PCFFTPTDMA, PCFFTPTDMASetZSolve()
@*/
PPE_API_GETTER(PCFFTPTDMAGetZSolve, PC, pc, PCFFTPTDMAZSolve, zs)

/*@
   PCFFTPTDMASetPencilGrid - sets the pencil grid py x pz of PCFFTPTDMA

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
.  py - ranks of each x-y group (x-pencils split y, y-pencils split x over them)
-  pz - ranks of each z group (pencils split z over them); py*pz must be the number of ranks;
        PETSC_DECIDE for both: automatic

   Options Database Key:
.  -pc_fftptdma_pgrid <py,pz> - the pencil grid

   Notes:
   The automatic choice keeps the DMDA's pz when every z block has at least 2 points (and
   py = ranks/pz fits nx and ny), else the nearest divisor of the number of ranks that does.
   When the DMDA has px = 1 and the same py, pz, the x-pencils are the DMDA's own boxes.
   Each rank of a z group needs at least 2 z points. -ksp_view shows the grid used.

   Level: intermediate

.seealso: PCFFTPTDMA, PCFFTPTDMAGetPencilGrid()
@*/
PPE_API_SETTER2(PCFFTPTDMASetPencilGrid, PC, pc, PetscInt, py, pz, Int)

/*@
   PCFFTPTDMAGetPencilGrid - the pencil grid of PCFFTPTDMA: the one used after set-up, else
   the one asked for (PETSC_DECIDE: automatic)

   Not Collective

   Level: intermediate

.seealso: PCFFTPTDMA, PCFFTPTDMASetPencilGrid()
@*/
PPE_API_GETTER2(PCFFTPTDMAGetPencilGrid, PC, pc, PetscInt, py, pz)

/*@
   PCFFTPTDMASetApproximate - for assembled operators, use the nearest separable operator
   when the matrix is not separable (a preconditioner for CG/GMRES), instead of failing

   The PC then applies M^-1 = c^-1 S^-1 (c^-1 S^+ when singular), S the nearest separable
   operator made symmetric and c the mean of diag(A)/diag(S): symmetric positive
   (semi)definite (docs/types/fftptdma-inference.md)

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  flg - PETSC_TRUE to approximate

   Options Database Key:
.  -pc_fftptdma_approximate <bool> - approximate (default false: PCFFTPTDMA_DEFAULT_APPROXIMATE)

   Level: intermediate

.seealso: PCFFTPTDMA
@*/
PPE_API_SETTER(PCFFTPTDMASetApproximate, PC, pc, PetscBool, flg, Bool)

/*@
   PCFFTPTDMAGetApproximate - whether PCFFTPTDMA approximates non-separable matrices

   Not Collective

   Level: intermediate

.seealso: PCFFTPTDMA, PCFFTPTDMASetApproximate()
@*/
PPE_API_GETTER(PCFFTPTDMAGetApproximate, PC, pc, PetscBool, flg)

/*@
   PCFFTPTDMASetPlanner - sets the FFTW planner effort of PCFFTPTDMA's set-up

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  p - PC_FFTPTDMA_PLANNER_ESTIMATE, PC_FFTPTDMA_PLANNER_MEASURE, PC_FFTPTDMA_PLANNER_PATIENT or
       PC_FFTPTDMA_PLANNER_AUTO (the default, PCFFTPTDMA_DEFAULT_PLANNER)

   Options Database Key:
.  -pc_fftptdma_planner <estimate|measure|patient|auto> - the effort

   Notes:
   Each transform is planned for one x-y plane and run on every plane, so planning costs a
   plane's worth of FFTW's trials, not the pencil's. auto measures the plans the solves run
   under FFTW's time limit (about two solves' worth in all) and estimates the fallback plans,
   which keeps the set-up within a few solves. With a wisdom file
   (PCFFTPTDMASetWisdomFile()) a second run reuses the first run's measurements.

   Level: advanced

.seealso: PCFFTPTDMA
@*/
PPE_API_SETTER(PCFFTPTDMASetPlanner, PC, pc, PCFFTPTDMAPlanner, p, Enum)

/*@
   PCFFTPTDMAGetPlanner - the FFTW planner effort of PCFFTPTDMA

   Not Collective

   Level: advanced

.seealso: PCFFTPTDMA, PCFFTPTDMASetPlanner()
@*/
PPE_API_GETTER(PCFFTPTDMAGetPlanner, PC, pc, PCFFTPTDMAPlanner, p)

/*@
   PCFFTPTDMASetWisdomFile - sets a file of FFTW wisdom for PCFFTPTDMA's planning

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  file - the file, or NULL for none (default)

   Options Database Key:
.  -pc_fftptdma_wisdom <file> - the file

   Notes:
   At set-up rank 0 reads the file when it exists and every rank imports it; after planning
   the wisdom of all ranks is merged and written back to the file by rank 0. A second run of
   the same sizes then plans in milliseconds, whatever the planner effort. A file that is not
   FFTW wisdom is an error. -ksp_view says whether the file was imported.

   Level: advanced

.seealso: PCFFTPTDMA, PCFFTPTDMASetPlanner()
@*/
PetscErrorCode PCFFTPTDMASetWisdomFile(PC pc, const char file[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscTryMethod(pc, "PCFFTPTDMASetWisdomFile_C", (PC, const char[]), (pc, file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCFFTPTDMAGetWisdomFile - the FFTW wisdom file of PCFFTPTDMA (NULL when none)

   Not Collective

   Level: advanced

.seealso: PCFFTPTDMA, PCFFTPTDMASetWisdomFile()
@*/
PetscErrorCode PCFFTPTDMAGetWisdomFile(PC pc, const char *file[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCFFTPTDMAGetWisdomFile_C", (PC, const char *[]), (pc, file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCFFTPTDMASetDCT - how PCFFTPTDMA computes the DCT/DST kinds of Neumann and Dirichlet directions

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  d - PC_FFTPTDMA_DCT_AUTO (the default, PCFFTPTDMA_DEFAULT_DCT), PC_FFTPTDMA_DCT_FFTW or PC_FFTPTDMA_DCT_FAST

   Options Database Key:
.  -pc_fftptdma_dct <auto|fftw|fast> - the choice

   Notes:
   The fast kinds compute FFTW's DCT-II/III and DST-II/III (REDFT10/01, RODFT10/01) by the
   even/odd reordering, one real-to-complex FFT and a twiddle pass of J. Makhoul, "A fast cosine
   transform in one and two dimensions" (1980), with the reordering and twiddles fused into
   vectorised copies; FFTW's r2r kinds have no SIMD codelets. auto times one forward pass of
   each, twice, alternating, on the pencils at set-up and keeps the faster; -ksp_view shows
   the times and the choice. Other kinds (DCT-I, DST-I, the IV kinds) always use FFTW. With
   2D plans (py = 1) both directions must have a fast kind.

   Level: advanced

.seealso: PCFFTPTDMA, PCFFTPTDMASetR2C()
@*/
PPE_API_SETTER(PCFFTPTDMASetDCT, PC, pc, PCFFTPTDMADCT, d, Enum)

/*@
   PCFFTPTDMAGetDCT - how PCFFTPTDMA computes the DCT/DST kinds

   Not Collective

   Level: advanced

.seealso: PCFFTPTDMA, PCFFTPTDMASetDCT()
@*/
PPE_API_GETTER(PCFFTPTDMAGetDCT, PC, pc, PCFFTPTDMADCT, d)

/*@
   PCFFTPTDMASetR2C - whether PCFFTPTDMA transforms periodic directions with FFTW's r2c/c2r

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  flg - PETSC_TRUE (the default, PCFFTPTDMA_DEFAULT_R2C): r2c/c2r, complex half spectra;
         PETSC_FALSE: the halfcomplex real-to-real kinds R2HC/HC2R

   Options Database Key:
.  -pc_fftptdma_r2c <bool> - the choice

   Notes:
   FFTW's r2c/c2r have SIMD codelets and its r2r kinds do not: on periodic directions r2c is
   about twice as fast. The real and imaginary parts of a complex mode share the mode's real
   tridiagonal system along z. A periodic x is transformed in place on lines padded to
   2 (nx/2 + 1) values; y then takes a complex DFT (periodic) or its r2r kind on the real and
   imaginary parts. A periodic y with a non-periodic x takes an r2c from the y-pencil to a
   spectral pencil. The device backends keep R2HC/HC2R. Both choices give the same result to
   rounding (test t621).

   Level: advanced

.seealso: PCFFTPTDMA
@*/
PPE_API_SETTER(PCFFTPTDMASetR2C, PC, pc, PetscBool, flg, Bool)

/*@
   PCFFTPTDMAGetR2C - whether PCFFTPTDMA transforms periodic directions with r2c/c2r

   Not Collective

   Level: advanced

.seealso: PCFFTPTDMA, PCFFTPTDMASetR2C()
@*/
PPE_API_GETTER(PCFFTPTDMAGetR2C, PC, pc, PetscBool, flg)

/*@
   PCFFTPTDMAGetCommCounts - bytes this rank handed to MPI for other ranks in PCFFTPTDMA

   Not Collective

   Input Parameter:
.  pc - the set-up preconditioner

   Output Parameters:
+  solves - applications since set-up, or NULL
.  counted - cumulative bytes since set-up, or NULL: [0] DMDA <-> x-pencil redistribution,
             [1] x <-> y transposes, [2] z solve (P-TDMA/DistD2 reduced systems, or the
             y <-> z transposes of the transpose method)
-  model - bytes of one solve by the communication model, same order, or NULL

   Notes:
   PETSc's MPI counters (PPECountersGet()) see the same exchanges; PETSc counts the
   all-to-all send counts of P-TDMA in full (docs/tridiag.md).

   Level: advanced

.seealso: PCFFTPTDMA, PPETridiagGetCommModel()
@*/
PetscErrorCode PCFFTPTDMAGetCommCounts(PC pc, PetscInt *solves, PetscLogDouble counted[3], PetscLogDouble model[3])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCFFTPTDMAGetCommCounts_C", (PC, PetscInt *, PetscLogDouble[3], PetscLogDouble[3]), (pc, solves, counted, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char help[] = "PC fftptdma: bad input gets a PETSc error naming what was wrong and what is\n\
allowed, on every rank: DMDA with dof 2, stencil width 0, fewer than 2 z points per rank of\n\
the z group, a pencil grid that does not match the ranks, zsolve distd2 on a singular operator or where DistD2 is not exact, a BC pair periodic at one face only,\n\
non-uniform x spacing.\n";

#include <ppekit/private/fftptdmaimpl.h>
#include <ppekit/private/gridimpl.h>
#include "tap.h"

static PetscErrorCode Expect(MPI_Comm comm, const char what[], PetscErrorCode code, PetscErrorCode want, const char text[])
{
  const char *specific = NULL;
  PetscBool   ok;

  PetscFunctionBegin;
  if (code) PetscCall(PPEErrorMessage(code, &specific));
  ok = (PetscBool)(code == want && specific && strstr(specific, text) != NULL);
  if (!ok) PetscCall(PetscSynchronizedPrintf(comm, "# [%d] got error %d: %s\n", PetscGlobalRank, (int)code, specific ? specific : "(none)"));
  PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  PetscCall(TapCheck(comm, ok, "%s: error %d with \"%s\" (rank 0 got %d \"%.200s\")", what, (int)want, text, (int)code, specific ? specific : "(none)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Set up PC fftptdma on P (options of the pencil grid), return the error code. */
static PetscErrorCode TrySetUp(Mat P, PetscInt py, PetscInt pz, PetscErrorCode *code)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)P), &pc));
  PetscCall(PCSetType(pc, PCFFTPTDMA));
  PetscCall(PCSetOperators(pc, P, P));
  PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
  if (py > 0) PetscCall(PCFFTPTDMASetPencilGrid(pc, py, pz));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *code = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DMDAMatrix(MPI_Comm comm, PetscInt dof, PetscInt sw, DM *da, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 8, 8, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, sw, NULL, NULL, NULL, da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMSetMatType(*da, MATAIJ));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(MatShift(*A, 1.0)); /* assembled (the PC stops at the DM checks) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GridMatrix(MPI_Comm comm, PetscInt nz, const PetscInt procs[3], PPEGrid *g, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, g));
  PetscCall(PPEGridSetSizes(*g, 8, 6, nz));
  PetscCall(PPEGridSetBCString(*g, "PPNNDD"));
  if (procs) PetscCall(PPEGridSetProcesses(*g, procs[0], procs[1], procs[2]));
  PetscCall(PPEGridSetUp(*g));
  PetscCall(PPEStencilCreate(*g, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm       comm;
  PetscMPIInt    size;
  PetscErrorCode code;
  DM             da;
  Mat            A;
  PPEGrid        g;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));

  PetscCall(DMDAMatrix(comm, 2, 1, &da, &A));
  PetscCall(TrySetUp(A, 0, 0, &code));
  PetscCall(Expect(comm, "DMDA with 2 dofs", code, PETSC_ERR_ARG_WRONG, "dof = 2; only scalar fields (dof 1) are supported"));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));

  PetscCall(DMDAMatrix(comm, 1, 0, &da, &A));
  PetscCall(TrySetUp(A, 0, 0, &code));
  PetscCall(Expect(comm, "DMDA with stencil width 0", code, PETSC_ERR_ARG_WRONG, "stencil width 0; a 7-point operator needs stencil width >= 1"));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));

  /* pencil grid with pz = ranks on nz = 3: some rank of the z group has fewer than 2 points */
  if (size > 1) {
    PetscCall(GridMatrix(comm, 3, NULL, &g, &A));
    PetscCall(TrySetUp(A, 1, size, &code));
    PetscCall(Expect(comm, "3 z points over pz = ranks", code, PETSC_ERR_ARG_SIZ, "fewer than 2 z points per rank in the z group"));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEGridDestroy(&g));
  }
  {
    /* a singular operator (no Dirichlet face) with zsolve distd2 */
    PC  pc;
    Mat S;
    PetscCall(PPEGridCreate(comm, &g));
    PetscCall(PPEGridSetSizes(g, 8, 6, 8));
    PetscCall(PPEGridSetBCString(g, "PPNNNN"));
    PetscCall(PPEGridSetUp(g));
    PetscCall(PPEStencilCreate(g, &S));
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCSetOperators(pc, S, S));
    PetscCall(PCFFTPTDMASetZSolve(pc, PC_FFTPTDMA_ZSOLVE_DISTD2));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PCSetUp(pc);
    PetscCall(PetscPopErrorHandler());
    PetscCall(Expect(comm, "zsolve distd2 on a singular operator, named by the PC and its option", code, PETSC_ERR_ARG_INCOMP, "PC fftptdma: -pc_fftptdma_zsolve distd2 cannot solve the pinned zero mode of a singular operator"));
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&S));
    PetscCall(PPEGridDestroy(&g));
  }
  if (size > 1) {
    /* zsolve distd2 where it is not exact (4 z points per rank: the low modes' lines are not
       dominant enough): the tridiagonal library's error names the PC's option */
    PC             pc;
    const PetscInt procs[3] = {1, 1, size};
    PetscCall(GridMatrix(comm, 4 * size, procs, &g, &A));
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
    PetscCall(PCFFTPTDMASetPencilGrid(pc, 1, size));
    PetscCall(PCFFTPTDMASetZSolve(pc, PC_FFTPTDMA_ZSOLVE_DISTD2));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PCSetUp(pc);
    PetscCall(PetscPopErrorHandler());
    PetscCall(Expect(comm, "zsolve distd2 where DistD2 is not exact", code, PETSC_ERR_ARG_INCOMP, "use -pc_fftptdma_zsolve ptdma or auto"));
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEGridDestroy(&g));
  }
  PetscCall(GridMatrix(comm, 8, NULL, &g, &A));
  PetscCall(TrySetUp(A, size + 1, 1, &code));
  PetscCall(Expect(comm, "pencil grid (ranks+1) x 1", code, PETSC_ERR_ARG_INCOMP, "needs py*pz = number of ranks"));
  PetscCall(TrySetUp(A, 1, 1, &code));
  if (size == 1) PetscCall(TapCheck(comm, (PetscBool)(code == 0), "pencil grid 1 x 1 on one rank is accepted"));
  /* the grid itself never makes non-uniform x or y: mark x as stretched to reach the check */
  g->dir[0].uniform = PETSC_FALSE;
  {
    PPESeparable *sep = NULL;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PPESeparableCreateFromGrid(g, &sep);
    PetscCall(PetscPopErrorHandler());
    PetscCall(Expect(comm, "non-uniform x spacing", code, PETSC_ERR_SUP, "x spacing is not uniform; FFTs need uniform x and y spacing"));
    PetscCall(PPESeparableDestroy(&sep));
  }
  g->dir[0].uniform = PETSC_TRUE;
  {
    /* a description that is periodic at one x face only (an inferred operator could say so) */
    PPESeparable *sep;
    PPEFFTPTDMA   f;
    DM            gda;

    PetscCall(PPESeparableCreateFromGrid(g, &sep));
    PetscCall(PPEGridGetDM(g, &gda));
    sep->bc[1] = PPE_BC_NEUMANN;
    PetscCall(PetscMemzero(&f, sizeof(f)));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PPEFFTPTDMASetUp(&f, comm, gda, sep, NULL, PPE_FFT_ZSOLVE_AUTO, PPE_FFT_PLANNER_ESTIMATE, PETSC_TRUE, PPE_FFT_DCT_AUTO, NULL);
    PetscCall(PetscPopErrorHandler());
    PetscCall(Expect(comm, "x BC pair periodic-neumann, direct caller: the default name", code, PETSC_ERR_SUP, PPE_FFT_DEFAULT_NAME ": x BC pair periodic-neumann is not supported: periodic needs both faces"));
    PetscCall(PPEFFTPTDMAReset(&f));
    /* a name set by the caller begins the error and survives the reset */
    PetscCall(PPEFFTPTDMASetName(&f, "my pressure solver"));
    PetscCall(PPEFFTPTDMAReset(&f));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PPEFFTPTDMASetUp(&f, comm, gda, sep, NULL, PPE_FFT_ZSOLVE_AUTO, PPE_FFT_PLANNER_ESTIMATE, PETSC_TRUE, PPE_FFT_DCT_AUTO, NULL);
    PetscCall(PetscPopErrorHandler());
    PetscCall(Expect(comm, "x BC pair periodic-neumann, direct caller: the name it set", code, PETSC_ERR_SUP, "my pressure solver: x BC pair periodic-neumann"));
    PetscCall(PPEFFTPTDMAReset(&f));
    PetscCall(PPESeparableDestroy(&sep));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}

static const char help[] = "The pressure solve of a channel-flow time loop: a tanh-stretched wall-normal grid,\n\
the operator and solver set up once, then one solve per time step with a right-hand side\n\
that changes in time and the previous pressure as initial guess.\n\
Options: -steps N (default 10), -dt (default 0.05), the grid's and the solver's options.\n\n";

#include <ppekit.h>

/* A travelling pressure wave with zero normal derivative at the walls, and its -Lap. */
typedef struct {
  PetscReal L[3], t;
} Wave;

static PetscScalar Pressure(const PetscReal x[3], void *ctx)
{
  Wave     *w  = (Wave *)ctx;
  PetscReal kx = 2 * PETSC_PI / w->L[0], ky = 2 * PETSC_PI / w->L[1], kz = PETSC_PI / w->L[2];
  return PetscCosReal(kx * (x[0] - w->t)) * PetscCosReal(ky * x[1]) * PetscCosReal(kz * x[2]);
}

static PetscScalar Source(const PetscReal x[3], void *ctx)
{
  Wave     *w  = (Wave *)ctx;
  PetscReal kx = 2 * PETSC_PI / w->L[0], ky = 2 * PETSC_PI / w->L[1], kz = PETSC_PI / w->L[2];
  return (kx * kx + ky * ky + kz * kz) * Pressure(x, ctx);
}

int main(int argc, char **argv)
{
  PPEGrid grid;
  DM      da;
  Mat     A;
  KSP     ksp;
  Vec     p, b, pex;
  Wave    wave = {
       {0, 0, 0},
       0
  };
  PetscInt       steps = 10, its, total = 0;
  PetscReal      dt = 0.05, emax, worst = 0;
  PetscLogDouble t0, t1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-dt", &dt, NULL));

  /* set-up, once: grid, operator, solver */
  PetscCall(PPEGridCreate(PETSC_COMM_WORLD, &grid));
  PetscCall(PPEProblemSetGridDefaults(PPE_PROBLEM_CHANNEL, grid)); /* PPPPNN, tanh z, 2 pi x pi x 2 */
  PetscCall(PPEGridSetSizes(grid, 32, 32, 32));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PPEGridGetLengths(grid, &wave.L[0], &wave.L[1], &wave.L[2]));
  PetscCall(PPEStencilCreate(grid, &A)); /* carries the constant null space */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE)); /* start from the last step's pressure */
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(DMCreateGlobalVector(da, &p));
  PetscCall(VecDuplicate(p, &b));
  PetscCall(VecDuplicate(p, &pex));
  PetscCall(VecSet(p, 0.0));

  /* the time loop: only the right-hand side changes */
  PetscCall(PetscTime(&t0));
  for (PetscInt n = 1; n <= steps; n++) {
    wave.t = n * dt;
    PetscCall(PPEGridComputeRHS(grid, Source, NULL, &wave, b)); /* homogeneous Neumann walls */
    PetscCall(KSPSolve(ksp, b, p));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(PPEGridSampleField(grid, Pressure, &wave, pex));
    PetscCall(PPEGridComputeErrorNorms(grid, p, pex, &emax, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step %3" PetscInt_FMT ": %3" PetscInt_FMT " iterations, max error %.3e\n", n, its, (double)emax));
    total += its;
    worst = PetscMax(worst, emax);
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "channel: %" PetscInt_FMT " steps, %" PetscInt_FMT " iterations in all, worst max error %.3e, %.3g s per step\n", steps, total, (double)worst, (double)((t1 - t0) / steps)));

  PetscCall(VecDestroy(&p));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&pex));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscCall(PetscFinalize());
  return 0;
}

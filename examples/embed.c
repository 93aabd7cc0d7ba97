static const char help[] = "Embedding PPEKit in a PETSc program: a grid from options, the matrix-free\n\
operator, a right-hand side with boundary data, and a KSP chosen with -ksp_type/-pc_type.\n\
Build: mpicc embed.c $(pkg-config --cflags --libs ppekit) -o embed\n\n";

#include <ppekit.h>

/* -Lap u = f for u = sin(pi x) sin(pi y) cos(pi z) on the unit cube */
static PetscScalar Exact(const PetscReal x[3], void *ctx)
{
  return PetscSinReal(PETSC_PI * x[0]) * PetscSinReal(PETSC_PI * x[1]) * PetscCosReal(PETSC_PI * x[2]);
}
static PetscScalar Source(const PetscReal x[3], void *ctx)
{
  return 3 * PETSC_PI * PETSC_PI * Exact(x, ctx);
}
/* Dirichlet value or outward normal derivative, whichever the face asks for */
static PetscScalar Boundary(PPEFace face, const PetscReal x[3], void *ctx)
{
  if (face == PPE_FACE_ZLO || face == PPE_FACE_ZHI) return 0.0; /* Neumann: du/dn = 0 at z = 0, 1 */
  return Exact(x, ctx);                                         /* Dirichlet on x and y faces */
}

int main(int argc, char **argv)
{
  PPEGrid   grid;
  Mat       A;
  Vec       u, b, uex;
  KSP       ksp;
  DM        da;
  PetscInt  its;
  PetscReal emax, el2;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PPEGridCreate(PETSC_COMM_WORLD, &grid));
  PetscCall(PPEGridSetBCString(grid, "DDDDNN"));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PPEStencilCreate(grid, &A));
  PetscCall(DMCreateGlobalVector(da, &u));
  PetscCall(VecDuplicate(u, &b));
  PetscCall(VecDuplicate(u, &uex));
  PetscCall(PPEGridComputeRHS(grid, Source, Boundary, NULL, b));
  PetscCall(PPEGridSampleField(grid, Exact, NULL, uex));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, u));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(PPEGridComputeErrorNorms(grid, u, uex, &emax, &el2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "embed: %" PetscInt_FMT " iterations, max error %.3e\n", its, (double)emax));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&uex));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscCall(PetscFinalize());
  return 0;
}

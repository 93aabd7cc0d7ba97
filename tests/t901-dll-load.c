static const char help[] = "A PETSc program that knows nothing of PPEKit (not linked with it): it creates a\n\
matrix whose type comes from -mat_type and prints that type. With -dll_append libppekit.so\n\
-mat_type ppestencil the package must have been registered by the dynamic-loading entry.\n\n";

#include <petscmat.h>

int main(int argc, char **argv)
{
  Mat     A;
  MatType type;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, 8, 8));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matrix type: %s\n", type));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

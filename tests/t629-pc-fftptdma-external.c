static const char help[] = "An ordinary PETSc application, not linked with libppekit: it creates its own 3D DMDA,\n\
assembles a pressure-Poisson matrix the usual PETSc way (DMCreateMatrix + MatSetValuesStencil),\n\
builds the right-hand side of a known solution (b = A x_exact; zero-mean x_exact when the\n\
matrix is singular) and solves with the KSP/PC given on the command line. With\n\
-dll_append libppekit.so -ksp_type preonly -pc_type fftptdma the PC must infer the separable\n\
operator from the entries alone.\n\
  -case vertex-dirichlet  vertex-centred, Dirichlet nodes as scaled identity rows (KSP ex45 style)\n\
  -case cell-neumann      cell-centred, Neumann by reduced diagonals (ex32/ex34 style), singular\n\
  -case cell-varcoef      cell-centred with a coefficient varying in x: not separable\n\
  -case vertex-channel    periodic x and y, identity-row Dirichlet nodes on the z walls\n\
  -stretch                stretched z mesh\n\
  -amp a                  amplitude of the coefficient variation (cell-varcoef, default 0.3)\n\
  -n M,N,P                DMDA size (default 17,16,15)\n\
Prints one line: result: case=... its=... reason=... rnorm_rel=... err_rel=...\n\n";

#include <petscksp.h>
#include "dmda-poisson.h"

/* a smooth field that is not in any discrete eigenspace */
static PetscErrorCode ExactSolution(DM da, Vec x)
{
  PetscScalar ***xa;
  PetscInt       xs, ys, zs, xm, ym, zm, M, N, P;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, &P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(DMDAVecGetArray(da, x, &xa));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscReal s = (PetscReal)i / M, t = (PetscReal)j / N, u = (PetscReal)k / P;
        xa[k][j][i] = PetscCosReal(2.1 * s + 0.3) * PetscSinReal(1.7 * t + 0.5) + u * u * (1 - 0.4 * s) + 0.25 * PetscSinReal(5.0 * s * t + 3 * u);
      }
  PetscCall(DMDAVecRestoreArray(da, x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                 da;
  Mat                A;
  Vec                x, b, xe, r;
  KSP                ksp;
  MatNullSpace       nsp  = NULL;
  DPProblem          pb   = {DP_VERTEX_DIRICHLET, PETSC_FALSE, 0.3};
  PetscInt           n[3] = {17, 16, 15}, nn = 3, its;
  PetscReal          rn, bn, en, xn;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "External application test", NULL);
  PetscCall(PetscOptionsEnum("-case", "Matrix to assemble", NULL, DPKinds, (PetscEnum)pb.kind, (PetscEnum *)&pb.kind, NULL));
  PetscCall(PetscOptionsBool("-stretch", "Stretched z mesh", NULL, pb.stretch, &pb.stretch, NULL));
  PetscCall(PetscOptionsReal("-amp", "Amplitude of the coefficient variation (cell-varcoef)", NULL, pb.amp, &pb.amp, NULL));
  PetscCall(PetscOptionsIntArray("-n", "DMDA size M,N,P", NULL, n, &nn, NULL));
  PetscOptionsEnd();

  PetscCall(DPCreateDMDA(PETSC_COMM_WORLD, &pb, n[0], n[1], n[2], DMDA_STENCIL_STAR, &da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DPAssemble(da, &pb, A));
  if (pb.kind == DP_CELL_NEUMANN) {
    PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &nsp));
    PetscCall(MatSetNullSpace(A, nsp));
    PetscCall(MatSetTransposeNullSpace(A, nsp));
  }
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(VecDuplicate(x, &xe));
  PetscCall(VecDuplicate(x, &r));
  PetscCall(ExactSolution(da, xe));
  if (nsp) PetscCall(MatNullSpaceRemove(nsp, xe));
  PetscCall(MatMult(A, xe, b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(PPEKSPSetDMActiveAll(ksp, PETSC_FALSE));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));

  /* true residual and error (after removing the mean when singular) */
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  if (nsp) PetscCall(MatNullSpaceRemove(nsp, x));
  PetscCall(VecAXPY(x, -1.0, xe));
  PetscCall(VecNorm(x, NORM_2, &en));
  PetscCall(VecNorm(xe, NORM_2, &xn));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "result: case=%s stretch=%d its=%" PetscInt_FMT " reason=%s rnorm_rel=%.3e err_rel=%.3e\n", DPKinds[pb.kind], (int)pb.stretch, its, KSPConvergedReasons[reason], (double)(rn / bn), (double)(en / xn)));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatNullSpaceDestroy(&nsp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xe));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "An ordinary PETSc application, not linked with libppekit: it creates its own 2D DMDA,\n\
assembles a pressure-Poisson matrix the usual PETSc way (DMCreateMatrix + MatSetValuesStencil),\n\
builds the right-hand side of a known solution (b = A x_exact; zero-mean x_exact when the\n\
matrix is singular) and solves with the KSP/PC given on the command line. With\n\
-dll_append libppekit.so -ksp_type preonly -pc_type fftptdma the PC must infer the separable\n\
operator from the entries of the 2D matrix alone.\n\
  -case vertex-dirichlet  vertex-centred, Dirichlet nodes as scaled identity rows (KSP ex29 style)\n\
  -case cell-neumann      cell-centred, Neumann by reduced diagonals (ex32 style), singular (MatNullSpace)\n\
  -case cell-varcoef      cell-centred with a coefficient varying in x: not separable\n\
  -case vertex-channel    periodic x, identity-row Dirichlet nodes on the y walls\n\
  -stretch                stretched y mesh\n\
  -amp a                  amplitude of the coefficient variation (cell-varcoef, default 0.3)\n\
  -n M,N                  DMDA size (default 33,30)\n\
Prints one line: result: case=... its=... reason=... rnorm_rel=... err_rel=...\n\n";

#include <petscksp.h>
#include <petscdmda.h>
/* PETSc's own API across releases (header-only: this program does not link libppekit) */
#include <ppekit/private/petsccompat.h>

typedef enum {
  D2_VERTEX_DIRICHLET,
  D2_CELL_NEUMANN,
  D2_CELL_VARCOEF,
  D2_VERTEX_CHANNEL
} D2Kind;
static const char *const D2Kinds[] = {"vertex-dirichlet", "cell-neumann", "cell-varcoef", "vertex-channel", "D2Kind", "D2_", NULL};

typedef struct {
  D2Kind    kind;
  PetscBool stretch;
  PetscReal amp;
} D2Problem;

/* y positions of the N unknowns (vertex: nodes on [0,1]) or of the N+1 cell faces and N
   centres (cell); stretched: cosine clustering at both walls */
static void D2YLines(const D2Problem *pb, PetscInt N, PetscReal *yf, PetscReal *yc)
{
  PetscBool vtx = (PetscBool)(pb->kind == D2_VERTEX_DIRICHLET || pb->kind == D2_VERTEX_CHANNEL);

  for (PetscInt f = 0; f <= (vtx ? N - 1 : N); f++) {
    PetscReal s = (PetscReal)f / (PetscReal)(vtx ? N - 1 : N), y = pb->stretch ? 0.5 * (1 - PetscCosReal(PETSC_PI * s)) * 0.6 + 0.4 * s : s;
    if (vtx) yc[f] = y;
    else yf[f] = y;
  }
  if (!vtx)
    for (PetscInt j = 0; j < N; j++) yc[j] = 0.5 * (yf[j] + yf[j + 1]);
}

/* -Lap, volume-weighted, into A = DMCreateMatrix(da) */
static PetscErrorCode D2Assemble(DM da, const D2Problem *pb, Mat A)
{
  PetscInt  M, N, xs, ys, xm, ym;
  PetscReal hx, *yf, *yc;
  PetscBool chan = (PetscBool)(pb->kind == D2_VERTEX_CHANNEL), vtx = (PetscBool)(pb->kind == D2_VERTEX_DIRICHLET || chan);

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  hx = (vtx && !chan) ? 1.0 / (PetscReal)(M - 1) : 1.0 / (PetscReal)M;
  PetscCall(PetscMalloc2(N + 1, &yf, N, &yc));
  D2YLines(pb, N, yf, yc);
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      MatStencil  row = {.j = j, .i = i}, col[5];
      PetscScalar v[5];
      PetscInt    n = 0;

      if (vtx) {
        PetscReal dym, dyp, dy, cx, cym, cyp;
        if (j == 0 || j == N - 1 || (!chan && (i == 0 || i == M - 1))) { /* Dirichlet node: scaled identity row, as ex29 */
          v[0]   = 2.0 * (hx / (yc[1] - yc[0]) + (yc[1] - yc[0]) / hx);
          col[0] = row;
          PetscCall(MatSetValuesStencil(A, 1, &row, 1, col, v, INSERT_VALUES));
          continue;
        }
        dym    = yc[j] - yc[j - 1];
        dyp    = yc[j + 1] - yc[j];
        dy     = 0.5 * (dym + dyp);
        cx     = dy / hx;
        cym    = hx / dym;
        cyp    = hx / dyp;
        col[n] = row, col[n].i = i - 1, v[n++] = -cx; /* i = -1 wraps on the periodic DMDA */
        col[n] = row, col[n].i = i + 1, v[n++] = -cx;
        col[n] = row, col[n].j = j - 1, v[n++] = -cym;
        col[n] = row, col[n].j = j + 1, v[n++] = -cyp;
        col[n] = row, v[n++] = 2 * cx + cym + cyp;
      } else { /* cell (i,j): fluxes through its four faces; a missing neighbour drops the flux (Neumann), except the y walls of cell-varcoef (Dirichlet, ghost -u) */
        PetscReal dy = yf[j + 1] - yf[j], diag = 0, a[2] = {1, 1}, c;
        if (pb->kind == D2_CELL_VARCOEF) {
          a[0] = 1 + pb->amp * PetscSinReal(PETSC_PI * (PetscReal)i * hx);
          a[1] = 1 + pb->amp * PetscSinReal(PETSC_PI * (PetscReal)(i + 1) * hx);
        }
        for (PetscInt s = 0; s < 2; s++) {
          PetscInt ni = i + (s ? 1 : -1), nj = j + (s ? 1 : -1);
          c = a[s] * dy / hx;
          if (ni >= 0 && ni < M) col[n] = row, col[n].i = ni, v[n++] = -c, diag += c;
          if (nj >= 0 && nj < N) {
            c      = hx / (yc[nj] - yc[j]) * (s ? 1 : -1);
            col[n] = row, col[n].j = nj, v[n++] = -c, diag += c;
          } else if (pb->kind == D2_CELL_VARCOEF) diag += 2 * hx / dy; /* wall half a cell away */
        }
        col[n] = row, v[n++] = diag;
      }
      PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(yf, yc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a smooth field that is not in any discrete eigenspace */
static PetscErrorCode ExactSolution(DM da, Vec x)
{
  PetscScalar **xa;
  PetscInt      xs, ys, xm, ym, M, N;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArray(da, x, &xa));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscReal s = (PetscReal)i / M, t = (PetscReal)j / N;
      xa[j][i] = PetscCosReal(2.1 * s + 0.3) * PetscSinReal(1.7 * t + 0.5) + t * t * (1 - 0.4 * s) + 0.25 * PetscSinReal(5.0 * s * t);
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
  D2Problem          pb   = {D2_VERTEX_DIRICHLET, PETSC_FALSE, 0.3};
  PetscInt           n[2] = {33, 30}, nn = 2, its;
  PetscReal          rn, bn, en, xn;
  KSPConvergedReason reason;
  DMBoundaryType     bx;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "External 2D application test", NULL);
  PetscCall(PetscOptionsEnum("-case", "Matrix to assemble", NULL, D2Kinds, (PetscEnum)pb.kind, (PetscEnum *)&pb.kind, NULL));
  PetscCall(PetscOptionsBool("-stretch", "Stretched y mesh", NULL, pb.stretch, &pb.stretch, NULL));
  PetscCall(PetscOptionsReal("-amp", "Amplitude of the coefficient variation (cell-varcoef)", NULL, pb.amp, &pb.amp, NULL));
  PetscCall(PetscOptionsIntArray("-n", "DMDA size M,N", NULL, n, &nn, NULL));
  PetscOptionsEnd();

  bx = pb.kind == D2_VERTEX_CHANNEL ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, bx, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n[0], n[1], PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(D2Assemble(da, &pb, A));
  if (pb.kind == D2_CELL_NEUMANN) {
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
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "result: case=%s stretch=%d its=%" PetscInt_FMT " reason=%s rnorm_rel=%.3e err_rel=%.3e\n", D2Kinds[pb.kind], (int)pb.stretch, its, KSPConvergedReasons[reason], (double)(rn / bn), (double)(en / xn)));

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

static const char help[] = "One pressure-projection step on a staggered (MAC) grid: a velocity u* that is\n\
not divergence-free, the pressure equation D G p = D u* solved with PPEKit's operator, the\n\
correction u = u* - G p, and the discrete divergence before and after.\n\
The grid is the channel (x, y periodic, walls at z = 0 and Lz, tanh-stretched z): pressure at\n\
cell centres, u, v, w on the east, north and top faces of each cell, w = 0 on the walls.\n\
Solver: CG with PPEKit's exact FFT + tridiagonal solve (PC fftptdma) as preconditioner, so one\n\
iteration; any other with -ksp_type, -pc_type, -ksp_rtol. Also the grid's options (-ppe_grid_n ...).\n\n";

/*
   Why the operator fits: -D G (divergence of the face gradient, zero flux through the walls)
   is the cell-centred Neumann Laplacian, and PPEKit's A = W(-Lap_h) is exactly W (-D G) with
   W the cell volumes over the reference volume. So A p = -W D u* gives D G p = D u*, and
   D u = D u* - D G p vanishes to the solver's tolerance.
*/
#include <ppekit.h>

typedef struct {
  PPEGrid          grid;
  DM               da;
  const PetscReal *xc[3]; /* cell centres */
  const PetscReal *zf;    /* z faces */
  PetscReal        h[3];  /* x, y spacing (uniform), z reference */
  PetscReal        L[3];
} MAC;

/* A smooth velocity that is not divergence-free; w vanishes on the walls. */
static void InitialVelocity(const MAC *m, PetscInt i, PetscInt j, PetscInt k, PetscScalar *u, PetscScalar *v, PetscScalar *w)
{
  PetscReal xe = m->xc[0][i] + 0.5 * m->h[0], yn = m->xc[1][j] + 0.5 * m->h[1], zt = m->zf[k + 1];
  PetscReal x = m->xc[0][i], y = m->xc[1][j], z = m->xc[2][k];
  PetscReal kx = 2 * PETSC_PI / m->L[0], ky = 2 * PETSC_PI / m->L[1], kz = PETSC_PI / m->L[2];

  *u = 1.0 + PetscSinReal(kx * xe) * PetscCosReal(ky * y) * PetscSinReal(kz * z);
  *v = 0.5 * PetscCosReal(kx * x) * PetscSinReal(ky * yn);
  *w = PetscSinReal(kz * zt) * PetscCosReal(kx * x) + 0.3 * PetscSinReal(2 * kz * zt); /* 0 at both walls */
}

/* div = D (u, v, w) at cell centres; U holds u, v, w as three local (ghosted) vectors. */
static PetscErrorCode Divergence(const MAC *m, Vec Ul[3], Vec div, PetscReal *maxabs)
{
  PetscInt             xs, ys, zs, xm, ym, zm, nz;
  const PetscScalar ***u, ***v, ***w;
  PetscScalar       ***d;

  PetscFunctionBegin;
  PetscCall(PPEGridGetSizes(m->grid, NULL, NULL, &nz));
  PetscCall(DMDAGetCorners(m->da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(DMDAVecGetArrayRead(m->da, Ul[0], (void *)&u));
  PetscCall(DMDAVecGetArrayRead(m->da, Ul[1], (void *)&v));
  PetscCall(DMDAVecGetArrayRead(m->da, Ul[2], (void *)&w));
  PetscCall(DMDAVecGetArray(m->da, div, &d));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscScalar wt = k < nz - 1 ? w[k][j][i] : 0.0, wb = k > 0 ? w[k - 1][j][i] : 0.0; /* walls */
        d[k][j][i] = (u[k][j][i] - u[k][j][i - 1]) / m->h[0] + (v[k][j][i] - v[k][j - 1][i]) / m->h[1] + (wt - wb) / (m->zf[k + 1] - m->zf[k]);
      }
  PetscCall(DMDAVecRestoreArrayRead(m->da, Ul[0], (void *)&u));
  PetscCall(DMDAVecRestoreArrayRead(m->da, Ul[1], (void *)&v));
  PetscCall(DMDAVecRestoreArrayRead(m->da, Ul[2], (void *)&w));
  PetscCall(DMDAVecRestoreArray(m->da, div, &d));
  PetscCall(VecNorm(div, NORM_INFINITY, maxabs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MAC              m;
  Mat              A;
  KSP              ksp;
  PC               pc;
  Vec              U[3], Ul[3], p, pl, div, b;
  const PetscReal *w;
  PetscInt         xs, ys, zs, xm, ym, zm, nz, its;
  PetscReal        before, after;
  PetscScalar   ***a[3], ***pa, ***ba;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PPEGridCreate(PETSC_COMM_WORLD, &m.grid));
  PetscCall(PPEProblemSetGridDefaults(PPE_PROBLEM_CHANNEL, m.grid)); /* 2 pi x pi x 2, PPPPNN, tanh z */
  PetscCall(PPEGridSetSizes(m.grid, 32, 32, 32));
  PetscCall(PPEGridSetFromOptions(m.grid));
  PetscCall(PPEGridSetUp(m.grid));
  PetscCall(PPEGridGetDM(m.grid, &m.da));
  PetscCall(PPEGridGetLengths(m.grid, &m.L[0], &m.L[1], &m.L[2]));
  for (int d = 0; d < 3; d++) {
    PetscCall(PPEGridGetCoordinates(m.grid, d, &m.xc[d]));
    PetscCall(PPEGridGetReferenceSpacing(m.grid, d, &m.h[d]));
  }
  PetscCall(PPEGridGetLines(m.grid, 2, NULL, &m.zf));
  PetscCall(PPEGridGetSizes(m.grid, NULL, NULL, &nz));
  PetscCall(DMDAGetCorners(m.da, &xs, &ys, &zs, &xm, &ym, &zm));

  /* u* on the faces */
  for (int c = 0; c < 3; c++) {
    PetscCall(DMCreateGlobalVector(m.da, &U[c]));
    PetscCall(DMCreateLocalVector(m.da, &Ul[c]));
    PetscCall(DMDAVecGetArray(m.da, U[c], &a[c]));
  }
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) InitialVelocity(&m, i, j, k, &a[0][k][j][i], &a[1][k][j][i], &a[2][k][j][i]);
  for (int c = 0; c < 3; c++) {
    PetscCall(DMDAVecRestoreArray(m.da, U[c], &a[c]));
    PetscCall(DMGlobalToLocal(m.da, U[c], INSERT_VALUES, Ul[c]));
  }
  PetscCall(DMCreateGlobalVector(m.da, &div));
  PetscCall(Divergence(&m, Ul, div, &before));

  /* A p = -W D u* */
  PetscCall(VecDuplicate(div, &b));
  PetscCall(VecDuplicate(div, &p));
  PetscCall(PPEGridGetWeights(m.grid, 2, &w)); /* x, y weights are 1 on a cell-centred uniform grid */
  PetscCall(DMDAVecGetArrayRead(m.da, div, (void *)&pa));
  PetscCall(DMDAVecGetArray(m.da, b, &ba));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) ba[k][j][i] = -w[k] * pa[k][j][i];
  PetscCall(DMDAVecRestoreArrayRead(m.da, div, (void *)&pa));
  PetscCall(DMDAVecRestoreArray(m.da, b, &ba));
  PetscCall(PPEStencilCreate(m.grid, &A));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCFFTPTDMA)); /* exact for this operator: x, y uniform, z any spacing */
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, 1e-13, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, p));
  PetscCall(KSPGetIterationNumber(ksp, &its));

  /* u = u* - G p on the faces (walls keep w = 0) */
  PetscCall(DMGetLocalVector(m.da, &pl));
  PetscCall(DMGlobalToLocal(m.da, p, INSERT_VALUES, pl));
  PetscCall(DMDAVecGetArrayRead(m.da, pl, (void *)&pa));
  for (int c = 0; c < 3; c++) PetscCall(DMDAVecGetArray(m.da, U[c], &a[c]));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        a[0][k][j][i] -= (pa[k][j][i + 1] - pa[k][j][i]) / m.h[0];
        a[1][k][j][i] -= (pa[k][j + 1][i] - pa[k][j][i]) / m.h[1];
        if (k < nz - 1) a[2][k][j][i] -= (pa[k + 1][j][i] - pa[k][j][i]) / (m.xc[2][k + 1] - m.xc[2][k]);
      }
  for (int c = 0; c < 3; c++) {
    PetscCall(DMDAVecRestoreArray(m.da, U[c], &a[c]));
    PetscCall(DMGlobalToLocal(m.da, U[c], INSERT_VALUES, Ul[c]));
  }
  PetscCall(DMDAVecRestoreArrayRead(m.da, pl, (void *)&pa));
  PetscCall(DMRestoreLocalVector(m.da, &pl));
  PetscCall(Divergence(&m, Ul, div, &after));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "projection: max |div u*| = %.3e, pressure solve %" PetscInt_FMT " iterations, max |div u| = %.3e\n", (double)before, its, (double)after));

  for (int c = 0; c < 3; c++) {
    PetscCall(VecDestroy(&U[c]));
    PetscCall(VecDestroy(&Ul[c]));
  }
  PetscCall(VecDestroy(&div));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&p));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&m.grid));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "PC fftptdma on 2D grids (stored as nx x 1 x ny): preonly accuracy over every x BC pair\n\
(PP, NN, DD, ND, DN) times y BC pairs (NN, DD, ND, DN, PP), cell and vertex, uniform and tanh-stretched\n\
y, a Helmholtz shift, the z methods ptdma = transpose = auto (distd2 on the shifted case) and\n\
r2c = halfcomplex, on the process grids 1 x p, p x 1 and PETSc's; a pencil grid\n\
with py > 1 is refused.\n\
Options: -stride s (every s-th case, default 1).\n";

#include <ppekit/private/fftptdmaimpl.h>
#include "tap.h"

static PetscErrorCode MakeGrid2d(MPI_Comm comm, PetscInt nx, PetscInt ny, PPELocation loc, const PPEBCType bc[4], PetscBool stretch, PetscReal shift, PetscInt px, PetscInt py, PPEGrid *grid)
{
  PPEBCType b6[6] = {bc[0], bc[1], bc[2], bc[3], PPE_BC_NEUMANN, PPE_BC_NEUMANN};

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, grid));
  PetscCall(PPEGridSetDimension(*grid, 2));
  PetscCall(PPEGridSetSizes(*grid, nx, ny, 1));
  PetscCall(PPEGridSetLengths(*grid, 1.0, 1.3, 1.0));
  PetscCall(PPEGridSetBCs(*grid, b6));
  PetscCall(PPEGridSetLocation(*grid, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(*grid, PPE_STRETCH_TANH, 1.7)); /* the user's y */
  PetscCall(PPEGridSetShift(*grid, shift));
  PetscCall(PPEGridSetProcesses(*grid, px, py, 1));
  PetscCall(PPEGridSetUp(*grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RelResidual(Mat A, Vec b, Vec x, PetscReal *rel)
{
  Vec       r;
  PetscReal nr, nb;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &nr));
  PetscCall(VecNorm(b, NORM_2, &nb));
  *rel = nr / nb;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One preonly solve; code: the error code of KSPSolve (errors returned, not raised). */
static PetscErrorCode Solve(Mat A, Vec b, Vec x, PCFFTPTDMAZSolve zs, PetscBool r2c, PetscViewer sv, PetscErrorCode *code)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCFFTPTDMA));
  PetscCall(PCFFTPTDMASetZSolve(pc, zs));
  PetscCall(PCFFTPTDMASetR2C(pc, r2c));
  PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *code = KSPSolve(ksp, b, x);
  PetscCall(PetscPopErrorHandler());
  if (!*code && sv) PetscCall(PCView(pc, sv));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One case: ptdma (with the view), transpose, auto, distd2 when shifted, and ptdma without r2c
   when x is periodic; worst residual and worst difference to ptdma. */
static PetscErrorCode SolveCase(MPI_Comm comm, PetscInt nx, PetscInt ny, PPELocation loc, const PPEBCType bc[4], PetscBool stretch, PetscReal shift, PetscInt px, PetscInt py, PetscViewer sv, PetscReal *res, PetscReal *diff, PetscErrorCode *code)
{
  PCFFTPTDMAZSolve zs[5]  = {PC_FFTPTDMA_ZSOLVE_PTDMA, PC_FFTPTDMA_ZSOLVE_TRANSPOSE, PC_FFTPTDMA_ZSOLVE_AUTO, PC_FFTPTDMA_ZSOLVE_DISTD2, PC_FFTPTDMA_ZSOLVE_PTDMA};
  PetscBool        r2c[5] = {PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE};
  PPEGrid          grid;
  Mat              A;
  Vec              b, x0, x;
  PetscRandom      rnd;
  PetscBool        sing;

  PetscFunctionBegin;
  PetscCall(MakeGrid2d(comm, nx, ny, loc, bc, stretch, shift, px, py, &grid));
  PetscCall(PPEStencilCreate(grid, &A));
  PetscCall(MatCreateVecs(A, &x0, &b));
  PetscCall(VecDuplicate(x0, &x));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PPEGridIsSingular(grid, &sing));
  if (sing) { /* consistent right-hand side: the row sums of A^T are the cell weights, so project with the null space of A^T = constants only when uniform; use b = A y instead */
    Vec y;
    PetscCall(VecDuplicate(b, &y));
    PetscCall(VecSetRandom(y, rnd));
    PetscCall(MatMult(A, y, b));
    PetscCall(VecDestroy(&y));
  }
  *res  = 0;
  *diff = 0;
  *code = 0;
  for (int m = 0; m < 5; m++) {
    PetscErrorCode c;
    PetscReal      r, d, n0;

    if (m == 3 && shift == 0) continue; /* distd2 only where it is exact: the strongly shifted case */
    if (m == 4 && bc[0] != PPE_BC_PERIODIC) continue;
    PetscCall(Solve(A, b, m ? x : x0, zs[m], r2c[m], m ? NULL : sv, &c));
    if (c) {
      *code = c;
      continue;
    }
    PetscCall(RelResidual(A, b, m ? x : x0, &r));
    *res = PetscMax(*res, r);
    if (m) {
      PetscCall(VecAXPY(x, -1.0, x0));
      PetscCall(VecNorm(x, NORM_2, &d));
      PetscCall(VecNorm(x0, NORM_2, &n0));
      *diff = PetscMax(*diff, d / n0);
    }
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm        comm;
  PetscMPIInt     size;
  PetscInt        stride = 1, ncase = 0, nrun = 0, nfail = 0, npg = 0;
  PetscInt        pg[3][2];
  const char     *xn[5] = {"PP", "NN", "DD", "ND", "DN"}, *yn[5] = {"NN", "DD", "ND", "DN", "PP"};
  const PPEBCType P = PPE_BC_PERIODIC, N = PPE_BC_NEUMANN, D = PPE_BC_DIRICHLET;
  const PPEBCType xb[5][2] =
    {
      {P, P},
      {N, N},
      {D, D},
      {N, D},
      {D, N}
  },
                  yb[5][2] = {{N, N}, {D, D}, {N, D}, {D, N}, {P, P}};
  PetscReal worst = 0, wdiff = 0;
  char      wcase[128] = "";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-stride", &stride, NULL));
  /* process grids of the user's 2D DMDA: 1 x p (y split: the x-pencils are the DMDA's boxes),
     p x 1 (x split: a real redistribution), PETSc's choice */
  pg[npg][0] = 1, pg[npg][1] = size, npg++;
  if (size > 1) pg[npg][0] = size, pg[npg][1] = 1, npg++;
  if (size > 2) pg[npg][0] = PETSC_DECIDE, pg[npg][1] = PETSC_DECIDE, npg++;

  /* (1) accuracy: 5 x 5 BC pairs x 2 locations x (uniform, stretched y) x process grids */
  for (int ix = 0; ix < 5; ix++)
    for (int iy = 0; iy < 5; iy++)
      for (int l = 0; l < 2; l++)
        for (int st = 0; st < 2; st++)
          for (PetscInt g = 0; g < npg; g++) {
            PPEBCType      bc[4] = {xb[ix][0], xb[ix][1], yb[iy][0], yb[iy][1]};
            PetscReal      res = 0, diff = 0;
            PetscErrorCode code = 0;
            PPELocation    loc  = l ? PPE_LOCATION_VERTEX : PPE_LOCATION_CELL;

            if (st && yb[iy][0] == P) continue; /* stretching is for walls */
            if (ncase++ % stride) continue;
            nrun++;
            PetscCall(SolveCase(comm, 25, 8 * size + 3, loc, bc, (PetscBool)st, 0.0, pg[g][0], pg[g][1], NULL, &res, &diff, &code));
            if (code || !(res <= 1e-10) || !(diff <= 1e-10)) {
              nfail++;
              PetscCall(PetscPrintf(comm, "# failed: x %s y %s %s %s procs %" PetscInt_FMT ",%" PetscInt_FMT ": code %d residual %.2e difference %.2e\n", xn[ix], yn[iy], l ? "vertex" : "cell", st ? "stretched" : "uniform", pg[g][0], pg[g][1],
                                    (int)code, (double)res, (double)diff));
            }
            if (res > worst) {
              worst = res;
              PetscCall(PetscSNPrintf(wcase, sizeof(wcase), "x %s y %s %s %s", xn[ix], yn[iy], l ? "vertex" : "cell", st ? "stretched" : "uniform"));
            }
            wdiff = PetscMax(wdiff, diff);
          }
  PetscCall(TapCheck(comm, (PetscBool)(nfail == 0 && nrun > 0),
                     "2D preonly, %" PetscInt_FMT " cases (want > 0; x PP/NN/DD/ND/DN x y NN/DD/ND/DN/PP, cell/vertex, uniform/tanh y, process grids 1x%d%s): %" PetscInt_FMT
                     " failed (want 0); worst relative residual %.2e (%s) <= 1e-10, transpose/auto/halfcomplex = ptdma to %.2e",
                     nrun, (int)size, size > 1 ? ", p x 1, PETSc's" : "", nfail, (double)worst, wcase, (double)wdiff));

  /* (2) Helmholtz: a strong shift (an implicit diffusion step), distd2 exact there */
  {
    PPEBCType bc[2][4] = {
      {N, N, N, N},
      {P, P, D, N}
    };
    PetscReal      res = 0, diff = 0, r = 0, d = 0;
    PetscErrorCode code = 0, c = 0;
    for (int i = 0; i < 2; i++)
      for (PetscInt g = 0; g < npg; g++) {
        PetscCall(SolveCase(comm, 24, 8 * size, i ? PPE_LOCATION_VERTEX : PPE_LOCATION_CELL, bc[i], (PetscBool)i, 1e6 * size * size, pg[g][0], pg[g][1], NULL, &r, &d, &c));
        res  = PetscMax(res, r);
        diff = PetscMax(diff, d);
        if (c) code = c;
      }
    PetscCall(TapCheck(comm, (PetscBool)(!code && res <= 1e-10 && diff <= 1e-10),
                       "2D Helmholtz (shift %.0e, NNNN cell uniform and PPDN vertex stretched): code %d (want 0), relative residual %.2e <= 1e-10, distd2/transpose/auto = ptdma to %.2e (<= 1e-10)", 1e6 * size * size, (int)code, (double)res,
                       (double)diff));
  }

  /* (3) a pencil grid with py > 1 is refused with a clear message (py must be 1); on one rank:
     a 2 x 1 grid does not match */
  {
    PPEGrid        grid;
    Mat            A;
    Vec            b, x;
    KSP            ksp;
    PC             pc;
    PetscErrorCode code;
    const char    *msg   = NULL;
    PetscBool      ok    = PETSC_FALSE;
    PPEBCType      bc[4] = {N, N, D, D};

    PetscCall(MakeGrid2d(comm, 16, 8 * size, PPE_LOCATION_CELL, bc, PETSC_FALSE, 0.0, PETSC_DECIDE, PETSC_DECIDE, &grid));
    PetscCall(PPEStencilCreate(grid, &A));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(VecSet(b, 1.0));
    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCFFTPTDMASetPencilGrid(pc, 2, size / 2 > 0 ? size / 2 : 1));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = KSPSolve(ksp, b, x);
    PetscCall(PetscPopErrorHandler());
    if (code) PetscCall(PPEErrorMessage(code, &msg));
    ok = (PetscBool)(code && msg && strstr(msg, "py must be 1") != NULL);
    if (!ok) PetscCall(PetscPrintf(comm, "# got error %d: %s\n", (int)code, msg ? msg : "(none)"));
    PetscCall(TapCheck(comm, ok, "pencil grid 2 x %d on a 2D grid refused: code %d (want nonzero), message \"%.200s\" (want \"py must be 1\")", (int)PetscMax(size / 2, 1), (int)code, msg ? msg : "(none)"));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEGridDestroy(&grid));
  }
  PetscCall(TapCheck(comm, PETSC_TRUE, "done on %d ranks", (int)size));
  PetscCall(PetscFinalize());
  return 0;
}

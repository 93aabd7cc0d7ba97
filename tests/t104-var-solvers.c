static const char help[] = "Every PPEKit solver and the baselines on a variable-density pressure operator: spheres of\n\
density 1 in density ratio (x,y periodic, walls in z, cell-centred), a consistent right-hand side;\n\
each solver must reach a true relative residual of 1e-8; a moved density gives a new operator,\n\
and the preconditioners set up again (the solution of the moved density solves its own operator).\n\
  -n nx,ny,nz        grid size (default 24,24,24)\n\
  -ratio r           density ratio (default 1000)\n\
  -solvers a,b,...   solver names to run (default: all)\n\n";

#include <ppekit.h>
#include <petscdmda.h>
#include "tap.h"

/* Bubbles: centres and radius in units of the box [0,1]^2 x [0,1] (fixed, so that every rank
   count sees the same density), density from the fraction of 3^3 sub-points of a cell inside. */
static PetscReal BubbleDensity(const PetscInt N[3], PetscInt i, PetscInt j, PetscInt k, PetscReal ratio, PetscReal shift)
{
  const PetscReal c[6][3] = {
    {0.25, 0.25, 0.3 },
    {0.75, 0.3,  0.5 },
    {0.5,  0.75, 0.7 },
    {0.15, 0.8,  0.45},
    {0.8,  0.8,  0.25},
    {0.45, 0.4,  0.8 }
  };
  const PetscReal r  = 0.14;
  PetscInt        in = 0;

  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      for (int e = 0; e < 3; e++) {
        PetscReal x[3] = {(i + (a + 0.5) / 3) / N[0], (j + (b + 0.5) / 3) / N[1], (k + (e + 0.5) / 3) / N[2]};
        for (int s = 0; s < 6; s++) {
          PetscReal d2 = 0;
          for (int d = 0; d < 3; d++) {
            PetscReal dx = x[d] - c[s][d] - (d == 0 ? shift : 0);
            if (d < 2) dx -= PetscFloorReal(dx + 0.5); /* periodic in x and y */
            d2 += dx * dx;
          }
          if (d2 < r * r) {
            in++;
            break;
          }
        }
      }
  return ratio + (1.0 - ratio) * in / 27.0;
}

static PetscErrorCode SetDensity(DM da, const PetscInt N[3], PetscReal ratio, PetscReal shift, Mat A)
{
  Vec            rho;
  PetscScalar ***a;
  PetscInt       s[3], m[3];

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(da, &rho));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  PetscCall(DMDAVecGetArray(da, rho, &a));
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++) a[k][j][i] = BubbleDensity(N, i, j, k, ratio, shift);
  PetscCall(DMDAVecRestoreArray(da, rho, &a));
  PetscCall(PPEStencilSetDensity(A, rho));
  PetscCall(VecDestroy(&rho));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solver: name, KSP and PC options, and which matrix the PC gets (the matrix-free operator,
   its AIJ twin, its hypre struct twin). */
typedef struct {
  const char *name, *opts;
  int         pmat; /* 0 matrix-free, 1 AIJ twin, 2 hyprestruct twin, 3 the AIJ twin as the operator too (PCMG's Galerkin levels need the operator assembled) */
  PetscInt    maxits;
} Solver;

static PetscReal TrueRel(Mat A, Vec x, Vec b)
{
  Vec       r;
  PetscReal rn, bn;

  VecDuplicate(b, &r);
  MatMult(A, x, r);
  VecAYPX(r, -1.0, b);
  VecNorm(r, NORM_2, &rn);
  VecNorm(b, NORM_2, &bn);
  VecDestroy(&r);
  return rn / bn;
}

static PetscErrorCode Solve(MPI_Comm comm, const Solver *S, PetscInt index, Mat A, DM da, Vec b, Vec x, PetscInt *its, KSPConvergedReason *reason)
{
  KSP  ksp;
  Mat  P = A;
  char prefix[16];

  PetscFunctionBegin;
  if (S->pmat) PetscCall(PPEStencilAssemble(A, S->pmat == 2 ? MATHYPRESTRUCT : MATAIJ, MAT_INITIAL_MATRIX, &P));
  /* the solver's options under a prefix of its own (its index): nothing of one solver reaches
     another, and the command line's options stay as they are */
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "s%d_", (int)index));
  PetscCall(PetscOptionsPrefixPush(NULL, prefix));
  PetscCall(PetscOptionsInsertString(NULL, S->opts));
  PetscCall(PetscOptionsPrefixPop(NULL));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, S->pmat == 3 ? P : A, P));
  {
    PC pc;
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetDM(pc, da)); /* geometric multigrid builds its hierarchy from it (as ppe-solve does) */
  }
  PetscCall(KSPSetTolerances(ksp, 1e-9, 0, PETSC_DEFAULT, S->maxits));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPDestroy(&ksp));
  if (P != A) PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscInt    n[3] = {24, 24, 24}, nn = 3, nsel = 32;
  PetscReal   ratio = 1000;
  char       *sel[32];
  PPEGrid     g;
  DM          da;
  Mat         A;
  Vec         b, x, xr;
  PetscRandom rnd;
  PetscBool   selflg;
  /* iteration limits: about twice what each needs at 24^3, ratio 1000 */
  const Solver solvers[] = {
    {"cg-jacobi",             "-ksp_type cg -pc_type jacobi",                                                                                                                0, 2000},
    {"cg-tileilu",            "-ksp_type cg -pc_type tileilu",                                                                                                               0, 2000},
    {"cg-chebyci",            "-ksp_type cg -pc_type chebyci",                                                                                                               0, 2000},
    {"cg-chebyci-block",      "-ksp_type cg -pc_type chebyci -pc_chebyci_mode block",                                                                                        0, 2000},
    {"bcgsfused-chebyci",     "-ksp_type bcgsfused -pc_type chebyci",                                                                                                        0, 2000},
    {"bcgsfused-chebyci-blk", "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode block",                                                                                 0, 2000},
    {"bcgsfused-chebyci-nc",  "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm",                                                                                0, 2000},
    {"cbcg8-jacobi",          "-ksp_type cbcg -ksp_cbcg_s 8 -pc_type jacobi",                                                                                                0, 2000},
    {"cbcg8-tileilu",         "-ksp_type cbcg -ksp_cbcg_s 8 -pc_type tileilu",                                                                                               0, 2000},
    {"cg-fftptdma",           "-ksp_type cg -pc_type fftptdma",                                                                                                              0, 2000},
    {"cg-gamg",               "-ksp_type cg -pc_type gamg",                                                                                                                  1, 500 },
#if defined(PETSC_HAVE_HYPRE)
    {"cg-boomeramg",          "-ksp_type cg -pc_type hypre -pc_hypre_type boomeramg",                                                                                        1, 500 },
    {"cg-pfmg",               "-ksp_type cg -pc_type pfmg",                                                                                                                  2, 500 },
#endif
    {"cg-mg-galerkin",        "-ksp_type cg -pc_type mg -pc_mg_levels 3 -pc_mg_galerkin pmat -mg_levels_ksp_type richardson -mg_levels_pc_type sor -mg_levels_ksp_max_it 1", 3, 500 },
  };
  PetscInt ns = (PetscInt)(sizeof(solvers) / sizeof(solvers[0]));

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ratio", &ratio, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-solvers", sel, &nsel, &selflg));
  PetscCall(PetscOptionsClearValue(NULL, "-n"));
  PetscCall(PetscOptionsClearValue(NULL, "-ratio"));
  PetscCall(PetscOptionsClearValue(NULL, "-solvers"));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetBCString(g, "PPPPNN"));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(PPEStencilCreate(g, &A));
  PetscCall(SetDensity(da, n, ratio, 0.0, A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xr));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 3));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(xr, rnd));
  PetscCall(MatMult(A, xr, b)); /* consistent: in the range of A */

  for (PetscInt s = 0; s < ns; s++) {
    PetscInt           its;
    KSPConvergedReason reason;
    PetscReal          rel;
    PetscBool          run = selflg ? PETSC_FALSE : PETSC_TRUE;

    for (PetscInt q = 0; selflg && q < nsel; q++) {
      PetscBool eq;
      PetscCall(PetscStrcmp(sel[q], solvers[s].name, &eq));
      run = (PetscBool)(run || eq);
    }
    if (!run) continue;
    PetscCall(Solve(comm, &solvers[s], s, A, da, b, x, &its, &reason));
    rel = TrueRel(A, x, b);
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-8 && reason > 0), "%s: ratio %g, %" PetscInt_FMT " iterations, true relative residual %.2e (<= 1e-8), reason %s", solvers[s].name, (double)ratio, its, (double)rel, KSPConvergedReasons[reason]));
  }

  /* a moved density: a new operator, the PCs set up again (one KSP kept across the change) */
  {
    KSP                ksp;
    Vec                x1;
    PetscReal          rel, diff, xn;
    PetscInt           its;
    KSPConvergedReason reason;
    const char        *pcs[] = {"jacobi", "tileilu", "chebyci", "fftptdma"};

    for (int p = 0; p < 4; p++) {
      PetscCall(KSPCreate(comm, &ksp));
      PetscCall(KSPSetOperators(ksp, A, A));
      PetscCall(KSPSetType(ksp, KSPCG));
      {
        PC pc;
        PetscCall(KSPGetPC(ksp, &pc));
        PetscCall(PCSetType(pc, pcs[p]));
      }
      PetscCall(KSPSetTolerances(ksp, 1e-9, 0, PETSC_DEFAULT, 3000));
      PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
      PetscCall(SetDensity(da, n, ratio, 0.0, A));
      PetscCall(KSPSolve(ksp, b, x));
      PetscCall(VecDuplicate(x, &x1));
      PetscCall(VecCopy(x, x1));
      PetscCall(SetDensity(da, n, ratio, 0.1, A)); /* the bubbles moved by a tenth of the box along x */
      PetscCall(KSPSolve(ksp, b, x));
      PetscCall(KSPGetIterationNumber(ksp, &its));
      PetscCall(KSPGetConvergedReason(ksp, &reason));
      rel = TrueRel(A, x, b);
      PetscCall(VecAXPY(x1, -1.0, x));
      PetscCall(VecNorm(x1, NORM_2, &diff));
      PetscCall(VecNorm(x, NORM_2, &xn));
      PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-8 && reason > 0 && diff > 1e-3 * xn),
                         "moved bubbles, CG + %s kept: %" PetscInt_FMT " iterations, true relative residual of the new operator %.2e (<= 1e-8), solution changed by %.2e relative (> 1e-3)", pcs[p], its, (double)rel, (double)(diff / xn)));
      PetscCall(VecDestroy(&x1));
      PetscCall(KSPDestroy(&ksp));
    }
    PetscCall(SetDensity(da, n, ratio, 0.0, A));
  }
  for (PetscInt q = 0; selflg && q < nsel; q++) PetscCall(PetscFree(sel[q]));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}

static const char help[] = "KSP cbcg on bad input: an indefinite operator, a nonsymmetric operator, an indefinite\n\
preconditioner, wrong eigenvalue intervals, a NaN right-hand side, the iteration limit; and the\n\
standard KSP behaviour: nonzero initial guess with a null space, the three norms, residual\n\
replacement. Each ends with a clean converged reason (a right answer when it says converged).\n\
  -n <12>  grid points per direction\n\
  -reductions <0>  global reductions per block of every cbcg solve: 1 or 2 (0: the default)\n\n";

#include <ppekit.h>
#include "tap.h"
#include "vecutil.h"
#include <math.h>

static PetscInt variant = 0; /* -reductions */

/* the variant asked for by -reductions */
static PetscErrorCode SetVariant(KSP ksp)
{
  PetscFunctionBegin;
  if (variant) PetscCall(KSPCBCGSetSingleReduction(ksp, (PetscBool)(variant == 1)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  KSPConvergedReason reason;
  PetscInt           its;
  PetscReal          rrel; /* true relative residual */
  KSPCBCGStats       st;
} Outcome;

/* Solve with the given type and settings; x holds the initial guess when nonzero is set. */
static PetscErrorCode Run(Mat A, Vec b, Vec x, KSPType type, PCType pctype, PetscInt s, const PetscReal *eig, KSPNormType nt, PetscInt maxit, PetscBool nonzero, PetscInt replace, Outcome *o)
{
  KSP       ksp;
  PC        pc;
  Vec       r;
  PetscReal rn, bn;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, maxit));
  PetscCall(KSPSetNormType(ksp, nt));
  PetscCall(KSPSetInitialGuessNonzero(ksp, nonzero));
  if (s) {
    PetscCall(KSPCBCGSetS(ksp, s));
    PetscCall(SetVariant(ksp));
    if (eig) PetscCall(KSPCBCGSetEigenvalues(ksp, eig[0], eig[1]));
    PetscCall(KSPCBCGSetReplace(ksp, replace));
  }
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &o->reason));
  PetscCall(KSPGetIterationNumber(ksp, &o->its));
  if (s) PetscCall(KSPCBCGGetStats(ksp, &o->st));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  o->rrel = rn / bn;
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = -x: a negative definite preconditioner */
static PetscErrorCode ApplyNegative(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(x, y));
  PetscCall(VecScale(y, -1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A + alpha (E - E'), E the coupling to the x+ neighbour: nonsymmetric, positive real part */
static PetscErrorCode AddSkew(DM da, Mat A, PetscReal alpha)
{
  PetscInt xs, ys, zs, xm, ym, zm, M;

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil row =
                     {
                       k, j, i, 0
        },
                   col[2] = {{k, j, i - 1, 0}, {k, j, i + 1, 0}};
        PetscScalar v[2]  = {-alpha, alpha};
        PetscInt    c0 = i > 0 ? 0 : 1, c1 = i < M - 1 ? 2 : 1;
        if (c1 > c0) PetscCall(MatSetValuesStencil(A, 1, &row, c1 - c0, col + c0, v + c0, ADD_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Problem(MPI_Comm comm, PetscInt n, const char bc[], PPEGrid *grid, Mat *A, Vec *b)
{
  Vec       uex;
  PetscBool known, singular;
  DM        da;

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, grid));
  PetscCall(PPEGridSetSizes(*grid, n, n, n));
  PetscCall(PPEGridSetBCString(*grid, bc));
  PetscCall(PPEGridSetUp(*grid));
  PetscCall(PPEGridGetDM(*grid, &da));
  PetscCall(PPEStencilCreate(*grid, A));
  PetscCall(DMCreateGlobalVector(da, b));
  PetscCall(VecDuplicate(*b, &uex));
  PetscCall(PPEProblemComputeRHS(PPE_PROBLEM_MMS, *grid, *b, uex, &known));
  PetscCall(PPEGridIsSingular(*grid, &singular));
  if (singular) {
    PetscScalar sum;
    PetscInt    N;
    PetscCall(VecSum(*b, &sum));
    PetscCall(VecGetSize(*b, &N));
    PetscCall(VecShift(*b, -sum / N));
  }
  PetscCall(VecDestroy(&uex));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm  comm;
  PetscInt  n = 12;
  PPEGrid   grid;
  Mat       A, P;
  Vec       b, x, xcg;
  DM        da;
  PetscReal lmin, lmax, d, eig[2];
  Outcome   o, ocg;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reductions", &variant, NULL));

  /* --------------------------------------------------------- all-Dirichlet: SPD reference */
  PetscCall(Problem(comm, n, "DDDDDD", &grid, &A, &b));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PPEGridGetOperatorBounds(grid, &lmin, &lmax, NULL));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &xcg));
  PetscCall(Run(A, b, xcg, KSPCG, PCNONE, 0, NULL, KSP_NORM_PRECONDITIONED, 5000, PETSC_FALSE, 0, &ocg));

  /* indefinite operator: A - sigma I with sigma inside the spectrum */
  PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &P));
  PetscCall(MatShift(P, -0.3 * lmax));
  PetscCall(Run(P, b, x, KSPCBCG, PCNONE, 8, NULL, KSP_NORM_PRECONDITIONED, 5000, PETSC_FALSE, 0, &o));
  PetscCall(TapCheck(comm, (PetscBool)(o.reason == KSP_DIVERGED_INDEFINITE_MAT), "indefinite operator A - 0.3 lmax I: %s after %" PetscInt_FMT " iterations (want DIVERGED_INDEFINITE_MAT)", KSPConvergedReasons[o.reason], o.its));
  PetscCall(MatDestroy(&P));

  /* nonsymmetric operator: A + alpha (E - E') */
  PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &P));
  PetscCall(AddSkew(da, P, 0.05 * lmax));
  PetscCall(Run(P, b, x, KSPCBCG, PCNONE, 8, NULL, KSP_NORM_PRECONDITIONED, 5000, PETSC_FALSE, 0, &o));
  PetscCall(TapCheck(comm, (PetscBool)(o.reason == KSP_DIVERGED_NONSYMMETRIC), "nonsymmetric operator: %s after %" PetscInt_FMT " iterations (want DIVERGED_NONSYMMETRIC)", KSPConvergedReasons[o.reason], o.its));
  /* a weak asymmetry is below the detection limit: then the answer must be right when it converges */
  PetscCall(MatDestroy(&P));
  PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &P));
  PetscCall(AddSkew(da, P, 1e-9 * lmax));
  PetscCall(Run(P, b, x, KSPCBCG, PCNONE, 8, NULL, KSP_NORM_PRECONDITIONED, 5000, PETSC_FALSE, 0, &o));
  PetscCall(TapCheck(comm, (PetscBool)(o.reason < 0 || o.rrel <= 1e-10 * (1 + 1e-6)), "weakly nonsymmetric operator: %s, true relative residual %.2e (diverged, or converged with <= 1e-10 (1 + 1e-6): never converged with a wrong answer)",
                     KSPConvergedReasons[o.reason], (double)o.rrel));
  PetscCall(MatDestroy(&P));

  /* indefinite preconditioner */
  {
    KSP ksp;
    PC  pc;
    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCBCG));
    PetscCall(SetVariant(ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetApply(pc, ApplyNegative));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &o.reason));
    PetscCall(TapCheck(comm, (PetscBool)(o.reason == KSP_DIVERGED_INDEFINITE_PC), "negative definite preconditioner: %s (want DIVERGED_INDEFINITE_PC)", KSPConvergedReasons[o.reason]));
    PetscCall(KSPDestroy(&ksp));
  }

  /* wrong eigenvalue intervals: slower, never wrong */
  {
    const PetscReal wrong[3][2] = {
      {0,          0.01 * lmax },
      {0.5 * lmax, lmax        },
      {0,          1e-12 * lmax}
    };
    const char *what[3] = {"lmax 100 times too small", "lmin half of lmax", "lmax 1e12 times too small (the basis overflows)"};
    for (PetscInt w = 0; w < 3; w++) {
      PetscCall(Run(A, b, x, KSPCBCG, PCNONE, 8, wrong[w], KSP_NORM_PRECONDITIONED, 5000, PETSC_FALSE, 0, &o));
      PetscCall(TestRelDiff(x, xcg, NORM_2, &d));
      PetscCall(TapCheck(comm, (PetscBool)(o.reason > 0 && d <= 1e-8 && o.rrel <= 1e-10),
                         "wrong interval, %s: %s (want converged) in %" PetscInt_FMT " its (CG %" PetscInt_FMT "), %" PetscInt_FMT " blocks cut, %" PetscInt_FMT
                         " restarts, solution equals CG's to %.1e (<= 1e-8), true relative residual %.2e (<= 1e-10)",
                         what[w], KSPConvergedReasons[o.reason], o.its, ocg.its, o.st.truncations, o.st.restarts, (double)d, (double)o.rrel));
    }
    eig[0] = lmax;
    eig[1] = 0.5 * lmax;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    {
      KSP            ksp;
      PetscErrorCode ierr;
      PetscCall(KSPCreate(comm, &ksp));
      PetscCall(KSPSetType(ksp, KSPCBCG));
      PetscCall(SetVariant(ksp));
      PetscCall(SetVariant(ksp));
      ierr = KSPCBCGSetEigenvalues(ksp, eig[0], eig[1]);
      PetscCall(TapCheck(comm, (PetscBool)(ierr == PETSC_ERR_ARG_OUTOFRANGE), "KSPCBCGSetEigenvalues(lmin > lmax) is an error (code %d)", (int)ierr));
      ierr = KSPCBCGSetS(ksp, 17);
      PetscCall(TapCheck(comm, (PetscBool)(ierr == PETSC_ERR_ARG_OUTOFRANGE), "KSPCBCGSetS(17) is an error (code %d)", (int)ierr));
      PetscCall(KSPDestroy(&ksp));
    }
    PetscCall(PetscPopErrorHandler());
  }

  /* the iteration limit, not a multiple of s */
  PetscCall(Run(A, b, x, KSPCBCG, PCNONE, 8, NULL, KSP_NORM_PRECONDITIONED, 21, PETSC_FALSE, 0, &o));
  PetscCall(TapCheck(comm, (PetscBool)(o.reason == KSP_DIVERGED_ITS && o.its == 21), "max_it 21 with s = 8: %s after %" PetscInt_FMT " iterations (want %s after 21)", KSPConvergedReasons[o.reason], o.its, KSPConvergedReasons[KSP_DIVERGED_ITS]));

  /* the three norms and residual replacement give CG's answer */
  {
    const KSPNormType nts[3] = {KSP_NORM_PRECONDITIONED, KSP_NORM_UNPRECONDITIONED, KSP_NORM_NATURAL};
    for (PetscInt t = 0; t < 3; t++) {
      PetscCall(Run(A, b, xcg, KSPCG, PCJACOBI, 0, NULL, nts[t], 5000, PETSC_FALSE, 0, &ocg));
      PetscCall(Run(A, b, x, KSPCBCG, PCJACOBI, 6, NULL, nts[t], 5000, PETSC_FALSE, t == 2 ? 3 : 0, &o));
      PetscCall(TestRelDiff(x, xcg, NORM_2, &d));
      PetscCall(TapCheck(comm, (PetscBool)(o.reason > 0 && d <= 1e-8 && (t < 2 || o.st.replacements > 0)), "%s norm%s: %s (want converged) in %" PetscInt_FMT " its (CG %" PetscInt_FMT "), solution equals CG's to %.1e (<= 1e-8)%s%" PetscInt_FMT "%s",
                         KSPNormTypes[nts[t]], t == 2 ? " with residual replacement every 3 blocks" : "", KSPConvergedReasons[o.reason], o.its, ocg.its, (double)d, t == 2 ? ", " : " (", (PetscInt)o.st.replacements,
                         t == 2 ? " replacements (want > 0)" : " replacements)"));
    }
  }

  /* one KSP, s changed between solves (the blocks are reallocated) */
  {
    KSP                ksp;
    KSPConvergedReason r1, r2;
    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCBCG));
    PetscCall(SetVariant(ksp));
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(KSPSolve(ksp, b, xcg));
    PetscCall(KSPGetConvergedReason(ksp, &r1));
    PetscCall(KSPCBCGSetS(ksp, 13));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetConvergedReason(ksp, &r2));
    PetscCall(TestRelDiff(x, xcg, NORM_2, &d));
    PetscCall(
      TapCheck(comm, (PetscBool)(r1 > 0 && r2 > 0 && d <= 1e-8), "KSPCBCGSetS(13) between two solves with one KSP: %s, %s (want both converged), solutions agree to %.1e (<= 1e-8)", KSPConvergedReasons[r1], KSPConvergedReasons[r2], (double)d));
    PetscCall(KSPDestroy(&ksp));
  }

  /* NaN in the right-hand side: a reason, or an error when asked for */
  {
    KSP            ksp;
    PetscErrorCode ierr;
    PetscCall(VecSetValue(b, 0, (PetscScalar)NAN, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(b));
    PetscCall(VecAssemblyEnd(b));
    PetscCall(Run(A, b, x, KSPCBCG, PCJACOBI, 8, NULL, KSP_NORM_PRECONDITIONED, 5000, PETSC_FALSE, 0, &o));
    PetscCall(TapCheck(comm, (PetscBool)(o.reason == KSP_DIVERGED_NANORINF), "NaN right-hand side: %s after %" PetscInt_FMT " iterations (want DIVERGED_NANORINF)", KSPConvergedReasons[o.reason], o.its));
    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCBCG));
    PetscCall(SetVariant(ksp));
    PetscCall(KSPSetErrorIfNotConverged(ksp, PETSC_TRUE));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = KSPSolve(ksp, b, x);
    PetscCall(PetscPopErrorHandler());
    PetscCall(TapCheck(comm, (PetscBool)(ierr == PETSC_ERR_NOT_CONVERGED), "NaN right-hand side with KSPSetErrorIfNotConverged: PETSc error %d (want PETSC_ERR_NOT_CONVERGED)", (int)ierr));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xcg));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));

  /* --------------------------------------------------------- all-Neumann: null space, nonzero initial guess */
  PetscCall(Problem(comm, n, "NNNNNN", &grid, &A, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &xcg));
  {
    PetscRandom rnd;
    Vec         x0;
    PetscScalar m0, m1;
    PetscInt    N;
    PetscCall(VecDuplicate(b, &x0));
    PetscCall(PetscRandomCreate(comm, &rnd));
    PetscCall(VecSetRandom(x0, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecShift(x0, 3.0)); /* a clear null-space component */
    PetscCall(VecCopy(x0, xcg));
    PetscCall(Run(A, b, xcg, KSPCG, PCJACOBI, 0, NULL, KSP_NORM_PRECONDITIONED, 5000, PETSC_TRUE, 0, &ocg));
    PetscCall(VecCopy(x0, x));
    PetscCall(Run(A, b, x, KSPCBCG, PCJACOBI, 8, NULL, KSP_NORM_PRECONDITIONED, 5000, PETSC_TRUE, 0, &o));
    PetscCall(TestRelDiff(x, xcg, NORM_2, &d));
    PetscCall(VecSum(x0, &m0));
    PetscCall(VecSum(x, &m1));
    PetscCall(VecGetSize(x, &N));
    PetscCall(TapCheck(comm, (PetscBool)(o.reason > 0 && d <= 1e-8 && PetscAbsScalar(m1 - m0) <= 1e-8 * PetscAbsScalar(m0)),
                       "singular operator, nonzero initial guess: %s (want converged) in %" PetscInt_FMT " its (CG %" PetscInt_FMT "), solution equals CG's to %.1e (<= 1e-8), mean of x0 kept (%.6f vs %.6f, to 1e-8 relative)",
                       KSPConvergedReasons[o.reason], o.its, ocg.its, (double)d, (double)PetscRealPart(m1 / N), (double)PetscRealPart(m0 / N)));
    PetscCall(VecDestroy(&x0));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xcg));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscCall(PetscFinalize());
  return 0;
}

static const char help[] = "KSP bcgsfused against PETSc's bcgs (right-preconditioned) with the same PC:\n\
iterations within 5%, solutions within 1e-8, strictly fewer global reductions per iteration\n\
(counted); the fused stencil apply + dot against MatMult + VecDot; fused vs unfused; a nonzero\n\
initial guess; a changing preconditioner (PCKSP); breakdowns (rho = 0, t = 0, rt'A p = 0).\n\n";

#include <ppekit.h>
#include "tap.h"
#include "vecutil.h"

static PetscReal rtol = 1e-12;

/* PPEStencilMultDot: y bitwise MatMult's, the local dots summed = VecDot. */
static PetscErrorCode CheckFusedApply(MPI_Comm comm, PPEGrid g, Mat A)
{
  Vec         x, y1, y2, u;
  PetscRandom rnd;
  PetscScalar d[2], e[2];
  PetscBool   eq = PETSC_FALSE;
  PetscReal   rel;
  Vec         ops[2];

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &y1));
  PetscCall(VecDuplicate(x, &y2));
  PetscCall(VecDuplicate(x, &u));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 3));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(u, rnd));
  PetscCall(MatMult(A, x, y1));
  ops[0] = u;
  ops[1] = y2;
  PetscCall(PPEStencilMultDot(A, x, y2, 2, ops, d));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, d, 2, MPIU_SCALAR, MPIU_SUM, comm));
  PetscCall(TestBitwiseEqual(y1, y2, &eq));
  PetscCall(VecDot(y1, u, &e[0]));
  PetscCall(VecDot(y1, y1, &e[1]));
  rel = PetscMax(PetscAbsScalar(d[0] - e[0]) / PetscAbsScalar(e[0]), PetscAbsScalar(d[1] - e[1]) / PetscAbsScalar(e[1]));
  PetscCall(TapCheck(comm, (PetscBool)(eq && rel < 1e-12), "fused apply + dots: output bitwise MatMult's: %s (want yes), dots y'u and y'y = VecDot to %.1e (< 1e-12)", eq ? "yes" : "no", (double)rel));
  ops[0] = x; /* the input as an operand */
  PetscCall(PPEStencilMultDot(A, x, y2, 1, ops, d));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, d, 1, MPIU_SCALAR, MPIU_SUM, comm));
  PetscCall(VecDot(y1, x, &e[0]));
  rel = PetscAbsScalar(d[0] - e[0]) / PetscAbsScalar(e[0]);
  PetscCall(TapCheck(comm, (PetscBool)(rel < 1e-12), "fused apply + dot with the input x: y'x = VecDot to %.1e", (double)rel));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&u));
  (void)g;
  PetscFunctionReturn(0);
}

/* Solve with the options in opts (prefix-free string), return iterations, reductions counted, solution. */
static PetscErrorCode Solve(Mat A, Vec b, Vec x0, const char ksptype[], const char pcsetup[], PetscBool fuse, Vec x, PetscInt *its, PetscLogDouble *red, KSPConvergedReason *reason, PetscInt *myred)
{
  KSP         ksp;
  PC          pc;
  PPECounters c0, c1, dc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, ksptype));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetTolerances(ksp, rtol, 1e-50, PETSC_DEFAULT, 2000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pcsetup));
  if (!strcmp(pcsetup, PCCHEBYCI)) PetscCall(PCChebyCISetIterations(pc, 6));
  if (!strcmp(ksptype, KSPBCGSFUSED)) PetscCall(KSPBCGSFusedSetFuse(ksp, fuse));
  PetscCall(KSPSetOptionsPrefix(ksp, "t_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  if (x0) {
    PetscCall(VecCopy(x0, x));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  } else PetscCall(VecSet(x, 0.0));
  PetscCall(PPECountersGet(&c0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PPECountersGet(&c1));
  PetscCall(PPECountersDiff(&c1, &c0, &dc));
  *red = dc.reductions;
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  if (myred) PetscCall(KSPBCGSFusedGetReductionCount(ksp, myred));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

static PetscErrorCode CompareWithBCGS(MPI_Comm comm, Mat A, Vec b, Vec x0, const char pctype[], PCChebyCIMode mode)
{
  Vec                x1, x2, x3;
  PetscInt           i1, i2, i3, my;
  PetscLogDouble     r1, r2, r3;
  KSPConvergedReason c1, c2, c3;
  PetscReal          rel, rel3;
  PetscMPIInt        size;
  char               tag[64];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "PC %s%s%s%s", pctype, strcmp(pctype, PCCHEBYCI) ? "" : " ", strcmp(pctype, PCCHEBYCI) ? "" : PCChebyCIModes[mode], x0 ? ", nonzero guess" : ""));
  if (!strcmp(pctype, PCCHEBYCI)) PetscCall(PetscOptionsSetValue(NULL, "-t_pc_chebyci_mode", PCChebyCIModes[mode]));
  PetscCall(VecDuplicate(b, &x1));
  PetscCall(VecDuplicate(b, &x2));
  PetscCall(VecDuplicate(b, &x3));
  PetscCall(Solve(A, b, x0, KSPBCGSFUSED, pctype, PETSC_TRUE, x1, &i1, &r1, &c1, &my));
  PetscCall(Solve(A, b, x0, KSPBCGS, pctype, PETSC_TRUE, x2, &i2, &r2, &c2, NULL));
  PetscCall(Solve(A, b, x0, KSPBCGSFUSED, pctype, PETSC_FALSE, x3, &i3, &r3, &c3, NULL));
  PetscCall(TestRelDiff(x1, x2, NORM_2, &rel));
  PetscCall(TestRelDiff(x1, x3, NORM_2, &rel3));
  PetscCall(TapCheck(comm, (PetscBool)(c1 > 0 && c2 > 0 && PetscAbsInt(i1 - i2) <= 0.05 * i2), "%s: bcgsfused %d its (%s) vs bcgs %d its (%s) (want both converged): within 5%% (difference %d <= %.2f)", tag, (int)i1, KSPConvergedReasons[c1], (int)i2,
                     KSPConvergedReasons[c2], (int)PetscAbsInt(i1 - i2), 0.05 * i2));
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-8), "%s: solutions agree to %.2e", tag, (double)rel));
  PetscCall(TapCheck(comm, (PetscBool)(my == 3 * i1 + 1), "%s: bcgsfused reports %d reductions = 3 per iteration + 1", tag, (int)my));
  if (size > 1)
    PetscCall(TapCheck(comm, (PetscBool)(r1 <= 3 * i1 + 3 && r1 / i1 < r2 / i2), "%s: counted reductions per iteration %.3f (bcgsfused) < %.3f (bcgs), bcgsfused's count %g <= 3 its + 3 = %d", tag, r1 / i1, r2 / i2, (double)r1, (int)(3 * i1 + 3)));
  PetscCall(TapCheck(comm, (PetscBool)(c3 > 0 && i3 == i1 && rel3 <= 1e-10), "%s: unfused (MatMult, then dots) %s in %d its (want converged in the fused %d), solution within %.1e of the fused one (<= 1e-10)", tag, KSPConvergedReasons[c3], (int)i3,
                     (int)i1, (double)rel3));
  PetscCall(PetscOptionsClearValue(NULL, "-t_pc_chebyci_mode"));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscCall(VecDestroy(&x3));
  PetscFunctionReturn(0);
}

/* A changing preconditioner: PCKSP with an inner bcgs to rtol 1e-2. */
static PetscErrorCode CheckFlexible(MPI_Comm comm, Mat A, Vec b)
{
  KSP                ksp, inner;
  PC                 pc;
  Vec                x, r;
  PetscInt           its;
  PetscReal          rn, bn;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPBCGSFUSED));
  PetscCall(KSPSetTolerances(ksp, 1e-10, 1e-50, PETSC_DEFAULT, 500));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCKSP));
  PetscCall(PCKSPGetKSP(pc, &inner));
  PetscCall(KSPSetType(inner, KSPBCGS));
  PetscCall(KSPSetTolerances(inner, 1e-2, 1e-50, PETSC_DEFAULT, 500));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  PetscCall(TapCheck(comm, (PetscBool)(reason > 0 && rn <= 1e-9 * bn), "changing preconditioner (inner bcgs, rtol 1e-2): %s in %d its (want converged), true residual %.2e (<= 1e-9)", KSPConvergedReasons[reason], (int)its, (double)(rn / bn)));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

/* Block-diagonal copies of a small dense block, b = copies of a small vector. */
static PetscErrorCode BlockSystem(MPI_Comm comm, PetscInt nb, PetscInt m, const PetscScalar blk[], const PetscScalar bb[], Mat *A, Vec *b)
{
  PetscInt lo, hi;

  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, nb * m, nb * m, m, NULL, m, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscInt q = i / m, r = i % m;
    for (PetscInt c = 0; c < m; c++)
      if (blk[r * m + c] != 0.0) PetscCall(MatSetValue(*A, i, q * m + c, blk[r * m + c], INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(*A, NULL, b));
  PetscCall(VecGetOwnershipRange(*b, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(*b, i, bb[i % m], INSERT_VALUES));
  PetscCall(VecAssemblyBegin(*b));
  PetscCall(VecAssemblyEnd(*b));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckBreakdown(MPI_Comm comm, PetscInt m, const PetscScalar blk[], const PetscScalar bb[], KSPConvergedReason expect, PetscInt eits, const char what[])
{
  Mat                A;
  Vec                b, x;
  KSP                ksp;
  KSPConvergedReason reason;
  PetscInt           its;

  PetscFunctionBegin;
  PetscCall(BlockSystem(comm, 8, m, blk, bb, &A, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPBCGSFUSED));
  PetscCall(KSPSetTolerances(ksp, 1e-8, 1e-50, PETSC_DEFAULT, 10));
  {
    PC pc;
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCNONE));
  }
  PetscCall(KSPSetOptionsPrefix(ksp, "bd_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(TapCheck(comm, (PetscBool)(reason == expect && its == eits), "%s: %s after %d its (expected %s after %d)", what, KSPConvergedReasons[reason], (int)its, KSPConvergedReasons[expect], (int)eits));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

/* The paper's problem on a small grid, shifted by sigma (PPEGridSetShift). */
static PetscErrorCode PaperSystem(MPI_Comm comm, const PetscInt n[3], PetscReal sigma, PPEGrid *g, Mat *A, Vec *b)
{
  PetscBool known;

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, g));
  PetscCall(PPEProblemSetGridDefaults(PPE_PROBLEM_BICGSTAB_PAPER, *g));
  PetscCall(PPEGridSetSizes(*g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetShift(*g, sigma));
  PetscCall(PPEGridSetUp(*g));
  PetscCall(PPEStencilCreate(*g, A));
  PetscCall(MatCreateVecs(*A, NULL, b));
  PetscCall(PPEProblemComputeRHS(PPE_PROBLEM_BICGSTAB_PAPER, *g, *b, NULL, &known));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PPEGrid     g, gs;
  Mat         A, As;
  Vec         b, bs, x0;
  PetscRandom rnd;
  PetscInt    n[3] = {16, 15, 14}, nn = 3;
  PetscReal   shift = 1.0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-shift", &shift, NULL));
  PetscCall(PaperSystem(comm, n, 0.0, &g, &A, &b));
  PetscCall(PaperSystem(comm, n, shift, &gs, &As, &bs));
  PetscCall(VecDuplicate(b, &x0));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 5));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x0, rnd));

  PetscCall(CheckFusedApply(comm, g, A));
  /* Bi-CGSTAB's iteration count without a good preconditioner varies by several percent with
     the rounding of the dot products alone (fused vs unfused as much as vs bcgs): compare
     those on the shifted (Helmholtz) operator, the Chebyshev PCs on the paper's Poisson one */
  PetscCall(CompareWithBCGS(comm, As, bs, NULL, PCNONE, PC_CHEBYCI_GLOBAL));
  PetscCall(CompareWithBCGS(comm, As, bs, NULL, PCJACOBI, PC_CHEBYCI_GLOBAL));
  PetscCall(CompareWithBCGS(comm, As, bs, NULL, PCCHEBYCI, PC_CHEBYCI_NOCOMM));
  PetscCall(CompareWithBCGS(comm, A, b, NULL, PCCHEBYCI, PC_CHEBYCI_GLOBAL));
  PetscCall(CompareWithBCGS(comm, A, b, NULL, PCCHEBYCI, PC_CHEBYCI_NOCOMM));
  PetscCall(CompareWithBCGS(comm, A, b, x0, PCCHEBYCI, PC_CHEBYCI_BLOCK));
  PetscCall(CheckFlexible(comm, A, b));
  {
    const PetscScalar skew[4] = {0, 1, -1, 0}, b2[2] = {1, 0.5};
    const PetscScalar nilp[4] = {1, 1, 0, 0}, b3[2] = {1, 1};
    const PetscScalar blk3[9] = {2, 1, 1, 1, 3, 0, 0, 0, 1}, b4[3] = {0, 0, 1};
    const PetscScalar eye[1] = {1}, b5[1] = {2};
    PetscCall(CheckBreakdown(comm, 2, skew, b2, KSP_DIVERGED_BREAKDOWN_BICG, 0, "skew-symmetric operator, rt'A p = 0"));
    PetscCall(CheckBreakdown(comm, 3, blk3, b4, KSP_DIVERGED_BREAKDOWN_BICG, 1, "rho = rt'r = 0 after one iteration"));
    PetscCall(CheckBreakdown(comm, 2, nilp, b3, KSP_DIVERGED_BREAKDOWN, 0, "t = A s = 0 with s != 0 (omega undefined)"));
    PetscCall(CheckBreakdown(comm, 1, eye, b5, KSP_CONVERGED_ATOL, 1, "identity: s = 0, exact solution after one step"));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&bs));
  PetscCall(VecDestroy(&x0));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&As));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(PPEGridDestroy(&gs));
  PetscCall(PetscFinalize());
  return 0;
}

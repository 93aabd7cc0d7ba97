static const char help[] = "PC fftptdma -pc_fftptdma_approximate on symmetric variable-coefficient matrices: the\n\
multiphase pressure matrix A = -div(beta grad p), beta = 1/rho, assembled here without PPEKit's\n\
stencil code (cell-centred 7-point, face beta 2/(rho_L + rho_R)) on a 3D DMDA, 6 spheres of\n\
rho = 1 in rho = ratio, x and y periodic, z walls zero-flux (singular, constant null space\n\
attached, consistent right-hand side A v) or Dirichlet (2 beta/h^2 on the wall cells' diagonal).\n\
For ratios 1.5, 10 and 1000 it checks that the PC applies a symmetric operator\n\
(x' M^-1 y = y' M^-1 x to 1e-12 relative), positive definite off the null space (x' M^-1 x > 0),\n\
that -ksp_view names the approximation (M = c S, one constant scaling), and that CG with it\n\
reaches the true relative residual 1e-8 within a bound; at the largest ratio also the singular\n\
matrix without an attached null space, and a matrix with vertex-centred Neumann ends in x (a\n\
separable model that is symmetric only with the PC's weights). Next to each count it reports\n\
that of the alternative the PC was compared with, the symmetric diagonal scaling\n\
D^-1/2 S^-1 D^-1/2 (D = diag(A) / diag(S)).\n\
  -n N          cells per direction (default 24; the bounds are checked at 24 only)\n\
  -ratios r,... density ratios (default 1.5,10,1000; bounds for these values only)\n\
  -t410_ksp_... options of the CG solves (e.g. -t410_ksp_view)\n\n";

#include <ppekit.h>
#include <ppekit/private/separableimpl.h>
#include <ppekit/private/fftptdmaimpl.h>
#include <petscdmda.h>
#include <petscksp.h>
#include "tap.h"

#define NSPHERE 6
#define RTOL    1e-8

typedef struct {
  PetscReal c[3], r;
} Sphere;

/* The next value in [0, 1) of a 64-bit linear congruential generator (Knuth's MMIX
   constants): the same sequence on every rank, compiler and platform. */
static PetscReal Uniform(uint64_t *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)(*s >> 11) * 0x1.0p-53;
}

/* 6 spheres inside the unit box, centres in [0.2, 0.8]^3, radii in [0.08, 0.16] */
static void MakeSpheres(Sphere sp[NSPHERE])
{
  uint64_t s = 20261128;

  for (int q = 0; q < NSPHERE; q++) {
    for (int d = 0; d < 3; d++) sp[q].c[d] = 0.2 + 0.6 * Uniform(&s);
    sp[q].r = 0.08 + 0.08 * Uniform(&s);
  }
}

/* Density of cell (i,j,k) of n^3 (indices wrapped in the periodic x and y): 1 where its centre
   lies in a sphere, ratio elsewhere. */
static PetscReal Density(const Sphere sp[NSPHERE], PetscInt n, PetscReal ratio, PetscInt i, PetscInt j, PetscInt k)
{
  PetscReal h = 1.0 / n, x[3];

  i    = (i + n) % n;
  j    = (j + n) % n;
  x[0] = (i + 0.5) * h, x[1] = (j + 0.5) * h, x[2] = (k + 0.5) * h;
  for (int q = 0; q < NSPHERE; q++) {
    PetscReal d2 = 0;
    for (int d = 0; d < 3; d++) d2 += (x[d] - sp[q].c[d]) * (x[d] - sp[q].c[d]);
    if (d2 < sp[q].r * sp[q].r) return 1.0;
  }
  return ratio;
}

/* A = -div(beta grad) on the n^3 cells of the unit box: face coefficient 2/(rho_L + rho_R)
   over h^2, no flux through a zero-flux wall, 2 beta/h^2 on the diagonal at a Dirichlet wall
   (the ghost value eliminated, wall half a cell away). xvertex: x is not periodic but has
   vertex-centred Neumann ends, assembled symmetrically (the end nodes' half control volumes
   halve their y and z couplings), whose separable model is not symmetric without weights. */
static PetscErrorCode Assemble(DM da, PetscInt n, PetscReal ratio, PetscBool dirichlet, PetscBool xvertex, Mat A)
{
  Sphere    sp[NSPHERE];
  PetscInt  xs, ys, zs, xm, ym, zm;
  PetscReal h2 = 1.0 / ((PetscReal)n * n);

  PetscFunctionBegin;
  MakeSpheres(sp);
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PetscInt off[6][3] = {
          {-1, 0,  0 },
          {1,  0,  0 },
          {0,  -1, 0 },
          {0,  1,  0 },
          {0,  0,  -1},
          {0,  0,  1 }
        };
        MatStencil  row = {.i = i, .j = j, .k = k}, col[7];
        PetscScalar v[7];
        PetscInt    nc  = 1;
        PetscReal   rho = Density(sp, n, ratio, i, j, k), diag = 0;

        for (int f = 0; f < 6; f++) {
          PetscInt  ni = i + off[f][0], nj = j + off[f][1], nk = k + off[f][2];
          PetscReal beta, half = (xvertex && f >= 2 && (i == 0 || i == n - 1)) ? 0.5 : 1.0;

          if (xvertex && (ni < 0 || ni >= n)) continue; /* no flux through the x ends */
          if (nk < 0 || nk >= n) {                      /* a wall */
            if (dirichlet) diag += half * 2.0 / rho / h2;
            continue;
          }
          beta      = half * 2.0 / (rho + Density(sp, n, ratio, ni, nj, nk));
          col[nc].i = ni, col[nc].j = nj, col[nc].k = nk;
          v[nc++] = -beta / h2;
          diag += beta / h2;
        }
        col[0] = row;
        v[0]   = diag;
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Random values in [-1, 1) from the cell's natural index and a seed: the same vector at every
   rank count. */
static PetscErrorCode FillRandom(DM da, PetscInt n, uint64_t seed, Vec v)
{
  PetscScalar ***a;
  PetscInt       xs, ys, zs, xm, ym, zm;

  PetscFunctionBegin;
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(DMDAVecGetArray(da, v, &a));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        uint64_t s = seed * 0x9E3779B97F4A7C15ULL + (uint64_t)(i + n * (j + n * k));
        (void)Uniform(&s);
        a[k][j][i] = 2 * Uniform(&s) - 1;
      }
  PetscCall(DMDAVecRestoreArray(da, v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v less its mean: orthogonal to the constant null space */
static PetscErrorCode RemoveMean(Vec v)
{
  PetscScalar s;
  PetscInt    N;

  PetscFunctionBegin;
  PetscCall(VecSum(v, &s));
  PetscCall(VecGetSize(v, &N));
  PetscCall(VecShift(v, -s / (PetscReal)N));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the stop on the true relative residual ||b - A x|| / ||b|| <= RTOL */
typedef struct {
  Mat       A;
  Vec       b, t, r;
  PetscReal bnorm, tres; /* ||b||, the last true relative residual computed */
} TrueStop;

static PetscErrorCode TrueStopTest(KSP ksp, PetscInt it, PetscReal rn, KSPConvergedReason *reason, void *ctx)
{
  TrueStop *s = (TrueStop *)ctx;
  Vec       x;

  PetscFunctionBegin;
  *reason = KSP_CONVERGED_ITERATING;
  if (PetscIsInfOrNanReal(rn)) {
    *reason = KSP_DIVERGED_NANORINF;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (it == 0 || rn > RTOL * s->bnorm) PetscFunctionReturn(PETSC_SUCCESS); /* the recursive (unpreconditioned) norm first */
  PetscCall(KSPBuildSolution(ksp, s->t, &x));
  PetscCall(MatMult(s->A, x, s->r));
  PetscCall(VecAYPX(s->r, -1.0, s->b));
  PetscCall(VecNorm(s->r, NORM_2, &s->tres));
  s->tres /= s->bnorm;
  if (s->tres <= RTOL) *reason = KSP_CONVERGED_RTOL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the alternative the PC was compared with: the symmetric diagonal scaling
   M^-1 = D^-1/2 S^-1 D^-1/2 with S = W U and D = diag(A) / diag(S) as the PC makes them
   (PPESeparableSymmetricScaling()), S^+ when singular (PPEFFTPTDMAApplyScaled() with c = 1) */
typedef struct {
  PPESeparable *sep;
  PPEFFTPTDMA   f;
  Mat           A;
  Vec           dhalf, w, w2;
} DiagPC;

static PetscErrorCode DiagApply(PC pc, Vec x, Vec y)
{
  DiagPC *c;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &c));
  PetscCall(VecPointwiseMult(c->w, c->dhalf, x));
  PetscCall(PPEFFTPTDMAApplyScaled(&c->f, c->sep, c->A, 1.0, c->w2, c->w, y)); /* S^-1, or S^+ */
  PetscCall(VecPointwiseMult(y, c->dhalf, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DiagSetUp(DiagPC *c, Mat A, DM da)
{
  Vec       w;
  PetscReal cs, dr[2];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->A = A;
  PetscCall(PPESeparableInferFromMat(A, da, PETSC_TRUE, NULL, &c->sep));
  PetscCheck(c->sep->rowscale, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the approximation of a variable-coefficient matrix has row scalings");
  PetscCall(PPESeparableSymmetricScaling(c->sep, da, &w, &cs, dr)); /* S = W U, D = R / W */
  PetscCall(VecDuplicate(c->sep->rowscale, &c->dhalf));
  PetscCall(VecDuplicate(c->sep->rowscale, &c->w));
  PetscCall(VecDuplicate(c->sep->rowscale, &c->w2));
  if (w) PetscCall(VecPointwiseDivide(c->dhalf, w, c->sep->rowscale));
  else PetscCall(VecReciprocal(c->sep->rowscale));
  if (!w) PetscCall(VecCopy(c->sep->rowscale, c->dhalf));
  PetscCall(VecSqrtAbs(c->dhalf)); /* (W / R)^1/2 = D^-1/2 */
  PetscCall(VecDestroy(&c->sep->rowscale));
  c->sep->rowscale = w; /* the solver applies U^-1 W^-1 = S^-1 */
  PetscCall(PPEFFTPTDMASetUp(&c->f, PetscObjectComm((PetscObject)A), da, c->sep, NULL, PPE_FFT_ZSOLVE_AUTO, PPE_FFT_PLANNER_ESTIMATE, PETSC_TRUE, PPE_FFT_DCT_AUTO, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DiagDestroy(DiagPC *c)
{
  PetscFunctionBegin;
  PetscCall(PPEFFTPTDMAReset(&c->f));
  PetscCall(PPESeparableDestroy(&c->sep));
  PetscCall(VecDestroy(&c->dhalf));
  PetscCall(VecDestroy(&c->w));
  PetscCall(VecDestroy(&c->w2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CG from a zero initial guess with PC fftptdma -pc_fftptdma_approximate (dpc NULL) or the
   diagonal scaling: iterations, reason and true relative residual; view: the PC's view
   (rank 0's) when not NULL. */
static PetscErrorCode SolveCG(Mat A, Vec b, DiagPC *dpc, PetscInt *its, KSPConvergedReason *reason, PetscReal *tres, char *view, size_t nview)
{
  KSP      ksp;
  PC       pc;
  Vec      x;
  TrueStop s;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  if (dpc) {
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetContext(pc, dpc));
    PetscCall(PCShellSetApply(pc, DiagApply));
  } else {
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCFFTPTDMASetApproximate(pc, PETSC_TRUE));
  }
  PetscCall(KSPSetTolerances(ksp, RTOL, PETSC_DEFAULT, PETSC_DEFAULT, 5000));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  s.A    = A;
  s.b    = b;
  s.tres = -1;
  PetscCall(VecNorm(b, NORM_2, &s.bnorm));
  PetscCall(VecDuplicate(b, &s.t));
  PetscCall(VecDuplicate(b, &s.r));
  PetscCall(KSPSetConvergenceTest(ksp, TrueStopTest, &s, NULL));
  PetscCall(KSPSetOptionsPrefix(ksp, "t410_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(MatMult(A, x, s.r));
  PetscCall(VecAYPX(s.r, -1.0, b));
  PetscCall(VecNorm(s.r, NORM_2, tres));
  *tres /= s.bnorm;
  if (view) { /* the PC's view, written to a file (collective) and read back on rank 0 */
    PetscViewer v;
    PetscMPIInt rank, size;
    char        file[64];

    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
    PetscCall(PetscSNPrintf(file, sizeof(file), "t410-view-np%d.txt", (int)size));
    PetscCall(PetscViewerASCIIOpen(PetscObjectComm((PetscObject)A), file, &v));
    PetscCall(PCView(pc, v));
    PetscCall(PetscViewerDestroy(&v));
    view[0] = 0;
    if (rank == 0) {
      FILE  *f = fopen(file, "r");
      size_t nr;
      PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read back %s", file);
      nr       = fread(view, 1, nview - 1, f);
      view[nr] = 0;
      fclose(f);
      remove(file);
    }
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&s.t));
  PetscCall(VecDestroy(&s.r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (1) symmetry of the PC's application and (2) positivity, with random vectors (orthogonal
   to the constants when singular); the PC set up on A with the approximation. */
static PetscErrorCode CheckSymmetry(Mat A, DM da, PetscInt n, PetscBool singular, const char *name)
{
  PC        pc;
  Vec       x[3], y[3];
  PetscReal sym = 0, pmin = PETSC_MAX_REAL;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), &pc));
  PetscCall(PCSetType(pc, PCFFTPTDMA));
  PetscCall(PCFFTPTDMASetApproximate(pc, PETSC_TRUE));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetUp(pc));
  for (int q = 0; q < 3; q++) {
    PetscCall(DMCreateGlobalVector(da, &x[q]));
    PetscCall(VecDuplicate(x[q], &y[q]));
  }
  /* symmetry on unprojected random vectors (the PC's operator is symmetric on every vector) */
  for (int q = 0; q < 2; q++) {
    PetscCall(FillRandom(da, n, 101 + q, x[q]));
    PetscCall(PCApply(pc, x[q], y[q]));
  }
  {
    PetscScalar xy, yx, xx, yy;
    PetscCall(VecDot(x[0], y[1], &xy)); /* x0' M^-1 x1 */
    PetscCall(VecDot(x[1], y[0], &yx)); /* x1' M^-1 x0 */
    PetscCall(VecDot(x[0], y[0], &xx));
    PetscCall(VecDot(x[1], y[1], &yy));
    /* relative to sqrt(x0' M^-1 x0 x1' M^-1 x1), the bound of |x0' M^-1 x1| when M^-1 is
       positive semidefinite (random vectors have a component off the null space) */
    sym = PetscAbsScalar(xy - yx) / PetscSqrtReal(PetscAbsScalar(xx) * PetscAbsScalar(yy));
  }
  /* positivity on random vectors orthogonal to the null space */
  for (int q = 0; q < 3; q++) {
    PetscScalar xMx;
    PetscReal   xn;
    PetscCall(FillRandom(da, n, 201 + q, x[q]));
    if (singular) PetscCall(RemoveMean(x[q]));
    PetscCall(PCApply(pc, x[q], y[q]));
    PetscCall(VecDot(x[q], y[q], &xMx));
    PetscCall(VecNorm(x[q], NORM_2, &xn));
    pmin = PetscMin(pmin, PetscRealPart(xMx) / (xn * xn));
  }
  PetscCall(TapCheck(PetscObjectComm((PetscObject)A), (PetscBool)(sym <= 1e-12), "%s: PCApply symmetric: |x'M^-1y - y'M^-1x| / sqrt(x'M^-1x y'M^-1y) = %.2e (<= 1e-12)", name, (double)sym));
  PetscCall(TapCheck(PetscObjectComm((PetscObject)A), (PetscBool)(pmin > 0), "%s: x'M^-1x / x'x > 0 for 3 random x%s: smallest %.3e", name, singular ? " orthogonal to the constants" : "", (double)pmin));
  for (int q = 0; q < 3; q++) {
    PetscCall(VecDestroy(&x[q]));
    PetscCall(VecDestroy(&y[q]));
  }
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One matrix: the checks of the PC's operator, CG with the approximation (iterations at most
   bound; bound < 0: not checked) and with the diagonal scaling (reported; with the null
   space attached only). */
static PetscErrorCode RunCase(MPI_Comm comm, PetscInt n, PetscReal ratio, PetscBool dirichlet, PetscBool xvertex, PetscBool nullspace, PetscInt bound)
{
  DM                 da;
  Mat                A;
  Vec                v, b;
  PetscInt           its[2];
  PetscReal          tres[2];
  KSPConvergedReason reason[2];
  DiagPC             dpc;
  char               name[96], view[8192];
  PetscBool          singular = (PetscBool)!dirichlet, named;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%d^3 %s%s, ratio %g%s", (int)n, xvertex ? "vertex Neumann x, " : "", dirichlet ? "Dirichlet z" : "zero-flux z (singular)", (double)ratio, singular && !nullspace ? ", no null space attached" : ""));
  PetscCall(DMDACreate3d(comm, xvertex ? DM_BOUNDARY_NONE : DM_BOUNDARY_PERIODIC, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(Assemble(da, n, ratio, dirichlet, xvertex, A));
  if (singular && nullspace) {
    MatNullSpace nsp;
    PetscCall(MatNullSpaceCreate(comm, PETSC_TRUE, 0, NULL, &nsp));
    PetscCall(MatSetNullSpace(A, nsp));
    PetscCall(MatNullSpaceDestroy(&nsp));
  }
  PetscCall(DMCreateGlobalVector(da, &v));
  PetscCall(VecDuplicate(v, &b));
  PetscCall(FillRandom(da, n, 7, v));
  PetscCall(MatMult(A, v, b)); /* consistent for the singular matrix */

  if (nullspace) PetscCall(CheckSymmetry(A, da, n, singular, name));
  PetscCall(SolveCG(A, b, NULL, &its[0], &reason[0], &tres[0], view, sizeof(view)));
  if (nullspace) {
    PetscCall(DiagSetUp(&dpc, A, da));
    PetscCall(SolveCG(A, b, &dpc, &its[1], &reason[1], &tres[1], NULL, 0));
    PetscCall(DiagDestroy(&dpc));
  }
  /* -ksp_view names the approximation and the form applied */
  named = (PetscBool)(PetscGlobalRank != 0 || (strstr(view, "approximation: constant scaling, M = c S (symmetric)") && strstr(view, "separable operator (approximate)") &&
                                               strstr(view, singular ? "approximation applied: c^-1 S^+ (pseudo-inverse" : "approximation applied: c^-1 S^-1 (symmetric positive definite)")));
  PetscCall(TapCheck(comm, named, "%s: -ksp_view names the approximation (constant scaling, %s)", name, singular ? "c^-1 S^+" : "c^-1 S^-1"));
  PetscCall(TapCheck(comm, (PetscBool)(reason[0] > 0 && tres[0] <= RTOL && (bound < 0 || its[0] <= bound)), "%s: CG + fftptdma approximate: %s in %d iterations (<= %d), true relative residual %.2e (<= 1e-8)%s", name, KSPConvergedReasons[reason[0]],
                     (int)its[0], (int)bound, (double)tres[0], bound < 0 ? " (bound not checked at this size)" : ""));
  if (nullspace)
    PetscCall(TapCheck(comm, PETSC_TRUE, "%s: CG iterations: constant scaling (the PC) %d, diagonal scaling D^-1/2 S^-1 D^-1/2 %d (%s, true relative residual %.2e): informational", name, (int)its[0], (int)its[1], KSPConvergedReasons[reason[1]],
                       (double)tres[1]));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* bounds on the CG iterations at 24^3 (ratios 1.5, 10, 1000), a few above those measured: 8,
     27, 86 (zero-flux z), 8, 27, 87 (Dirichlet z), 87 (vertex Neumann x) at 1 and 2 ranks */
  const PetscReal defr[3]      = {1.5, 10, 1000};
  const PetscInt  boundz[2][3] = {
     {12, 35, 100}, /* zero-flux z walls (singular) */
     {12, 35, 100}  /* Dirichlet z walls */
  };
  const PetscInt boundx    = 100; /* vertex Neumann x, zero-flux z, ratio 1000 */
  PetscReal      ratios[8] = {1.5, 10, 1000};
  PetscInt       n = 24, nr = 3;
  PetscBool      setn, setr, bounds;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, &setn));
  nr = 8;
  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-ratios", ratios, &nr, &setr));
  if (!setr) nr = 3;
  bounds = (PetscBool)(!setn || n == 24);
  for (int bc = 0; bc < 2; bc++)
    for (PetscInt q = 0; q < nr; q++) {
      PetscInt bound = -1;
      for (int d = 0; d < 3 && bounds; d++)
        if (ratios[q] == defr[d]) bound = boundz[bc][d];
      PetscCall(RunCase(PETSC_COMM_WORLD, n, ratios[q], (PetscBool)bc, PETSC_FALSE, PETSC_TRUE, bound));
    }
  /* the singular matrix without its null space attached: CG still converges (consistent b) */
  PetscCall(RunCase(PETSC_COMM_WORLD, n, ratios[nr - 1], PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, bounds && ratios[nr - 1] == 1000 ? boundz[0][2] : -1));
  /* vertex Neumann x ends: the PC symmetrises the model with weights */
  PetscCall(RunCase(PETSC_COMM_WORLD, n, ratios[nr - 1], PETSC_FALSE, PETSC_TRUE, PETSC_TRUE, bounds && ratios[nr - 1] == 1000 ? boundx : -1));
  PetscCall(PetscFinalize());
  return 0;
}

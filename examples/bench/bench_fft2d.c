/*
   ppe-bench -bench fft2d: PC fftptdma on a 2D problem (one rank) against

     the 2D floor   what FFTW and a tridiagonal solver can do for the same solve on the same
                    data: FFTW's 1D transforms along x (all ny lines in one batch, in place,
                    the best of an estimated and a measured plan), then, for every x mode, the
                    tridiagonal system along y with its LU factors computed beforehand (the
                    forward and back sweeps run across the modes, row after row, so they
                    stream), then the inverse transforms; set-up (plans, factors) not timed;
     iterative      CG on the matrix-free operator, preconditioned by hypre's BoomerAMG and
                    PFMG, PETSc's GAMG and geometric MG (cell-centred Q0 transfers, Galerkin
                    coarse operators) on the assembled operator, to the true relative
                    residual 1e-8 (unpreconditioned norm), as in the 3D section.

   The problem is ppe-solve's 2D channel (periodic x, Neumann walls at both ends of a
   tanh-stretched y; -bench_fft2d_bcs NNNN etc. for others with non-periodic y), n x n cells,
   the right-hand side made compatible when the operator is singular. fftptdma is timed as
   the KSPSolve of KSPPREONLY (set-up separately) and as PCApply alone; every time is the best
   of -bench_reps runs. The floor's solution is checked against fftptdma's (mean removed when
   singular). One JSON line per measurement.
*/
#include "bench.h"
#include <ppekit/private/gridimpl.h>
#include <fftw3.h>

/* the iterative solvers, by name */
static const char *const it2d_names[] = {"boomeramg", "pfmg", "gamg", "mg"};
#define NIT2D 4

/* The floor's data: the transforms along x and the LU factors of every mode's system along y. */
typedef struct {
  PetscInt  nx, ny;
  double   *work;     /* nx * ny values, x fastest */
  double   *inv, *cp; /* per (j, k): 1 / pivot and the modified upper coefficient */
  double   *lo;       /* ny: the coupling to the row below (-tlo) */
  double   *xscale;   /* nx: 1 / w_x (vertex-centred Neumann ends), or NULL */
  double    norm;     /* 1 / round trip of the x transform pair */
  fftw_plan fwd, bwd;
  PetscReal plan_s;
} Floor2d;

/* FFTW's kinds for the x direction of the grid (the same choice as PC fftptdma's transforms
   and the 3D section's bare transforms), and the round trip of the pair. */
static PetscErrorCode Floor2dKinds(PPEGrid grid, fftw_r2r_kind *f, fftw_r2r_kind *b, double *rt)
{
  PPEBCType lo = grid->bc[0], hi = grid->bc[1];
  PetscBool cell = (PetscBool)(grid->location == PPE_LOCATION_CELL);
  PetscInt  n    = grid->N[0];

  PetscFunctionBegin;
  if (lo == PPE_BC_PERIODIC) {
    *f  = FFTW_R2HC;
    *b  = FFTW_HC2R;
    *rt = (double)n;
  } else if (lo == PPE_BC_NEUMANN && hi == PPE_BC_NEUMANN) {
    *f  = cell ? FFTW_REDFT10 : FFTW_REDFT00;
    *b  = cell ? FFTW_REDFT01 : FFTW_REDFT00;
    *rt = cell ? 2.0 * n : 2.0 * (n - 1);
  } else if (lo == PPE_BC_DIRICHLET && hi == PPE_BC_DIRICHLET) {
    *f  = cell ? FFTW_RODFT10 : FFTW_RODFT00;
    *b  = cell ? FFTW_RODFT01 : FFTW_RODFT00;
    *rt = cell ? 2.0 * n : 2.0 * (n + 1);
  } else if (lo == PPE_BC_NEUMANN) {
    *f  = cell ? FFTW_REDFT11 : FFTW_REDFT01;
    *b  = cell ? FFTW_REDFT11 : FFTW_REDFT10;
    *rt = 2.0 * n;
  } else {
    *f  = cell ? FFTW_RODFT11 : FFTW_RODFT01;
    *b  = cell ? FFTW_RODFT11 : FFTW_RODFT10;
    *rt = 2.0 * n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Plans (the faster of FFTW_ESTIMATE and FFTW_MEASURE on this data shape) and the factors of
   (lambda_k W_y + S_y + sigma W_y) along y for every x mode k; a singular mode (lambda 0, no
   Dirichlet end in y, no shift) gets its last unknown pinned to 0, which fixes the constant. */
static PetscErrorCode Floor2dCreate(PPEGrid grid, Floor2d *f)
{
  PPEGrid1d     *X = &grid->dir[0], *Y = &grid->dir[2];
  PetscInt       nx = grid->N[0], ny = grid->N[2];
  fftw_r2r_kind  kf, kb;
  double         rt, best = PETSC_MAX_REAL;
  fftw_iodim64   d, h;
  PetscLogDouble t0;
  PetscReal      dt;

  PetscFunctionBegin;
  PetscCheck(grid->dim == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The 2D floor needs a 2D grid");
  PetscCheck(Y->bc[0] != PPE_BC_PERIODIC, PETSC_COMM_SELF, PETSC_ERR_SUP, "The 2D floor solves non-periodic y lines (got periodic y): use -bench_fft2d_bcs with N or D in y");
  PetscCall(PetscMemzero(f, sizeof(*f)));
  f->nx = nx;
  f->ny = ny;
  PetscCall(Floor2dKinds(grid, &kf, &kb, &rt));
  f->norm = 1.0 / rt;
  f->work = fftw_alloc_real((size_t)(nx * ny));
  PetscCheck(f->work, PETSC_COMM_SELF, PETSC_ERR_MEM, "fftw_alloc_real() failed for %" PetscInt_FMT " values", nx * ny);
  d = (fftw_iodim64){(ptrdiff_t)nx, 1, 1};
  h = (fftw_iodim64){(ptrdiff_t)ny, (ptrdiff_t)nx, (ptrdiff_t)nx};
  for (int e = 0; e < 2; e++) { /* estimate, then measure: keep the faster pair */
    unsigned  flags = e ? FFTW_MEASURE : FFTW_ESTIMATE;
    fftw_plan pf, pb;
    for (PetscInt i = 0; i < nx * ny; i++) f->work[i] = 0.0;
    PetscCall(PetscTime(&t0));
    pf = fftw_plan_guru64_r2r(1, &d, 1, &h, f->work, f->work, &kf, flags);
    pb = fftw_plan_guru64_r2r(1, &d, 1, &h, f->work, f->work, &kb, flags);
    PetscCall(PetscTimeSubtract(&t0));
    f->plan_s -= (PetscReal)t0;
    PetscCheck(pf && pb, PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan the x transforms of %" PetscInt_FMT " x %" PetscInt_FMT, nx, ny);
    PetscCall(PetscTime(&t0));
    for (int r = 0; r < 3; r++) {
      fftw_execute(pf);
      fftw_execute(pb);
    }
    PetscCall(PetscTimeSubtract(&t0));
    dt = -(PetscReal)t0;
    if (dt < best) {
      if (f->fwd) fftw_destroy_plan(f->fwd);
      if (f->bwd) fftw_destroy_plan(f->bwd);
      f->fwd = pf;
      f->bwd = pb;
      best   = dt;
    } else {
      fftw_destroy_plan(pf);
      fftw_destroy_plan(pb);
    }
  }
  PetscCall(PetscMalloc3((size_t)(nx * ny), &f->inv, (size_t)(nx * ny), &f->cp, ny, &f->lo));
  for (PetscInt j = 0; j < ny; j++) f->lo[j] = -Y->tlo[j];
  for (PetscInt k = 0; k < nx; k++) {
    PetscReal lam = X->eig[k], prev = 0.0; /* the x eigenvalue of the mode at position k (see PPEGridEigenvalues1d) */
    PetscBool pin = (PetscBool)(lam == 0.0 && grid->shift == 0.0 && Y->bc[0] != PPE_BC_DIRICHLET && Y->bc[1] != PPE_BC_DIRICHLET);
    for (PetscInt j = 0; j < ny; j++) {
      PetscReal diag = lam * Y->w[j] + Y->d[j] + grid->shift * Y->w[j];
      PetscReal piv  = diag - (j > 0 ? -Y->tlo[j] * prev : 0.0);

      if (pin && j == ny - 1) { /* the pinned unknown: 0 (its inverse pivot 0 makes the sweep write 0) */
        f->inv[j * nx + k] = 0.0;
        f->cp[j * nx + k]  = 0.0;
        continue;
      }
      f->inv[j * nx + k] = 1.0 / piv;
      /* the row above the pinned one does not couple to it: the rest is the nonsingular
         Neumann system with one unknown removed */
      f->cp[j * nx + k] = (j < ny - 1 && !(pin && j == ny - 2)) ? -Y->thi[j] / piv : 0.0;
      prev              = f->cp[j * nx + k];
    }
  }
  {
    PetscBool unit = PETSC_TRUE;
    for (PetscInt i = 0; i < nx; i++) unit = (PetscBool)(unit && X->w[i] == 1.0);
    if (!unit) {
      PetscCall(PetscMalloc1(nx, &f->xscale));
      for (PetscInt i = 0; i < nx; i++) f->xscale[i] = 1.0 / X->w[i];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Floor2dDestroy(Floor2d *f)
{
  PetscFunctionBegin;
  if (f->fwd) fftw_destroy_plan(f->fwd);
  if (f->bwd) fftw_destroy_plan(f->bwd);
  if (f->work) fftw_free(f->work);
  PetscCall(PetscFree3(f->inv, f->cp, f->lo));
  PetscCall(PetscFree(f->xscale));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One floor solve of b into x: t[0] forward x, t[1] y sweeps, t[2] backward x (with the
   copies in and out), t[3] the total. */
static PetscErrorCode Floor2dSolve(Floor2d *f, Vec b, Vec x, PetscReal t[4])
{
  const PetscScalar *ba;
  PetscScalar       *xa;
  PetscInt           nx = f->nx, ny = f->ny;
  double            *w = f->work;
  PetscLogDouble     t0, t1, t2, t3;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(VecGetArrayRead(b, &ba));
  if (f->xscale) {
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i < nx; i++) w[j * nx + i] = ba[j * nx + i] * f->xscale[i];
  } else PetscCall(PetscArraycpy(w, ba, nx * ny));
  PetscCall(VecRestoreArrayRead(b, &ba));
  fftw_execute(f->fwd);
  PetscCall(PetscTime(&t1));
  /* forward sweep row after row across the modes, then the back sweep */
  for (PetscInt k = 0; k < nx; k++) w[k] *= f->inv[k];
  for (PetscInt j = 1; j < ny; j++) {
    double       *r = w + j * nx;
    const double *p = r - nx, *iv = f->inv + j * nx, lo = f->lo[j];
    for (PetscInt k = 0; k < nx; k++) r[k] = (r[k] - lo * p[k]) * iv[k];
  }
  for (PetscInt j = ny - 2; j >= 0; j--) {
    double       *r = w + j * nx;
    const double *q = r + nx, *cp = f->cp + j * nx;
    for (PetscInt k = 0; k < nx; k++) r[k] -= cp[k] * q[k];
  }
  PetscCall(PetscTime(&t2));
  fftw_execute(f->bwd);
  PetscCall(VecGetArrayWrite(x, &xa));
  for (PetscInt i = 0; i < nx * ny; i++) xa[i] = w[i] * f->norm;
  PetscCall(VecRestoreArrayWrite(x, &xa));
  PetscCall(PetscTime(&t3));
  t[0] = (PetscReal)(t1 - t0);
  t[1] = (PetscReal)(t2 - t1);
  t[2] = (PetscReal)(t3 - t2);
  t[3] = (PetscReal)(t3 - t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||x - y|| / ||y|| with the means removed when singular */
static PetscErrorCode RelDiff(Vec x, Vec y, PetscBool singular, PetscReal *rel)
{
  Vec       d;
  PetscReal nd, ny;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &d));
  PetscCall(VecWAXPY(d, -1.0, y, x));
  if (singular) {
    PetscScalar s;
    PetscInt    n;
    PetscCall(VecSum(d, &s));
    PetscCall(VecGetSize(d, &n));
    PetscCall(VecShift(d, -s / n));
  }
  PetscCall(VecNorm(d, NORM_2, &nd));
  PetscCall(VecNorm(y, NORM_2, &ny));
  *rel = ny > 0 ? nd / ny : nd;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||b - A x|| / ||b|| */
static PetscErrorCode TrueResidual(Mat A, Vec b, Vec x, PetscReal *rel)
{
  Vec       r;
  PetscReal rn, bn;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  *rel = bn > 0 ? rn / bn : rn;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CG with an iterative preconditioner on the assembled operator; best solve time of reps. */
static PetscErrorCode RunIterative(PPEGrid grid, Mat A, Mat Aaij, const char name[], PetscInt reps, Vec b, Vec x, PetscReal *setup_s, PetscReal *solve_s, PetscInt *its, PetscReal *rrel)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  KSP            ksp;
  PC             pc;
  Mat            P    = NULL;
  DM             mgda = NULL;
  PetscLogDouble t0;
  char           prefix[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "bench_fft2d_%s_", name));
  if (!strcmp(name, "pfmg")) PetscCall(PPEStencilCreateAssembled(grid, MATHYPRESTRUCT, &P));
  else {
    P = Aaij;
    PetscCall(PetscObjectReference((PetscObject)P));
  }
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, strcmp(name, "mg") ? A : P, P));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, 1e-8, 0.0, PETSC_DEFAULT, 10000));
  PetscCall(KSPGetPC(ksp, &pc));
  if (!strcmp(name, "boomeramg")) {
    PetscCall(PCSetType(pc, PCHYPRE));
    PetscCall(PCHYPRESetType(pc, "boomeramg"));
  } else if (!strcmp(name, "pfmg")) PetscCall(PCSetType(pc, PCPFMG));
  else if (!strcmp(name, "gamg")) PetscCall(PCSetType(pc, PCGAMG));
  else {
    DM              da;
    PetscInt        M, N, m, n, levels = 1, a, c;
    DMBoundaryType  bx, by;
    const PetscInt *lx, *ly;

    /* geometric MG on a 2D DMDA of the grid's layout with piecewise-constant (cell) transfers:
       halve while both sizes stay even and >= 8 */
    PetscCall(PPEGridGetDM(grid, &da));
    PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, &m, &n, NULL, NULL, NULL, &bx, &by, NULL, NULL));
    PetscCall(DMDAGetOwnershipRanges(da, &lx, &ly, NULL));
    PetscCall(DMDACreate2d(comm, bx, by, DMDA_STENCIL_STAR, M, N, m, n, 1, 1, lx, ly, &mgda));
    PetscCall(DMDASetInterpolationType(mgda, DMDA_Q0));
    PetscCall(DMSetUp(mgda));
    for (a = M, c = N; a % 2 == 0 && c % 2 == 0 && a >= 8 && c >= 8; a /= 2, c /= 2) levels++;
    PetscCall(PCSetDM(pc, mgda));
    PetscCall(PCSetType(pc, PCMG));
    PetscCall(PCMGSetLevels(pc, levels, NULL));
    PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_PMAT));
    {
      char opt[96];
      PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%smg_coarse_pc_type", prefix));
      PetscCall(PetscOptionsSetValue(NULL, opt, "svd")); /* a singular coarse operator */
    }
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTimeSubtract(&t0));
  *setup_s = -(PetscReal)t0;
  *solve_s = PETSC_MAX_REAL;
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(VecSet(x, 0.0));
    PetscCall(PetscTime(&t0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(PetscTimeSubtract(&t0));
    *solve_s = PetscMin(*solve_s, -(PetscReal)t0);
  }
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(TrueResidual(A, b, x, rrel));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&P));
  PetscCall(DMDestroy(&mgda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One size and BC code: fftptdma, the floor, the iterative solvers; JSON lines. */
static PetscErrorCode TimeSize2d(MPI_Comm comm, PetscInt n, const char bcs[], const char solvers[], PetscInt reps, PetscInt iter_reps)
{
  PPEGrid        grid;
  Mat            A, Aaij = NULL;
  Vec            b, x, xf, u;
  KSP            ksp;
  PC             pc;
  PetscBool      known, singular;
  PetscLogDouble t0;
  PetscReal      setup_s, solve_s = PETSC_MAX_REAL, apply_s = PETSC_MAX_REAL, rrel, floor_t[4] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, diff = 0, best_it = PETSC_MAX_REAL;
  const char    *best_name = "none";
  Floor2d        fl;
  char           code[8];

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEGridSetDimension(grid, 2));
  PetscCall(PPEProblemSetGridDefaults(PPE_PROBLEM_CHANNEL, grid));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetSizes(grid, n, n, 1)); /* -bench_fft2d_n, over any -ppe_grid_n */
  if (bcs) PetscCall(PPEGridSetBCString(grid, bcs));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetBCString(grid, code));
  PetscCall(PPEGridIsSingular(grid, &singular));
  PetscCall(PPEStencilCreate(grid, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &xf));
  PetscCall(VecDuplicate(x, &u));
  PetscCall(PPEProblemComputeRHS(PPE_PROBLEM_CHANNEL, grid, b, u, &known));
  if (singular) {
    MatNullSpace nsp;
    PetscCall(MatGetNullSpace(A, &nsp));
    PetscCall(MatNullSpaceRemove(nsp, b));
  }

  /* fftptdma: set-up, KSPSolve of preonly, PCApply */
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "bench_fft2d_"));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCFFTPTDMA));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTimeSubtract(&t0));
  setup_s = -(PetscReal)t0;
  PetscCall(Floor2dCreate(grid, &fl));
  for (PetscInt r = 0; r < reps; r++) { /* alternating, so that both see the same machine */
    PetscReal t[4] = {0, 0, 0, 0};
    PetscCall(PetscTime(&t0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(PetscTimeSubtract(&t0));
    solve_s = PetscMin(solve_s, -(PetscReal)t0);
    PetscCall(PetscTime(&t0));
    PetscCall(PCApply(pc, b, x));
    PetscCall(PetscTimeSubtract(&t0));
    apply_s = PetscMin(apply_s, -(PetscReal)t0);
    PetscCall(Floor2dSolve(&fl, b, xf, t));
    for (int s = 0; s < 4; s++) floor_t[s] = PetscMin(floor_t[s], t[s]);
  }
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(TrueResidual(A, b, x, &rrel));
  PetscCall(RelDiff(xf, x, singular, &diff));
  PetscCall(PetscPrintf(comm, "{\"bench\": \"fft2d\", \"what\": \"fftptdma\", \"bc\": \"%s\", \"n\": [%d, %d], \"setup_s\": %.6e, \"solve_s\": %.6e, \"pcapply_s\": %.6e, \"rnorm_rel\": %.3e, \"reps\": %d}\n", code, (int)n, (int)n, (double)setup_s,
                        (double)solve_s, (double)apply_s, (double)rrel, (int)reps));
  PetscCall(PetscPrintf(comm,
                        "{\"bench\": \"fft2d\", \"what\": \"floor\", \"bc\": \"%s\", \"n\": [%d, %d], \"plan_s\": %.6e, \"fwd_x_s\": %.6e, \"y_sweeps_s\": "
                        "%.6e, \"bwd_x_s\": %.6e, \"floor_s\": %.6e, \"diff_fftptdma\": %.3e, \"ratio_solve_floor\": %.3f, \"ratio_pcapply_floor\": %.3f}\n",
                        code, (int)n, (int)n, (double)fl.plan_s, (double)floor_t[0], (double)floor_t[1], (double)floor_t[2], (double)floor_t[3], (double)diff, (double)(solve_s / floor_t[3]), (double)(apply_s / floor_t[3])));
  PetscCall(Floor2dDestroy(&fl));
  PetscCall(KSPDestroy(&ksp));

  /* the iterative solvers */
  for (int i = 0; i < NIT2D; i++) {
    PetscReal su = 0, so = 0, rr = 0;
    PetscInt  its;
    PetscBool in = PETSC_FALSE;
    for (const char *p = solvers; p && *p;) { /* comma-separated list membership */
      size_t len = strcspn(p, ",");
      if (len == strlen(it2d_names[i]) && !strncmp(p, it2d_names[i], len)) in = PETSC_TRUE;
      p += len + (p[len] ? 1 : 0);
    }
    if (!in) continue;
    if (!Aaij) PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &Aaij));
    PetscCall(RunIterative(grid, A, Aaij, it2d_names[i], iter_reps, b, x, &su, &so, &its, &rr));
    PetscCall(PetscPrintf(comm, "{\"bench\": \"fft2d\", \"what\": \"iterative\", \"bc\": \"%s\", \"n\": [%d, %d], \"solver\": \"%s\", \"setup_s\": %.6e, \"solve_s\": %.6e, \"its\": %d, \"rnorm_rel\": %.3e, \"ratio_solve_fftptdma\": %.2f}\n", code,
                          (int)n, (int)n, it2d_names[i], (double)su, (double)so, (int)its, (double)rr, (double)(so / solve_s)));
    if (rr <= 1e-7 && so < best_it) {
      best_it   = so;
      best_name = it2d_names[i];
    }
  }
  if (best_it < PETSC_MAX_REAL)
    PetscCall(PetscPrintf(comm,
                          "{\"bench\": \"fft2d\", \"what\": \"summary\", \"bc\": \"%s\", \"n\": [%d, %d], \"fftptdma_solve_s\": %.6e, \"floor_s\": "
                          "%.6e, \"ratio_solve_floor\": %.3f, \"fastest_iterative\": \"%s\", \"fastest_iterative_s\": %.6e, \"ratio_iterative\": %.2f}\n",
                          code, (int)n, (int)n, (double)solve_s, (double)floor_t[3], (double)(solve_s / floor_t[3]), best_name, (double)best_it, (double)(best_it / solve_s)));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&xf));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBenchFFT2d(MPI_Comm comm, const PPEBenchOptions *o)
{
  PetscInt    ns[8] = {256}, nn = 8, ir = 2;
  char       *bcs[8] = {NULL}, solvers[128] = "boomeramg,pfmg,gamg,mg";
  PetscInt    nb = 8;
  PetscBool   flg;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(size == 1, comm, PETSC_ERR_SUP, "-bench fft2d runs on one rank (got %d)", (int)size);
  PetscOptionsBegin(comm, NULL, "ppe-bench -bench fft2d options", "PPEKit");
  PetscCall(PetscOptionsIntArray("-bench_fft2d_n", "Sizes n of the n x n grids", NULL, ns, &nn, &flg));
  if (!flg) nn = 1;
  PetscCall(PetscOptionsStringArray("-bench_fft2d_bcs", "Four-letter BC codes (non-periodic y), default the channel's PPNN", NULL, bcs, &nb, &flg));
  if (!flg) nb = 0;
  PetscCall(PetscOptionsString("-bench_fft2d_solvers", "Iterative solvers: boomeramg,pfmg,gamg,mg (none: no iterative solver)", NULL, solvers, solvers, sizeof(solvers), NULL));
  PetscCall(PetscOptionsInt("-bench_fft2d_iter_reps", "Solves of each iterative solver (best reported)", NULL, ir, &ir, NULL));
  PetscOptionsEnd();
  for (PetscInt i = 0; i < nn; i++) {
    PetscCheck(ns[i] >= 8, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_fft2d_n: sizes must be >= 8, got %" PetscInt_FMT, ns[i]);
    if (!nb) PetscCall(TimeSize2d(comm, ns[i], NULL, solvers, o->reps, ir));
    for (PetscInt c = 0; c < nb; c++) PetscCall(TimeSize2d(comm, ns[i], bcs[c], solvers, o->reps, ir));
  }
  for (PetscInt c = 0; c < nb; c++) PetscCall(PetscFree(bcs[c]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

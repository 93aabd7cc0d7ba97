/*
   Eigenvalue bounds for the Chebyshev iteration.

   From the grid (Pennati et al. (2025), eqs. 8-11). The operator is A = W (sigma I - Lap_h) with
   W = Wx Wy Wz, and

       W^-1 A = sigma I + Wx^-1 Sx (x) I (x) I + I (x) Wy^-1 Sy (x) I + I (x) I (x) Wz^-1 Sz,

   a Kronecker sum on every grid (uniform or stretched): its eigenvalues are sigma plus sums
   of the 1D eigenvalues, so its extremes are sigma + sum_d min mu_d and sigma + sum_d max mu_d
   exactly (eqs. 10-11). W^-1 A is Pennati et al.'s matrix P, Neumann rows [2 -2] included.

   The rank-local block of a box [lo, hi) keeps this structure with every 1D operator
   replaced by its principal submatrix on [lo_d, hi_d) (couplings across the box dropped):
   where the box covers the whole direction the grid's own 1D eigenvalues are used
   (periodic wrap included); elsewhere the truncated symmetric tridiagonal
   Wd^-1/2 Sd Wd^-1/2 goes to LAPACK (steqr, eigenvalues only). On one rank the block is
   the whole operator and the bounds are the global ones, bit for bit.

   Gershgorin: the largest 1D eigenvalue bounded by the discs of Wd^-1 Sd (4/h^2 on a uniform
   direction, as Pennati et al. do for the Neumann matrices); the smallest stays exact, since
   the discs only bound it below by 0.

   Without the weights (A itself): exact when W = I on the box; otherwise
   lambda_min(A) >= Lambda_min(A, W) min W and lambda_max(A) <= min(Lambda_max(A, W) max W,
   Gershgorin of A), as PPEGridGetOperatorBounds() does for the whole grid.

   Estimate (any matrix): CG on a fixed random right-hand side with Lanczos extreme Ritz
   values (KSPComputeExtremeSingularValues), preconditioned by D^-1 when weighted.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025, sec. II.A (eqs. 8-11).
*/
#include <ppekit/private/chebyciimpl.h>
#include <petscblaslapack.h>

/* Bounds of one direction restricted to [lo, hi). */
typedef struct {
  PetscReal emin, emax, emin2; /* smallest, largest, smallest nonzero (whole singular direction) */
  PetscReal wmin, wmax, rmax;  /* extreme weights; largest Gershgorin row sum of S */
} Bounds1d;

static PetscErrorCode Direction(const PPEGrid1d *o, PetscInt lo, PetscInt hi, PPEChebyCIBoundsKind kind, Bounds1d *b)
{
  PetscBool full = (PetscBool)(lo == 0 && hi == o->n);
  PetscInt  m    = hi - lo;

  PetscFunctionBegin;
  PetscCheck(lo >= 0 && hi <= o->n && m >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Box [%" PetscInt_FMT ", %" PetscInt_FMT ") outside the direction of %" PetscInt_FMT " points", lo, hi, o->n);
  b->wmin = b->wmax = o->w[lo];
  b->rmax           = 0;
  for (PetscInt i = lo; i < hi; i++) {
    b->wmin = PetscMin(b->wmin, o->w[i]);
    b->wmax = PetscMax(b->wmax, o->w[i]);
    b->rmax = PetscMax(b->rmax, o->d[i] + o->tlo[i] + o->thi[i]);
  }
  if (full) {
    b->emin  = o->eigmin;
    b->emax  = o->eigmax;
    b->emin2 = o->eigmin2;
  } else {
    PetscBLASInt bn, info, one = 1;
    const char   compz = 'N';
    PetscReal   *e, *dg;

    PetscCall(PetscBLASIntCast(m, &bn));
    PetscCall(PetscMalloc2(m, &dg, m, &e));
    for (PetscInt i = 0; i < m; i++) dg[i] = o->d[lo + i] / o->w[lo + i];
    for (PetscInt i = 0; i < m - 1; i++) e[i] = -o->thi[lo + i] / PetscSqrtReal(o->w[lo + i] * o->w[lo + i + 1]);
    PetscCallBLAS("LAPACKsteqr", LAPACKsteqr_(&compz, &bn, dg, e, NULL, &one, NULL, &info));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK steqr failed with info %d computing the eigenvalues of a truncated 1D operator", (int)info);
    b->emin = b->emax = dg[0];
    for (PetscInt i = 1; i < m; i++) {
      b->emin = PetscMin(b->emin, dg[i]);
      b->emax = PetscMax(b->emax, dg[i]);
    }
    b->emin2 = b->emin;
    PetscCall(PetscFree2(dg, e));
  }
  if (kind == PPE_CI_BOUNDS_GERSHGORIN) {
    b->emax = 0;
    for (PetscInt i = lo; i < hi; i++) {
      PetscReal r = o->d[i];
      if (full || i > lo) r += PetscAbsReal(o->tlo[i]);
      if (full || i < hi - 1) r += PetscAbsReal(o->thi[i]);
      b->emax = PetscMax(b->emax, r / o->w[i]);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEChebyCIGridBounds - bounds on the spectrum of the grid operator's block on the box
   [lo, hi) (global indices; the whole grid gives the global bounds): of W^-1 A when weighted,
   of A otherwise. exact says whether they are the extreme eigenvalues themselves.
*/
PetscErrorCode PPEChebyCIGridBounds(PPEGrid g, const PetscInt lo[3], const PetscInt hi[3], PPEChebyCIBoundsKind kind, PetscBool weighted, PetscReal *lmin, PetscReal *lmax, PetscBool *exact)
{
  Bounds1d  b[3];
  PetscReal gmin = g->shift, gmax = g->shift, g2 = PETSC_MAX_REAL, Wmin = 1, Wmax = 1, gersh;
  PetscBool whole = PETSC_TRUE, unit = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCheck(g->setupcalled, PetscObjectComm((PetscObject)g), PETSC_ERR_ORDER, "Call PPEGridSetUp() first");
  for (int d = 0; d < 3; d++) {
    PetscCall(Direction(&g->dir[d], lo[d], hi[d], kind, &b[d]));
    gmin += b[d].emin;
    gmax += b[d].emax;
    g2 = PetscMin(g2, b[d].emin2);
    Wmin *= b[d].wmin;
    Wmax *= b[d].wmax;
    if (lo[d] != 0 || hi[d] != g->N[d]) whole = PETSC_FALSE;
    if (b[d].wmin != 1.0 || b[d].wmax != 1.0) unit = PETSC_FALSE;
  }
  if (whole && g->singular) gmin = g2; /* smallest nonzero: the constants are projected out */
  *exact = (PetscBool)(kind == PPE_CI_BOUNDS_EXACT);
  if (weighted || unit) {
    *lmin = gmin;
    *lmax = gmax;
  } else {
    gersh = g->shift * Wmax;
    for (int d = 0; d < 3; d++) gersh += b[d].rmax * b[(d + 1) % 3].wmax * b[(d + 2) % 3].wmax;
    *lmin  = gmin * Wmin;
    *lmax  = PetscMin(gmax * Wmax, gersh);
    *exact = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEChebyCIGridWeights - dinv = 1/(wx wy wz) on this rank's box, in the DMDA's order. */
PetscErrorCode PPEChebyCIGridWeights(PPEGrid g, Vec dinv)
{
  PetscInt     s[3], m[3], l = 0;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(PetscArraycpy(s, g->box.s, 3)); /* the kernels' 3D view of the grid's DMDA */
  PetscCall(PetscArraycpy(m, g->box.m, 3));
  PetscCall(VecGetArrayWrite(dinv, &a));
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++) a[l++] = 1.0 / (g->dir[0].w[i] * (g->dir[1].w[j] * g->dir[2].w[k]));
  PetscCall(VecRestoreArrayWrite(dinv, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ApplyDinv(PC pc, Vec x, Vec y)
{
  Vec dinv;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &dinv));
  PetscCall(VecPointwiseMult(y, dinv, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEChebyCIEstimateBounds - Lanczos estimates of the extreme eigenvalues of D^-1 A
   (A alone when dinv is NULL): its CG iterations on a fixed random right-hand side,
   on A's communicator. Ritz values lie inside the spectrum.
*/
PetscErrorCode PPEChebyCIEstimateBounds(Mat A, Vec dinv, PetscInt its, PetscReal *lmin, PetscReal *lmax)
{
  KSP         ksp;
  PC          pc;
  Vec         b, x;
  PetscRandom rnd;
  MPI_Comm    comm = PetscObjectComm((PetscObject)A);

  PetscFunctionBegin;
  PetscCheck(its >= 2, comm, PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue estimate needs at least 2 iterations, got %" PetscInt_FMT, its);
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 0x5eed));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  if (dinv) {
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetContext(pc, dinv));
    PetscCall(PCShellSetApply(pc, ApplyDinv));
    PetscCall(PCShellSetName(pc, "D^-1 (grid volume weights)"));
  } else PetscCall(PCSetType(pc, PCNONE));
  PetscCall(KSPSetTolerances(ksp, 1e-14, 0.0, PETSC_DEFAULT, its));
  PetscCall(KSPSetComputeSingularValues(ksp, PETSC_TRUE));
  PetscCall(KSPSetErrorIfNotConverged(ksp, PETSC_FALSE));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPComputeExtremeSingularValues(ksp, lmax, lmin));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCheck(*lmin > 0, comm, PETSC_ERR_CONV_FAILED, "Eigenvalue estimate gave [%g, %g]: the operator does not look positive definite; give the bounds with -pc_chebyci_eigenvalues", (double)*lmin, (double)*lmax);
  /* a multiple of the identity (or a spectrum seen as one point) has no interval to build a
     Chebyshev polynomial on: say so instead of calling it indefinite */
  PetscCheck(*lmax > *lmin, comm, PETSC_ERR_CONV_FAILED,
             "Eigenvalue estimate gave the single point %g: the operator acts as a multiple of the identity, and a Chebyshev interval needs lmin < lmax; use PCJACOBI, or give the bounds with -pc_chebyci_eigenvalues", (double)*lmax);
  PetscFunctionReturn(PETSC_SUCCESS);
}

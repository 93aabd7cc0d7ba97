/*
   PC chebyci: a fixed number of Chebyshev iterations as a linear preconditioner.

   Method:
     M^-1 b = p(P) D^-1 b after its applications of the operator (Algorithm 2 of Pennati et
     al. (2025), src/chebyci/chebyci.c), P = D^-1 A with D the grid's volume weights W (then
     P is their matrix and its spectrum is known exactly, eqs. 8-11) or D = I. The operator is

       global  the full pmat, halo exchange at every application          G(CI)
       block   the rank-local block A_ss, the subdomain's own bounds      BJ(CI)
       nocomm  the rank-local block A_ss, the global bounds               GNoComm(CI)

     block and nocomm send no message; no mode makes a global reduction after set-up. The
     map is linear and fixed (no inner products), so it serves any Krylov method, and it is
     symmetric when A is (p(D^-1 A) D^-1 = D^-1 p(A D^-1)), so CG and cbcg can use it.

     The bounds are rescaled before use (Bergamaschi et al., as Pennati et al. do):
     [alpha, beta] = [fmin lmin, fmax lmax], their values fmin = 100, fmax = 1 - 1e-4 (the
     default fmin is capped at lmax/(10 lmin) for narrow spectra).

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025 (docs/types/chebyci.md): sec. II.A
     (eqs. 8-11), III.A (Algorithm 2, Table I), III.B (Algorithm 4), IV (24 iterations, the
     rescaling).

   The public setters and getters (PCChebyCISetMode() ...) are in chebyciapi.c.
*/
#include <ppekit/private/chebyciimpl.h>
#include <ppekit/private/stencilimpl.h>
#include <ppekit/private/backendimpl.h>
#include <petsc/private/pcimpl.h>
#include "../../pluginimpl.h"

const char *const PCChebyCIModes[]      = {"global", "block", "nocomm", "PCChebyCIMode", "PC_CHEBYCI_", NULL};
const char *const PCChebyCIEigSources[] = {"grid", "gershgorin", "user", "estimate", "PCChebyCIEigSource", "PC_CHEBYCI_EIG_", NULL};

/* Default rescaling of the bounds: Pennati et al.'s for G(CI) and GNoComm(CI); none for BJ(CI). */
static const PetscReal PCChebyCIDefaultScale[3][2] = {
  {100.0, 1.0 - 1e-4},
  {1.0,   1.0       },
  {100.0, 1.0 - 1e-4}
};

typedef struct {
  PCChebyCIMode      mode;         /* which operator is applied */
  PetscInt           its;          /* operator applications per application (Pennati et al.: 24) */
  PCChebyCIEigSource source;       /* where the bounds come from, as asked */
  PetscBool          source_set;   /* asked by the user (else: grid when there is one, estimate otherwise) */
  PetscReal          user[2];      /* given lmin, lmax */
  PetscBool          user_set;     /* they were given */
  PetscReal          scale[2];     /* factors on lmin and lmax */
  PetscBool          scale_set;    /* given (else the mode's default) */
  PetscBool          weighted;     /* iterate on W^-1 A (Pennati et al.'s operator), as asked */
  PetscBool          weighted_set; /* asked by the user (else: yes when there is a grid) */
  PetscInt           est_its;      /* CG iterations of the estimate */
  PetscBool          fuse;         /* fuse the operator with the Chebyshev step on a MATPPESTENCIL */
  PetscInt           steps;        /* Chebyshev steps per temporally blocked sweep, as asked (PETSC_DECIDE: by the plane's size) */
  /* set-up */
  PPEGrid            grid;       /* the operator's grid (borrowed), or NULL */
  PetscBool          gridop;     /* the operator is the grid's constant-coefficient one (its spectrum is the grid's) */
  PCChebyCIEigSource src;        /* the source used */
  PetscBool          wgt;        /* weights used */
  PetscReal          fac[2];     /* scale factors used */
  PetscBool          fused;      /* the operator and the step run as one sweep */
  PetscInt           block;      /* steps per temporally blocked sweep used (0: one step per sweep) */
  const char        *noblock;    /* why the steps are not blocked (block == 0) */
  PetscBool          isst;       /* the operator is a MATPPESTENCIL */
  Mat                Ablock;     /* the rank-local block (borrowed from pmat); NULL in global mode */
  Vec                xs, ts;     /* sequential wrappers of the local arrays for Ablock */
  PetscReal          lmin, lmax; /* bounds of this rank's iterated operator, before scaling */
  PetscBool          exact;      /* they are the exact extremes */
  PetscReal          over[4];    /* over ranks: min lmin, max lmin, min lmax, max lmax */
  PPEChebyCI         ci;         /* the iteration: interval, its, operator, work vectors */
  PetscInt           applies;    /* applications since set-up */
} PC_ChebyCI;

PPE_IMPL_SETTER(PCChebyCISetMode_ChebyCI, PC, pc, PC_ChebyCI, PCChebyCIMode, mode, mode,
                PetscCheck(mode >= PC_CHEBYCI_GLOBAL && mode <= PC_CHEBYCI_NOCOMM, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC chebyci mode must be global, block or nocomm, got %d", (int)mode), pc->setupcalled = 0)

static PetscErrorCode PCChebyCISetIterations_ChebyCI(PC pc, PetscInt its)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(its >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC chebyci needs at least 1 iteration (operator application), got -pc_chebyci_its %" PetscInt_FMT, its);
  jac->its    = its;
  jac->ci.its = its;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCISetEigSource_ChebyCI(PC pc, PCChebyCIEigSource src)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(src >= PC_CHEBYCI_EIG_GRID && src <= PC_CHEBYCI_EIG_ESTIMATE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC chebyci eigenvalue source must be grid, gershgorin, user or estimate, got %d", (int)src);
  if (!jac->source_set || jac->source != src) pc->setupcalled = 0;
  jac->source     = src;
  jac->source_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCISetEigenvalues_ChebyCI(PC pc, PetscReal lmin, PetscReal lmax)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(PetscIsNormalReal(lmin) && PetscIsNormalReal(lmax) && lmin > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "PC chebyci eigenvalue bounds must be positive and finite (the interval must exclude 0), got lmin = %g, lmax = %g", (double)lmin, (double)lmax);
  PetscCheck(lmin < lmax, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC chebyci eigenvalue interval is inverted or empty: need lmin < lmax, got lmin = %g, lmax = %g", (double)lmin, (double)lmax);
  jac->user[0]  = lmin;
  jac->user[1]  = lmax;
  jac->user_set = PETSC_TRUE;
  PetscCall(PCChebyCISetEigSource_ChebyCI(pc, PC_CHEBYCI_EIG_USER));
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCISetEigScale_ChebyCI(PC pc, PetscReal fmin, PetscReal fmax)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(PetscIsNormalReal(fmin) && PetscIsNormalReal(fmax) && fmin > 0 && fmax > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "PC chebyci eigenvalue scale factors must be positive and finite, got min_factor = %g, max_factor = %g", (double)fmin, (double)fmax);
  jac->scale[0]   = fmin;
  jac->scale[1]   = fmax;
  jac->scale_set  = PETSC_TRUE;
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCISetWeighted_ChebyCI(PC pc, PetscBool flg)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  jac->weighted     = flg;
  jac->weighted_set = PETSC_TRUE;
  pc->setupcalled   = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCISetEstimateIterations_ChebyCI(PC pc, PetscInt its)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(its >= 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC chebyci eigenvalue estimate needs at least 2 CG iterations, got %" PetscInt_FMT, its);
  jac->est_its    = its;
  pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCISetFuse_ChebyCI(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  ((PC_ChebyCI *)pc->data)->fuse = flg;
  pc->setupcalled                = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCISetBlockSteps_ChebyCI(PC pc, PetscInt steps)
{
  PetscFunctionBegin;
  PetscCheck(steps == PETSC_DECIDE || steps >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC chebyci: steps per blocked sweep must be >= 0 (0 or 1: one step per sweep) or PETSC_DECIDE, got %" PetscInt_FMT, steps);
  ((PC_ChebyCI *)pc->data)->steps = steps;
  pc->setupcalled                 = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCChebyCIGetInterval_ChebyCI(PC pc, PetscReal *lmin, PetscReal *lmax, PetscReal *alpha, PetscReal *beta)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCheck(pc->setupcalled, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "Call PCSetUp() before PCChebyCIGetInterval()");
  if (lmin) *lmin = jac->lmin;
  if (lmax) *lmax = jac->lmax;
  if (alpha) *alpha = jac->ci.alpha;
  if (beta) *beta = jac->ci.beta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator callbacks of the iteration: the full pmat, or the local block on the local arrays. */
static PetscErrorCode OpGlobal(void *ctx, Vec y, Vec t)
{
  PetscFunctionBegin;
  PetscCall(MatMult(((PC)ctx)->pmat, y, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OpLocal(void *ctx, Vec y, Vec t)
{
  PC                 pc  = (PC)ctx;
  PC_ChebyCI        *jac = (PC_ChebyCI *)pc->data;
  const PetscScalar *ya;
  PetscScalar       *ta;

  PetscFunctionBegin;
  if (jac->isst) { /* the block on the vectors' arrays on the operator's back end */
    PetscCall(PPEStencilMultLocal(pc->pmat, y, t));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayRead(y, &ya));
  PetscCall(VecGetArrayWrite(t, &ta));
  PetscCall(VecPlaceArray(jac->xs, ya));
  PetscCall(VecPlaceArray(jac->ts, ta));
  PetscCall(MatMult(jac->Ablock, jac->xs, jac->ts));
  PetscCall(VecResetArray(jac->xs));
  PetscCall(VecResetArray(jac->ts));
  PetscCall(VecRestoreArrayWrite(t, &ta));
  PetscCall(VecRestoreArrayRead(y, &ya));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The fused step on a MATPPESTENCIL: operator (full or local block) and KernelCI2 in one sweep,
   on the operator's back end. */
static PetscErrorCode StepStencil(void *ctx, Vec y, Vec b, Vec z, Vec dinv, PetscReal rho, PetscReal rho_old, PetscReal s2, PetscReal d2, Vec w)
{
  PC           pc = (PC)ctx;
  PPEStencilCI ci;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&ci, sizeof(ci)));
  ci.rho     = rho;
  ci.rho_old = rho_old;
  ci.s2      = s2;
  ci.d2      = d2;
  PetscCall(PPEStencilMultCI(pc->pmat, (PetscBool)(((PC_ChebyCI *)pc->data)->mode != PC_CHEBYCI_GLOBAL), y, b, z, dinv, &ci, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Levels of the iteration in one temporally blocked sweep of the local block. */
static PetscErrorCode SweepStencil(void *ctx, const ppe_dev_ci_sweep *S, Vec b, Vec dinv, Vec y, Vec z, Vec yout, Vec zout)
{
  PetscFunctionBegin;
  PetscCall(PPEStencilMultCISweep(((PC)ctx)->pmat, S, b, dinv, y, z, yout, zout));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Working set of a blocked sweep at which the default stops adding steps (bytes), and the most
   steps it takes: per level the ring of four planes and the planes of b and D^-1 it reads, three
   face planes more with variable coefficients. Measured at 128^3 on one core (docs/types/chebyci.md):
   constant coefficients fastest at 8-12 steps, variable at 6 (8 and more spill the cache). */
#define CHEBYCI_SWEEP_BYTES (6.0 * 1024 * 1024)
#define CHEBYCI_SWEEP_MAX   12

/* Steps per temporally blocked sweep: the fused step on the rank-local block of a MATPPESTENCIL
   whose back end has the sweep (the host); as asked, or by default as many as keep the working
   set within CHEBYCI_SWEEP_BYTES (at least 2, at most CHEBYCI_SWEEP_MAX, and its). */
static PetscErrorCode SetUpBlocking(PC pc)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;
  PetscBool   can = PETSC_FALSE;

  PetscFunctionBegin;
  jac->block   = 0;
  jac->noblock = NULL;
  if (jac->mode == PC_CHEBYCI_GLOBAL) jac->noblock = "mode global exchanges halos between steps";
  else if (!jac->fused) jac->noblock = jac->fuse ? "not a MATPPESTENCIL" : "-pc_chebyci_fuse 0";
  else if (jac->steps == 0 || jac->steps == 1) jac->noblock = "-pc_chebyci_block_steps 1";
  else if (jac->its < 2) jac->noblock = "one step per application";
  else if (!jac->grid) jac->noblock = "the operator's grid does not match its local size";
  if (!jac->noblock) {
    PetscCall(PPEStencilCanSweep(pc->pmat, &can));
    if (!can) jac->noblock = "the operator's back end has no blocked sweep for this box (a device, or z periodic and whole on the rank)";
  }
  if (!jac->noblock) {
    if (jac->steps == PETSC_DECIDE) {
      const PPEDMDABox *box   = &jac->grid->box;
      double            plane = 8.0 * box->m[0] * box->m[1];
      double            per   = 4.0 + 1.0 + (jac->wgt ? 1.0 : 0.0) + (jac->gridop ? 0.0 : 3.0); /* planes per level */

      jac->block = (PetscInt)PetscMax(2, PetscMin(CHEBYCI_SWEEP_MAX, CHEBYCI_SWEEP_BYTES / (plane * per)));
    } else jac->block = jac->steps;
    jac->block = PetscMin(jac->block, jac->its);
  }
  jac->ci.sweep    = jac->block >= 2 ? SweepStencil : NULL;
  jac->ci.sweepctx = pc;
  jac->ci.block    = jac->block;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator's grid: a MATPPESTENCIL's, or the PPEGrid of the matrix's (or the PC's) DMDA. */
static PetscErrorCode FindGrid(PC pc, PPEGrid *grid)
{
  Mat       P = pc->pmat;
  PetscBool isst, isda;
  DM        dm = NULL;

  PetscFunctionBegin;
  *grid = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATPPESTENCIL, &isst));
  if (isst) PetscCall(PPEStencilGetGrid(P, grid));
  if (!*grid) PetscCall(MatGetDM(P, &dm));
  if (!*grid && !dm) dm = pc->dm;
  if (!*grid && dm) {
    PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
    if (isda) PetscCall(PPEGridGetFromDM(dm, grid));
  }
  if (*grid) {
    PetscInt          nloc;
    const PetscInt   *m;
    const PPEDMDABox *box;
    PetscCall(MatGetLocalSize(P, &nloc, NULL));
    PetscCall(PPEGridGetBox(*grid, &box));
    m = box->m;
    if (nloc != m[0] * m[1] * m[2]) {
      PetscCall(PetscInfo(pc, "The grid's box (%" PetscInt_FMT " points) does not match the matrix's %" PetscInt_FMT " local rows: grid not used\n", m[0] * m[1] * m[2], nloc));
      *grid = NULL;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_ChebyCI(PC pc)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCall(PPEChebyCIReset(&jac->ci));
  PetscCall(VecDestroy(&jac->xs));
  PetscCall(VecDestroy(&jac->ts));
  jac->Ablock  = NULL;
  jac->grid    = NULL;
  jac->applies = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sources used (the asked ones, or the defaults of the operator found) and the checks that
   they fit the operator. */
static PetscErrorCode SetUpSources(PC pc)
{
  PC_ChebyCI *jac  = (PC_ChebyCI *)pc->data;
  Mat         P    = pc->pmat;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATPPESTENCIL, &jac->isst));
  PetscCall(FindGrid(pc, &jac->grid));
  jac->gridop = PETSC_FALSE;
  if (jac->grid) PetscCall(PPEStencilIsGridOperator(P, jac->grid, &jac->gridop));
  jac->src = jac->source_set ? jac->source : (jac->gridop ? PC_CHEBYCI_EIG_GRID : PC_CHEBYCI_EIG_ESTIMATE);
  jac->wgt = jac->weighted_set ? jac->weighted : (PetscBool)(jac->grid != NULL);
  PetscCheck(!jac->grid || jac->gridop || (jac->src != PC_CHEBYCI_EIG_GRID && jac->src != PC_CHEBYCI_EIG_GERSHGORIN), comm, PETSC_ERR_ARG_WRONG,
             "PC chebyci: eigenvalue source '%s' gives the bounds of the grid's constant-coefficient operator, but this operator has variable coefficients "
             "(its diagonal is not the grid's); use -pc_chebyci_eig_source estimate (the default here) or give -pc_chebyci_eigenvalues lmin,lmax",
             PCChebyCIEigSources[jac->src]);
  PetscCheck(jac->grid || (jac->src != PC_CHEBYCI_EIG_GRID && jac->src != PC_CHEBYCI_EIG_GERSHGORIN), comm, PETSC_ERR_ARG_WRONG,
             "PC chebyci: eigenvalue source '%s' needs the operator's PPEGrid, but the preconditioning matrix (type %s) is neither a "
             "%s nor a matrix on a DMDA with a PPEGrid; use -pc_chebyci_eig_source estimate or give -pc_chebyci_eigenvalues lmin,lmax",
             PCChebyCIEigSources[jac->src], ((PetscObject)P)->type_name, MATPPESTENCIL);
  PetscCheck(jac->grid || !jac->wgt, comm, PETSC_ERR_ARG_WRONG, "PC chebyci: -pc_chebyci_weighted needs the grid's volume weights, but the preconditioning matrix (type %s) has no PPEGrid", ((PetscObject)P)->type_name);
  PetscCheck(jac->src != PC_CHEBYCI_EIG_USER || jac->user_set, comm, PETSC_ERR_ARG_WRONGSTATE, "PC chebyci: eigenvalue source 'user' but no eigenvalues given: use -pc_chebyci_eigenvalues lmin,lmax");
  PetscCheck(jac->src != PC_CHEBYCI_EIG_USER || jac->mode != PC_CHEBYCI_BLOCK, comm, PETSC_ERR_ARG_INCOMP,
             "PC chebyci: mode block uses each subdomain's own eigenvalue bounds (from the grid or estimated), not the given global ones: use mode nocomm (the given bounds on the local block) or -pc_chebyci_eig_source grid|gershgorin|estimate");
  PetscCheck(jac->mode == PC_CHEBYCI_GLOBAL || P->ops->getdiagonalblock || size == 1, comm, PETSC_ERR_SUP,
             "PC chebyci: mode %s applies the rank-local block, but the preconditioning matrix (type %s) does not provide MatGetDiagonalBlock(); use mode global", PCChebyCIModes[jac->mode], ((PetscObject)P)->type_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator the iteration applies (the full pmat or its rank-local block), fused with the
   step on a MATPPESTENCIL, and the weights D^-1 on the host. */
static PetscErrorCode SetUpOperator(PC pc)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;
  Mat         P   = pc->pmat;
  PetscInt    nloc;

  PetscFunctionBegin;
  if (jac->mode != PC_CHEBYCI_GLOBAL) {
    PetscCall(MatGetDiagonalBlock(P, &jac->Ablock));
    if (jac->Ablock == P) jac->Ablock = NULL; /* one rank, a matrix that is its own block */
  }
  PetscCall(MatGetLocalSize(P, &nloc, NULL));
  if (jac->Ablock) {
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, nloc, NULL, &jac->xs));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, nloc, NULL, &jac->ts));
  }
  jac->ci.its     = jac->its;
  jac->ci.op      = jac->Ablock ? OpLocal : OpGlobal;
  jac->ci.opctx   = pc;
  jac->fused      = (PetscBool)(jac->fuse && jac->isst);
  jac->ci.step    = jac->fused ? StepStencil : NULL;
  jac->ci.stepctx = pc;
  if (jac->wgt) {
    Vec *dh = &jac->ci.dinv[PPE_BACKEND_HOST];
    PetscCall(MatCreateVecs(P, dh, NULL));
    if (jac->gridop) PetscCall(PPEChebyCIGridWeights(jac->grid, *dh));
    else { /* variable coefficients: the volume weights do not scale the rows, which vary with
              beta by the density ratio; D = diag(A) does (point Jacobi) */
      PetscCall(MatGetDiagonal(P, *dh));
      PetscCall(VecReciprocal(*dh));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bounds of the iterated operator: the whole grid's, or this rank's box's in block mode. */
static PetscErrorCode SetUpBounds(PC pc)
{
  PC_ChebyCI *jac   = (PC_ChebyCI *)pc->data;
  Vec         dh    = jac->ci.dinv[PPE_BACKEND_HOST];
  PetscInt    lo[3] = {0, 0, 0}, hi[3], nloc;

  PetscFunctionBegin;
  jac->exact = PETSC_FALSE;
  if (jac->grid) {
    for (int d = 0; d < 3; d++) hi[d] = jac->grid->N[d];
    if (jac->mode == PC_CHEBYCI_BLOCK) {
      const PPEDMDABox *box = &jac->grid->box; /* the kernels' 3D view of the grid's DMDA */
      for (int d = 0; d < 3; d++) lo[d] = box->s[d], hi[d] = lo[d] + box->m[d];
    }
  }
  switch (jac->src) {
  case PC_CHEBYCI_EIG_GRID:
  case PC_CHEBYCI_EIG_GERSHGORIN:
    PetscCall(PPEChebyCIGridBounds(jac->grid, lo, hi, jac->src == PC_CHEBYCI_EIG_GRID ? PPE_CI_BOUNDS_EXACT : PPE_CI_BOUNDS_GERSHGORIN, jac->wgt, &jac->lmin, &jac->lmax, &jac->exact));
    break;
  case PC_CHEBYCI_EIG_USER:
    jac->lmin = jac->user[0];
    jac->lmax = jac->user[1];
    break;
  case PC_CHEBYCI_EIG_ESTIMATE:
    if (jac->mode == PC_CHEBYCI_BLOCK && jac->Ablock) {
      Vec                dl = NULL;
      const PetscScalar *da = NULL;
      PetscCall(MatGetLocalSize(pc->pmat, &nloc, NULL));
      if (dh) {
        PetscCall(VecGetArrayRead(dh, &da));
        PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, nloc, da, &dl));
      }
      PetscCall(PPEChebyCIEstimateBounds(jac->Ablock, dl, jac->est_its, &jac->lmin, &jac->lmax));
      if (dl) {
        PetscCall(VecDestroy(&dl));
        PetscCall(VecRestoreArrayRead(dh, &da));
      }
    } else PetscCall(PPEChebyCIEstimateBounds(pc->pmat, dh, jac->est_its, &jac->lmin, &jac->lmax));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The scale factors and the interval, checked on every rank; the ranges over ranks (for
   -ksp_view). */
static PetscErrorCode SetUpInterval(PC pc)
{
  PC_ChebyCI *jac  = (PC_ChebyCI *)pc->data;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  PetscReal   loc[5], glob[5];

  PetscFunctionBegin;
  /* Default factors: Pennati et al.'s, but the lower one never narrows the interval to a ratio
     below 10 (their 100 is meant for a wide spectrum; a shifted, well-conditioned
     operator would otherwise get an empty interval) */
  jac->fac[0] = jac->scale_set ? jac->scale[0] : PetscMax(1.0, PetscMin(PCChebyCIDefaultScale[jac->mode][0], 0.1 * jac->lmax / jac->lmin));
  jac->fac[1] = jac->scale_set ? jac->scale[1] : PCChebyCIDefaultScale[jac->mode][1];
  loc[0]      = -jac->lmin;
  loc[1]      = jac->lmin;
  loc[2]      = -jac->lmax;
  loc[3]      = jac->lmax;
  loc[4]      = (jac->fac[0] * jac->lmin > 0 && jac->fac[0] * jac->lmin < jac->fac[1] * jac->lmax) ? 0.0 : 1.0;
  PetscCall(MPIU_Allreduce(loc, glob, 5, MPIU_REAL, MPIU_MAX, comm));
  jac->over[0] = -glob[0];
  jac->over[1] = glob[1];
  jac->over[2] = -glob[2];
  jac->over[3] = glob[3];
  PetscCheck(glob[4] == 0.0, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "PC chebyci: the Chebyshev interval is empty or inverted after scaling: eigenvalue bounds [%g, %g] (source %s) times the factors (%g, %g) give [%g, %g] on this rank; need 0 < min_factor*lmin < max_factor*lmax (-pc_chebyci_eig_scale)",
             (double)jac->lmin, (double)jac->lmax, PCChebyCIEigSources[jac->src], (double)jac->fac[0], (double)jac->fac[1], (double)(jac->fac[0] * jac->lmin), (double)(jac->fac[1] * jac->lmax));
  PetscCall(PPEChebyCISetInterval(&jac->ci, jac->fac[0] * jac->lmin, jac->fac[1] * jac->lmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work vectors and weights on the host and on the operator's back end (a MATPPESTENCIL's;
   inputs that live there are iterated there). */
static PetscErrorCode SetUpWork(PC pc)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;
  PPEBackend  b   = PPE_BACKEND_HOST;
  Vec         v;

  PetscFunctionBegin;
  if (jac->isst) PetscCall(PPEStencilGetBackend(pc->pmat, &b));
  PetscCall(MatCreateVecs(pc->pmat, &v, NULL));
  PetscCall(PPEChebyCISetUpWork(&jac->ci, v, b));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_ChebyCI(PC pc)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_ChebyCISetUp, pc, 0, 0, 0));
  PetscCall(PCReset_ChebyCI(pc));
  PetscCall(SetUpSources(pc));
  PetscCall(SetUpOperator(pc));
  PetscCall(SetUpBounds(pc));
  PetscCall(SetUpInterval(pc));
  PetscCall(SetUpWork(pc));
  PetscCall(SetUpBlocking(pc));
  PetscCall(
    PetscInfo(pc, "mode %s, %" PetscInt_FMT " its, bounds [%g, %g] from %s, interval [%g, %g]\n", PCChebyCIModes[jac->mode], jac->its, (double)jac->lmin, (double)jac->lmax, PCChebyCIEigSources[jac->src], (double)jac->ci.alpha, (double)jac->ci.beta));
  PetscCall(PetscLogEventEnd(PPE_ChebyCISetUp, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_ChebyCI(PC pc, Vec x, Vec y)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_ChebyCIApply, pc, x, y, 0));
  PetscCall(PPEChebyCISolve(&jac->ci, x, y));
  jac->applies++;
  PetscCall(PetscLogEventEnd(PPE_ChebyCIApply, pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* p(D^-1 A) D^-1 is symmetric when A is: the transpose is the preconditioner itself. */
static PetscErrorCode PCApplyTranspose_ChebyCI(PC pc, Vec x, Vec y)
{
  PetscBool set, sym;

  PetscFunctionBegin;
  PetscCall(MatIsSymmetricKnown(pc->pmat, &set, &sym));
  PetscCheck(set && sym, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PC chebyci: the transpose equals the preconditioner only for an operator known to be symmetric (MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE))");
  PetscCall(PCApply_ChebyCI(pc, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_ChebyCI(PC pc, PPEOptionItems PetscOptionsObject)
{
  PC_ChebyCI        *jac  = (PC_ChebyCI *)pc->data;
  PCChebyCIMode      mode = jac->mode;
  PCChebyCIEigSource src  = jac->source;
  PetscInt           its = jac->its, est = jac->est_its, n, steps;
  PetscReal          v[3] = {0, 0, 0}; /* one more than allowed: PETSc drops extra values silently */
  PetscBool          flg, wgt = jac->weighted, fuse;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PC ChebyCI options (Chebyshev iteration preconditioner)");
  PetscCall(PetscOptionsEnum("-pc_chebyci_mode", "Operator: global (halo exchange), block (local block, own bounds) or nocomm (local block, global bounds)", "PCChebyCISetMode", PCChebyCIModes, (PetscEnum)mode, (PetscEnum *)&mode, &flg));
  if (flg) PetscCall(PCChebyCISetMode(pc, mode));
  PetscCall(PetscOptionsInt("-pc_chebyci_its", "Chebyshev iterations (operator applications) per application", "PCChebyCISetIterations", its, &its, &flg));
  if (flg) PetscCall(PCChebyCISetIterations(pc, its));
  PetscCall(
    PetscOptionsEnum("-pc_chebyci_eig_source", "Eigenvalue bounds from: grid (exact), gershgorin, user, estimate (default: grid, or estimate without a grid)", "PCChebyCISetEigSource", PCChebyCIEigSources, (PetscEnum)src, (PetscEnum *)&src, &flg));
  if (flg) PetscCall(PCChebyCISetEigSource(pc, src));
  n    = 3;
  v[0] = jac->user[0];
  v[1] = jac->user[1];
  PetscCall(PetscOptionsRealArray("-pc_chebyci_eigenvalues", "Given bounds lmin,lmax of the iterated operator's spectrum (sets the source to user)", "PCChebyCISetEigenvalues", v, &n, &flg));
  if (flg) {
    PetscCheck(n == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, "-pc_chebyci_eigenvalues needs two values lmin,lmax, got %" PetscInt_FMT, n);
    PetscCall(PCChebyCISetEigenvalues(pc, v[0], v[1]));
  }
  n    = 3;
  v[0] = jac->scale_set ? jac->scale[0] : PCChebyCIDefaultScale[jac->mode][0];
  v[1] = jac->scale_set ? jac->scale[1] : PCChebyCIDefaultScale[jac->mode][1];
  PetscCall(PetscOptionsRealArray("-pc_chebyci_eig_scale", "Factors min_factor,max_factor on lmin and lmax (default 100,0.9999 in modes global and nocomm, 1,1 in block; the 100 is capped at lmax/(10 lmin))", "PCChebyCISetEigScale", v, &n, &flg));
  if (flg) {
    PetscCheck(n == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, "-pc_chebyci_eig_scale needs two values min_factor,max_factor, got %" PetscInt_FMT, n);
    PetscCall(PCChebyCISetEigScale(pc, v[0], v[1]));
  }
  PetscCall(PetscOptionsBool("-pc_chebyci_weighted", "Iterate on W^-1 A, W the grid's volume weights (the operator of Pennati et al. 2025), or D^-1 A with D = diag(A) when the operator has variable coefficients (default: yes when there is a grid)",
                             "PCChebyCISetWeighted", wgt, &wgt, &flg));
  if (flg) PetscCall(PCChebyCISetWeighted(pc, wgt));
  PetscCall(PetscOptionsInt("-pc_chebyci_est_its", "CG iterations of the eigenvalue estimate (source estimate)", "PCChebyCISetEstimateIterations", est, &est, &flg));
  if (flg) PetscCall(PCChebyCISetEstimateIterations(pc, est));
  fuse = jac->fuse;
  PetscCall(PetscOptionsBool("-pc_chebyci_fuse", "Fuse each operator application with the Chebyshev update in one sweep (MATPPESTENCIL)", "PCChebyCISetFuse", fuse, &fuse, &flg));
  if (flg) PetscCall(PCChebyCISetFuse(pc, fuse));
  steps = jac->steps;
  PetscCall(
    PetscOptionsInt("-pc_chebyci_block_steps", "Chebyshev steps per temporally blocked sweep in modes block and nocomm on the host (1: one per sweep; default: by the local plane's size, 2 to 12)", "PCChebyCISetBlockSteps", steps, &steps, &flg));
  if (flg) PetscCall(PCChebyCISetBlockSteps(pc, steps));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_ChebyCI(PC pc, PetscViewer viewer)
{
  PC_ChebyCI              *jac = (PC_ChebyCI *)pc->data;
  PetscBool                iascii;
  static const char *const what[] = {"full operator with halo exchange, G(CI)", "rank-local block with its own eigenvalue bounds, no exchange, BJ(CI)", "rank-local block with the global eigenvalue bounds, no exchange, GNoComm(CI)"};
  static const char *const how[]  = {"exact extremes from the 1D spectra (Pennati et al. 2025, eqs. 8-11)", "largest by Gershgorin discs, smallest exact", "given", "Lanczos estimate"};

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  mode %s: %s\n", PCChebyCIModes[jac->mode], what[jac->mode]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Chebyshev iterations (operator applications) per application: %" PetscInt_FMT "\n", jac->its));
  if (!pc->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  (not set up: eigenvalue bounds not computed yet)\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  operator iterated: %s\n",
                                   jac->wgt ? (jac->gridop ? "W^-1 A, W the grid's volume weights (the operator of Pennati et al. 2025)" : "D^-1 A, D = diag(A) (variable coefficients: the volume weights would not scale the rows)") : "A"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalue source: %s, %s%s\n", PCChebyCIEigSources[jac->src], how[jac->src], jac->mode == PC_CHEBYCI_BLOCK ? ", per subdomain" : ""));
  if (jac->mode == PC_CHEBYCI_BLOCK) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalue bounds of the subdomains: lmin in [%g, %g], lmax in [%g, %g]%s\n", (double)jac->over[0], (double)jac->over[1], (double)jac->over[2], (double)jac->over[3], jac->exact ? " (exact)" : ""));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalue bounds: [%g, %g]%s\n", (double)jac->lmin, (double)jac->lmax, jac->exact ? " (exact)" : ""));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  scale factors: lmin x %g, lmax x %g%s\n", (double)jac->fac[0], (double)jac->fac[1],
                                   jac->scale_set ? "" : (jac->fac[0] < PCChebyCIDefaultScale[jac->mode][0] ? " (default of the mode, lmin factor capped at lmax/(10 lmin))" : " (default of the mode)")));
  if (jac->mode == PC_CHEBYCI_BLOCK) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Chebyshev interval used on this rank: [%g, %g]\n", (double)jac->ci.alpha, (double)jac->ci.beta));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Chebyshev interval used: [%g, %g], theta %g, delta %g\n", (double)jac->ci.alpha, (double)jac->ci.beta, (double)jac->ci.theta, (double)jac->ci.delta));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  operator and Chebyshev update fused in one sweep: %s\n", jac->fused ? "yes (MATPPESTENCIL)" : (jac->fuse ? "no (not a MATPPESTENCIL: MatMult, then the update)" : "no (-pc_chebyci_fuse 0)")));
  if (jac->block) PetscCall(PetscViewerASCIIPrintf(viewer, "  temporally blocked: %" PetscInt_FMT " steps per sweep over the local block's z planes%s\n", jac->block, jac->steps == PETSC_DECIDE ? " (default for this plane size)" : ""));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  temporally blocked: no (%s)\n", jac->noblock));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  messages per application: %s; global reductions per application: 0\n", jac->mode == PC_CHEBYCI_GLOBAL ? "one halo exchange per iteration" : "none"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  applications so far: %" PetscInt_FMT "\n", jac->applies));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device back end the iteration runs on for device-resident vectors (a MATPPESTENCIL's,
   after set-up), for the device-resident Krylov iterations (src/krylov/devsolve.c). */
PPE_IMPL_GETTER(PCGetDeviceBackend_ChebyCI, PC, pc, PC_ChebyCI, PPEBackend, b, impl->ci.backend)

/* Getters: the values as asked (or their defaults before set-up). */
PPE_IMPL_GETTER(PCChebyCIGetMode_ChebyCI, PC, pc, PC_ChebyCI, PCChebyCIMode, mode, impl->mode)

PPE_IMPL_GETTER(PCChebyCIGetIterations_ChebyCI, PC, pc, PC_ChebyCI, PetscInt, its, impl->its)

PPE_IMPL_GETTER(PCChebyCIGetEigSource_ChebyCI, PC, pc, PC_ChebyCI, PCChebyCIEigSource, src, pc->setupcalled ? impl->src : impl->source)

static PetscErrorCode PCChebyCIGetEigScale_ChebyCI(PC pc, PetscReal *fmin, PetscReal *fmax)
{
  PC_ChebyCI *jac = (PC_ChebyCI *)pc->data;

  PetscFunctionBegin;
  if (fmin) *fmin = jac->scale_set ? jac->scale[0] : PCChebyCIDefaultScale[jac->mode][0];
  if (fmax) *fmax = jac->scale_set ? jac->scale[1] : PCChebyCIDefaultScale[jac->mode][1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_IMPL_GETTER(PCChebyCIGetBlockSteps_ChebyCI, PC, pc, PC_ChebyCI, PetscInt, steps, pc->setupcalled ? impl->block : impl->steps)

PPE_IMPL_GETTER(PCChebyCIGetApplications_ChebyCI, PC, pc, PC_ChebyCI, PetscInt, n, impl->applies)

PPE_IMPL_GETTER(PCChebyCIGetWeighted_ChebyCI, PC, pc, PC_ChebyCI, PetscBool, flg, pc->setupcalled ? impl->wgt : impl->weighted)

/* The methods PCCreate_ChebyCI() composes and PCDestroy_ChebyCI() removes */
static const PPEMethod PCChebyCIMethods[] = {
  PPE_METHOD(PPEPCGetDeviceBackend, PCGetDeviceBackend_ChebyCI),
  PPE_METHOD(PCChebyCISetMode, PCChebyCISetMode_ChebyCI),
  PPE_METHOD(PCChebyCIGetMode, PCChebyCIGetMode_ChebyCI),
  PPE_METHOD(PCChebyCISetIterations, PCChebyCISetIterations_ChebyCI),
  PPE_METHOD(PCChebyCIGetIterations, PCChebyCIGetIterations_ChebyCI),
  PPE_METHOD(PCChebyCISetEigSource, PCChebyCISetEigSource_ChebyCI),
  PPE_METHOD(PCChebyCIGetEigSource, PCChebyCIGetEigSource_ChebyCI),
  PPE_METHOD(PCChebyCISetEigenvalues, PCChebyCISetEigenvalues_ChebyCI),
  PPE_METHOD(PCChebyCISetEigScale, PCChebyCISetEigScale_ChebyCI),
  PPE_METHOD(PCChebyCIGetEigScale, PCChebyCIGetEigScale_ChebyCI),
  PPE_METHOD(PCChebyCISetWeighted, PCChebyCISetWeighted_ChebyCI),
  PPE_METHOD(PCChebyCIGetWeighted, PCChebyCIGetWeighted_ChebyCI),
  PPE_METHOD(PCChebyCISetEstimateIterations, PCChebyCISetEstimateIterations_ChebyCI),
  PPE_METHOD(PCChebyCISetFuse, PCChebyCISetFuse_ChebyCI),
  PPE_METHOD(PCChebyCISetBlockSteps, PCChebyCISetBlockSteps_ChebyCI),
  PPE_METHOD(PCChebyCIGetBlockSteps, PCChebyCIGetBlockSteps_ChebyCI),
  PPE_METHOD(PCChebyCIGetInterval, PCChebyCIGetInterval_ChebyCI),
  PPE_METHOD(PCChebyCIGetApplications, PCChebyCIGetApplications_ChebyCI),
};

static PetscErrorCode PCDestroy_ChebyCI(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_ChebyCI(pc));
  PetscCall(PPEComposeMethods(pc, PCChebyCIMethods, PETSC_FALSE));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCCHEBYCI - "chebyci" - a fixed number of Chebyshev iterations as a linear preconditioner,
   with analytic eigenvalue bounds and, in modes block and nocomm, no communication at all

   Options Database Keys:
+  -pc_chebyci_mode <global,block,nocomm> - full operator with halo exchange G(CI); rank-local block
                                            with its own bounds BJ(CI); rank-local block with the
                                            global bounds GNoComm(CI) (default: global)
.  -pc_chebyci_its <n> - Chebyshev iterations, i.e. operator applications, per application (default: 24)
.  -pc_chebyci_eig_source <grid,gershgorin,user,estimate> - where the bounds come from (default: grid
                                            when the operator has a PPEGrid, estimate otherwise)
.  -pc_chebyci_eigenvalues <lmin,lmax> - given bounds (sets the source to user)
.  -pc_chebyci_eig_scale <min_factor,max_factor> - interval [min_factor lmin, max_factor lmax]
                                            (default: 100,0.9999 in global and nocomm, 1,1 in block;
                                            the 100 is capped so that the interval keeps a ratio >= 10)
.  -pc_chebyci_weighted <bool> - iterate on W^-1 A, W the grid's volume weights, or on D^-1 A, D = diag(A), when the operator has variable coefficients (default: yes with a grid)
.  -pc_chebyci_est_its <n> - CG iterations of the estimate (default: 40)
-  -pc_chebyci_fuse <bool> - one sweep for each operator application and its Chebyshev update
                             (MATPPESTENCIL; default: true; same bits either way)
-  -pc_chebyci_block_steps <n> - modes block and nocomm on the host: n Chebyshev steps per
                             temporally blocked sweep over the local block's z planes (1: one
                             step per sweep; default: by the local plane's size, 2 to 12; same
                             bits either way)

   Level: intermediate

   Notes:
   The operator is the preconditioning matrix: a MATPPESTENCIL, an assembled matrix on a DMDA
   carrying a PPEGrid (PPEStencilCreateAssembled()), or any matrix with given or estimated
   bounds (modes block and nocomm need MatGetDiagonalBlock()). With the grid's weights the
   iterated operator W^-1 A is Pennati et al.'s matrix and its extreme eigenvalues are known exactly;
   block mode computes them for its own box from truncated 1D operators (LAPACK).

   The preconditioner is linear, fixed and symmetric for a symmetric operator: it works with
   KSPCG and any Krylov method, not only flexible ones. Applications make no global reduction;
   modes block and nocomm send no message (the halo values are taken as zero).

   A singular operator (all Neumann or periodic, no shift): the bounds are those of the
   operator on the complement of the constants; the preconditioner maps constants to a
   multiple of themselves, which the KSP removes with the null space.

   References:
   L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and S. Markidis,
   "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned Bi-CGSTAB with alpaka",
   arXiv:2503.08935, 2025 (Chebyshev-iteration preconditioners, Algorithms 2 and 4, Table I);
   Y. Saad, Iterative Methods for Sparse Linear Systems, sec. 12.3.

.seealso: KSPBCGSFUSED, PCChebyCISetMode(), PCChebyCISetIterations(), PCChebyCISetEigenvalues(),
          PCChebyCISetEigScale(), PCChebyCIGetInterval(), KSPCHEBYSHEV
M*/
PETSC_EXTERN PetscErrorCode PCCreate_ChebyCI(PC pc)
{
  PC_ChebyCI *jac;

  PetscFunctionBegin;
  PetscCall(PetscNew(&jac));
  pc->data      = (void *)jac;
  jac->mode     = PC_CHEBYCI_GLOBAL;
  jac->its      = 24;
  jac->source   = PC_CHEBYCI_EIG_GRID;
  jac->scale[0] = PCChebyCIDefaultScale[0][0];
  jac->scale[1] = PCChebyCIDefaultScale[0][1];
  jac->est_its  = 40;
  jac->fuse     = PETSC_TRUE;
  jac->steps    = PETSC_DECIDE;
  jac->weighted = PETSC_TRUE;
  jac->ci.its   = jac->its;

  pc->ops->setup          = PCSetUp_ChebyCI;
  pc->ops->apply          = PCApply_ChebyCI;
  pc->ops->applytranspose = PCApplyTranspose_ChebyCI;
  pc->ops->setfromoptions = PCSetFromOptions_ChebyCI;
  pc->ops->view           = PCView_ChebyCI;
  pc->ops->reset          = PCReset_ChebyCI;
  pc->ops->destroy        = PCDestroy_ChebyCI;

  PetscCall(PPEComposeMethods(pc, PCChebyCIMethods, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSP bcgsfused: right-preconditioned Bi-CGSTAB with fused local work and merged reductions.

   Method (Pennati et al. (2025), Algorithm 3; van der Vorst's Bi-CGSTAB with the preconditioned vectors
   kept, so the preconditioner may change between applications):

     r = b - A x, rt = r, p = r, rho = rt'r
     loop:  ph = M^-1 p                          (PC)
            w = A ph,  rt'w                      (operator + local dot, fused; reduction 1)
            alpha = rho / rt'w
            s = r - alpha w                      (KernelBiCGS2)
            rh = M^-1 s                          (PC)
            t = A rh,  t's, t't                  (operator + two local dots, fused; reduction 2)
            omega = t's / t't
            x = x + alpha ph + omega rh          (KernelBiCGS4)
            r = s - omega t,  rt'r, r'r          (KernelBiCGS5 + two local dots; reduction 3)
            converged on ||r|| = sqrt(r'r)?
            beta = (rt'r / rho) (alpha / omega), rho = rt'r
            p = r + beta (p - omega w)           (KernelBiCGS6)

   Each stage's dot products are local partial sums merged into one MPI_Allreduce: three
   reductions per iteration where KSPBCGS makes four, and the residual norm comes free with
   the third. When the operator is a MATPPESTENCIL the dot products that follow an operator
   application are accumulated row by row inside it (PPEStencilMultDot): no second pass over
   the vectors, and the same output bits as MatMult. The solution is updated with ph and rh
   themselves, so nothing assumes M fixed: inner Krylov solves (PCKSP, PCBJACOBI with a KSP)
   work, as in FBiCGS-G(BiCGS) and FBiCGS-BJ(BiCGS) of Pennati et al. (2025).

   Breakdowns: rt'w = 0 or rt'r = 0 give KSP_DIVERGED_BREAKDOWN_BICG; t = 0 with s != 0 or
   omega = 0 give KSP_DIVERGED_BREAKDOWN; t = 0 with s = 0 is an exact solution
   (KSP_CONVERGED_HAPPY_BREAKDOWN).

   The type (options, set-up, solve, view, life cycle) is here, its public functions in
   bcgsfusedapi.c.

   References:
     H. A. van der Vorst, "Bi-CGSTAB: a fast and smoothly converging variant of Bi-CG for the
     solution of nonsymmetric linear systems", SIAM Journal on Scientific and Statistical
     Computing 13, 631-644, 1992.
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned Bi-CGSTAB
     with alpaka", arXiv:2503.08935, 2025, sec. III.A-B, Algorithm 3 (docs/types/bcgsfused.md).
*/
#include <ppekit/private/krylovimpl.h>
#include <ppekit/private/stencilimpl.h>
#include <petsc/private/kspimpl.h>
#include "../../pluginimpl.h"

/* Default of -ksp_bcgsfused_fuse: fusing gives the same output bits as MatMult and saves a pass
   over the vectors per operator application (no effect when the operator is not a MATPPESTENCIL) */
#define BCGSFUSED_DEFAULT_FUSE PETSC_TRUE

typedef struct {
  PetscBool     fuse;       /* fuse operator and dot products when the operator is a MATPPESTENCIL */
  PetscBool     fused;      /* the last solve did */
  PetscBool     alias;      /* the last solve used p and s as ph and rh (PCNONE: no copies) */
  PetscInt      reductions; /* global reductions (merged stages and norms) of the last solve */
  PetscInt      pcapplies;  /* preconditioner applications of the last solve */
  PPEKrylovVecs vecs;       /* the vectors of the iteration, on the back end where it runs */
} KSP_BCGSFused;

PPE_IMPL_SETTER(KSPBCGSFusedSetFuse_BCGSFused, KSP, ksp, KSP_BCGSFused, PetscBool, flg, fuse, , )
PPE_IMPL_GETTER(KSPBCGSFusedGetFuse_BCGSFused, KSP, ksp, KSP_BCGSFused, PetscBool, flg, impl->fuse)
PPE_IMPL_GETTER(KSPBCGSFusedGetReductionCount_BCGSFused, KSP, ksp, KSP_BCGSFused, PetscInt, n, impl->reductions)

static PetscErrorCode KSPSetUp_BCGSFused(KSP ksp)
{
  PetscFunctionBegin; /* right preconditioning only: KSPSetUp() refuses PC_LEFT from the supported norms */
  PetscCall(KSPSetWorkVecs(ksp, 7));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x with the n local dot products y.u[q], fused when possible; then their sum over ranks. */
static PetscErrorCode ApplyAndDot(KSP ksp, Mat A, PetscBool fused, Vec x, Vec y, PetscInt n, const Vec u[], PetscScalar d[])
{
  KSP_BCGSFused *bf = (KSP_BCGSFused *)ksp->data;

  PetscFunctionBegin;
  if (fused) PetscCall(PPEStencilMultDot(A, x, y, n, u, d));
  else {
    PetscCall(KSP_MatMult(ksp, A, x, y));
    PetscCall(PPEKrylovLocalDots(y, n, u, d));
  }
  PetscCall(PPEKrylovAllreduce(PetscObjectComm((PetscObject)ksp), n, d));
  bf->reductions++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Converged(KSP ksp, PetscReal dp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its++;
  ksp->rnorm = dp;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, dp));
  PetscCall(KSPMonitor(ksp, ksp->its, dp));
  PetscCall((*ksp->converged)(ksp, ksp->its, dp, &ksp->reason, ksp->cnvP));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_BCGSFused_Private(KSP ksp)
{
  KSP_BCGSFused *bf   = (KSP_BCGSFused *)ksp->data;
  Vec           *work = bf->vecs.work;
  Vec            X = bf->vecs.x, B = bf->vecs.rhs, R = work[0], RT = work[1], P = work[2];
  Vec            PH = work[3], W = work[4], RH = work[5], T = work[6], u[2];
  Mat            A;
  PetscScalar    rho, alpha, omega, beta, d[2];
  PetscReal      dp;
  PetscBool      isst, none;

  PetscFunctionBegin;
  PetscCheck(!ksp->transpose_solve, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSP bcgsfused has no transpose solve");
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &isst));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCNONE, &none));
  bf->fused      = (PetscBool)(bf->fuse && isst);
  bf->alias      = none;
  bf->reductions = 0;
  bf->pcapplies  = 0;
  if (none) { /* M = I: the preconditioned vectors are p and s themselves */
    PH = P;
    RH = R;
  }

  /* r = b - A x, rho = rt'r = ||r||^2 */
  if (!ksp->guess_zero) {
    PetscCall(KSP_MatMult(ksp, A, X, R));
    PetscCall(VecAYPX(R, -1.0, B));
  } else PetscCall(VecCopy(B, R));
  u[0] = R;
  PetscCall(PPEKrylovLocalDots(R, 1, u, d));
  PetscCall(PPEKrylovAllreduce(PetscObjectComm((PetscObject)ksp), 1, d));
  bf->reductions++;
  rho = d[0];
  dp  = PetscSqrtReal(PetscAbsScalar(rho));
  KSPCheckNorm(ksp, dp);
  PetscCall(PetscObjectSAWsTakeAccess((PetscObject)ksp));
  ksp->its   = 0;
  ksp->rnorm = dp;
  PetscCall(PetscObjectSAWsGrantAccess((PetscObject)ksp));
  PetscCall(KSPLogResidualHistory(ksp, dp));
  PetscCall(KSPMonitor(ksp, 0, dp));
  PetscCall((*ksp->converged)(ksp, 0, dp, &ksp->reason, ksp->cnvP));
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecCopy(R, RT));
  PetscCall(VecCopy(R, P));

  while (ksp->its < ksp->max_it) {
    if (!none) {
      PetscCall(KSP_PCApply(ksp, P, PH)); /* ph = M^-1 p */
      bf->pcapplies++;
    }
    u[0] = RT;
    PetscCall(ApplyAndDot(ksp, A, bf->fused, PH, W, 1, u, d)); /* w = A ph, rt'w */
    KSPCheckDot(ksp, d[0]);
    if (d[0] == 0.0) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN_BICG;
      PetscCall(PetscInfo(ksp, "Breakdown: rt'A ph = 0 at iteration %" PetscInt_FMT "\n", ksp->its));
      break;
    }
    alpha = rho / d[0];
    PetscCall(PPEBCGSKernelAxpy(R, alpha, W)); /* s = r - alpha w */
    if (!none) {
      PetscCall(KSP_PCApply(ksp, R, RH)); /* rh = M^-1 s */
      bf->pcapplies++;
    }
    u[0] = R;
    u[1] = T;
    PetscCall(ApplyAndDot(ksp, A, bf->fused, RH, T, 2, u, d)); /* t = A rh, t's, t't */
    KSPCheckDot(ksp, d[1]);
    if (d[1] == 0.0) { /* t = 0: s = 0 means x + alpha ph solves the system; otherwise no progress */
      PetscReal sn;
      PetscCall(VecNorm(R, NORM_2, &sn));
      bf->reductions++;
      if (sn != 0.0) {
        ksp->reason = KSP_DIVERGED_BREAKDOWN;
        PetscCall(PetscInfo(ksp, "Breakdown: A M^-1 s = 0 with s != 0 at iteration %" PetscInt_FMT "\n", ksp->its));
        break;
      }
      PetscCall(VecAXPY(X, alpha, PH));
      PetscCall(Converged(ksp, 0.0));
      if (!ksp->reason) ksp->reason = KSP_CONVERGED_HAPPY_BREAKDOWN;
      break;
    }
    omega = d[0] / d[1];
    PetscCall(PPEBCGSKernelUpdate(PPE_BCGS_UPDATE_X, X, alpha, omega, PH, RH)); /* x = x + alpha ph + omega rh */
    PetscCall(PPEBCGSKernelUpdateR(R, omega, T, RT, d));                        /* r = s - omega t, rt'r, r'r */
    PetscCall(PPEKrylovAllreduce(PetscObjectComm((PetscObject)ksp), 2, d));
    bf->reductions++;
    dp = PetscSqrtReal(PetscAbsScalar(d[1]));
    KSPCheckNorm(ksp, dp);
    PetscCall(Converged(ksp, dp));
    if (ksp->reason) break;
    if (omega == 0.0) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      PetscCall(PetscInfo(ksp, "Breakdown: omega = t's/t't = 0 at iteration %" PetscInt_FMT "\n", ksp->its));
      break;
    }
    if (d[0] == 0.0) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN_BICG;
      PetscCall(PetscInfo(ksp, "Breakdown: rho = rt'r = 0 at iteration %" PetscInt_FMT "\n", ksp->its));
      break;
    }
    beta = (d[0] / rho) * (alpha / omega);
    rho  = d[0];
    PetscCall(PPEBCGSKernelUpdate(PPE_BCGS_UPDATE_P, P, beta, omega, R, W)); /* p = r + beta (p - omega w) */
  }
  if (!ksp->reason) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The iteration on the vectors of the back end where it runs (src/krylov/devsolve.c): on a
   device b in once, x out once, the reductions' numbers per iteration. */
static PetscErrorCode KSPSolve_BCGSFused(KSP ksp)
{
  KSP_BCGSFused *bf = (KSP_BCGSFused *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PPEKrylovVecsBegin(ksp, &bf->vecs));
  PetscCall(KSPSolve_BCGSFused_Private(ksp));
  PetscCall(PPEKrylovVecsEnd(ksp, &bf->vecs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_BCGSFused(KSP ksp, PPEOptionItems PetscOptionsObject)
{
  KSP_BCGSFused *bf = (KSP_BCGSFused *)ksp->data;
  PetscBool      flg, fuse = bf->fuse;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP BCGSFused options (Bi-CGSTAB, fused kernels, merged reductions)");
  PetscCall(PetscOptionsBool("-ksp_bcgsfused_fuse", "Fuse the operator apply with the dot products that follow it (MATPPESTENCIL operators)", "KSPBCGSFusedSetFuse", fuse, &fuse, &flg));
  if (flg) PetscCall(KSPBCGSFusedSetFuse(ksp, fuse));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_BCGSFused(KSP ksp, PetscViewer viewer)
{
  KSP_BCGSFused *bf = (KSP_BCGSFused *)ksp->data;
  PetscBool      iascii, isst = PETSC_FALSE;
  Mat            A = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (ksp->pc) PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  if (A) PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &isst));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  right-preconditioned, flexible (the preconditioner may change between applications)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  global reductions per iteration: 3 merged MPI_Allreduce (rt'w; t's with t't; rt'r with r'r), residual norm included (KSPBCGS: 4)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  fused operator apply + local dot products: %s\n",
                                   bf->fuse && isst ? "yes (MATPPESTENCIL)" : (bf->fuse ? "no (the operator is not a MATPPESTENCIL: MatMult, then one pass for the dots)" : "no (-ksp_bcgsfused_fuse 0)")));
  PetscCall(PPEKrylovVecsView(viewer, &bf->vecs, "the reductions' numbers per iteration"));
  if (ksp->its > 0 || bf->reductions > 0)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %" PetscInt_FMT " iterations, %" PetscInt_FMT " global reductions, %" PetscInt_FMT " preconditioner applications%s\n", ksp->its, bf->reductions, bf->pcapplies,
                                     bf->alias ? " (PC none: no copies)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_BCGSFused(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(PPEKrylovVecsReset(&((KSP_BCGSFused *)ksp->data)->vecs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The methods KSPCreate_BCGSFused() composes and KSPDestroy_BCGSFused() removes */
static const PPEMethod KSPBCGSFusedMethods[] = {
  PPE_METHOD(KSPBCGSFusedSetFuse, KSPBCGSFusedSetFuse_BCGSFused),
  PPE_METHOD(KSPBCGSFusedGetFuse, KSPBCGSFusedGetFuse_BCGSFused),
  PPE_METHOD(KSPBCGSFusedGetReductionCount, KSPBCGSFusedGetReductionCount_BCGSFused),
};

static PetscErrorCode KSPDestroy_BCGSFused(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_BCGSFused(ksp));
  PetscCall(PPEComposeMethods(ksp, KSPBCGSFusedMethods, PETSC_FALSE));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPBCGSFUSED - "bcgsfused" - right-preconditioned Bi-CGSTAB with fused kernels and three
   merged global reductions per iteration (Pennati et al. (2025), Algorithm 3), for any
   preconditioner, including ones that change between applications

   Options Database Key:
.  -ksp_bcgsfused_fuse <bool> - fuse the operator apply with the dot products that follow it when
                                the operator is a MATPPESTENCIL (default BCGSFUSED_DEFAULT_FUSE: true)

   Level: intermediate

   Notes:
   Right preconditioning only; the monitored norm is the true residual ||b - A x|| (computed
   by recurrence, as in KSPBCGS). Convergence is tested once per iteration, on the full step.
   With PCNONE the preconditioned vectors are the iterates themselves (no copies).

   Each iteration makes three MPI_Allreduce calls (KSPBCGS four); with PCCHEBYCI in mode nocomm
   they and the two operator halo exchanges are the only communication of an iteration.

   References:
   H. A. van der Vorst, "Bi-CGSTAB: a fast and smoothly converging variant of Bi-CG for the
   solution of nonsymmetric linear systems", SIAM Journal on Scientific and Statistical
   Computing 13, 1992; L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal,
   M. Bussmann and S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver:
   Preconditioned Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025, Algorithm 3.

.seealso: KSPBCGS, KSPFBCGS, KSPFBCGSR, PCCHEBYCI, KSPBCGSFusedSetFuse(),
          KSPBCGSFusedGetReductionCount()
M*/
/* The iterate x is kept in the original variables (x += alpha M^-1 p + omega M^-1 s), so the
   solution is x itself (during a solve the iterate on the back end where it runs): PETSc's
   default for right preconditioning would apply M^-1 to it. */
static PetscErrorCode KSPBuildSolution_BCGSFused(KSP ksp, Vec v, Vec *V)
{
  PetscFunctionBegin;
  PetscCall(PPEKrylovVecsBuildSolution(ksp, &((KSP_BCGSFused *)ksp->data)->vecs, v, V));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode KSPCreate_BCGSFused(KSP ksp)
{
  KSP_BCGSFused *bf;

  PetscFunctionBegin;
  PetscCall(PetscNew(&bf));
  bf->fuse  = BCGSFUSED_DEFAULT_FUSE;
  ksp->data = (void *)bf;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));

  ksp->ops->setup          = KSPSetUp_BCGSFused;
  ksp->ops->solve          = KSPSolve_BCGSFused;
  ksp->ops->reset          = KSPReset_BCGSFused;
  ksp->ops->destroy        = KSPDestroy_BCGSFused;
  ksp->ops->buildsolution  = KSPBuildSolution_BCGSFused;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  ksp->ops->setfromoptions = KSPSetFromOptions_BCGSFused;
  ksp->ops->view           = KSPView_BCGSFused;

  PetscCall(PPEComposeMethods(ksp, KSPBCGSFusedMethods, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

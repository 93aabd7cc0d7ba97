/*
   KSPCBCG set-up work shared by KSPSetUp_CBCG() (cbcg.c) and the start of every solve
   (KSPCBCGSolveBegin() in cbcgstep.c): the work vectors and the three blocks of s vectors, and
   the interval [lmin, lmax] of the Chebyshev basis (given, from the grid, or estimated).
*/
#include "cbcgimpl.h"

/* The interval of the Chebyshev basis for the current operators: given, from the grid, or
   estimated (the estimate needs the preconditioner set up). Redone when an operator changes. */
PetscErrorCode KSPCBCGSetUpInterval(KSP ksp)
{
  KSP_CBCG        *cb = (KSP_CBCG *)ksp->data;
  Mat              A, P;
  PetscObjectId    aid, pid;
  PetscObjectState ast, pst;
  PetscBool        stencil, none = PETSC_FALSE, jacobi = PETSC_FALSE, constant = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, &P));
  PetscCall(PetscObjectGetId((PetscObject)A, &aid));
  PetscCall(PetscObjectGetId((PetscObject)P, &pid));
  PetscCall(PetscObjectStateGet((PetscObject)A, &ast));
  PetscCall(PetscObjectStateGet((PetscObject)P, &pst));
  if (cb->have_interval && aid == cb->matid && pid == cb->pmatid && ast == cb->matstate && pst == cb->pmatstate) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &stencil));
  if (stencil) { /* the grid's bounds hold for its constant-coefficient operator only */
    PPEStencilCoefficients kind;
    PetscCall(PPEStencilGetCoefficients(A, &kind, NULL, NULL));
    constant = (PetscBool)(kind == PPE_COEFFICIENTS_CONSTANT);
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCNONE, &none));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &jacobi));
  if (jacobi) {
    PCJacobiType jt;
    PetscCall(PCJacobiGetType(ksp->pc, &jt));
    jacobi = (PetscBool)(jt == PC_JACOBI_DIAGONAL && P == A);
  }
  cb->exact                = PETSC_FALSE;
  cb->stats.eig_its        = 0;
  cb->stats.eig_reductions = 0;
  if (cb->eig_set) {
    cb->source = KSP_CBCG_EIG_GIVEN;
    cb->lmin   = cb->eig_given[0];
    cb->lmax   = cb->eig_given[1];
  } else if (stencil && none && constant) {
    PPEGrid grid;
    PetscCall(PPEStencilGetGrid(A, &grid));
    PetscCall(PPEGridGetOperatorBounds(grid, &cb->lmin, &cb->lmax, &cb->exact));
    cb->source = KSP_CBCG_EIG_GRID;
  } else if (stencil && jacobi) {
    /* Gershgorin: the rows of the stencil are weakly diagonally dominant (with variable
       coefficients too: a diagonal is the sum of its faces plus the shift), so the spectrum of
       D^-1 A lies in [0, 2] */
    cb->source = KSP_CBCG_EIG_GRID_JACOBI;
    cb->lmin   = 0;
    cb->lmax   = 2;
  } else {
    MatNullSpace nsp;
    Vec          v;
    PetscCall(PCSetUp(ksp->pc));
    PetscCall(MatGetNullSpace(A, &nsp));
    PetscCall(MatCreateVecs(A, &v, NULL));
    PetscCall(PPECBCGEstimateEigenvalues(A, ksp->pc, nsp, v, cb->eig_its, &cb->est));
    PetscCall(VecDestroy(&v));
    cb->stats.eig_its        = cb->est.its;
    cb->stats.eig_reductions = cb->est.reductions;
    cb->source               = KSP_CBCG_EIG_LANCZOS;
    cb->lmin                 = 0;
    cb->lmax                 = cb->safety * cb->est.ritz_max;
    if (!(cb->lmax > 0) || PetscIsInfOrNanReal(cb->lmax)) cb->lmax = 1; /* no usable estimate: the solve will report why */
    PetscCall(PetscInfo(ksp, "KSPCBCG: Lanczos estimate (%" PetscInt_FMT " steps%s): Ritz values [%g, %g], interval used [%g, %g]\n", cb->est.its, cb->est.breakdown ? ", stopped early" : "", (double)cb->est.ritz_min, (double)cb->est.ritz_max,
                        (double)cb->lmin, (double)cb->lmax));
  }
  cb->matid         = aid;
  cb->pmatid        = pid;
  cb->matstate      = ast;
  cb->pmatstate     = pst;
  cb->have_interval = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The three blocks of s vectors and their images freed (again at the next KSPCBCGAllocate()). */
PetscErrorCode KSPCBCGFreeBlocks(KSP_CBCG *cb)
{
  PetscFunctionBegin;
  if (cb->nalloc) {
    for (int b = 0; b < 3; b++) {
      PetscCall(VecDestroyVecs(cb->nalloc, &cb->V[b]));
      PetscCall(VecDestroyVecs(cb->nalloc, &cb->AV[b]));
    }
  }
  cb->nalloc = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Work vectors and the three blocks of s vectors (again after s changed). The blocks follow
   the iteration's work vectors: in a solve, where it runs (made again when a solve runs on
   another back end than the last; a set-up keeps them where they are). */
PetscErrorCode KSPCBCGAllocate(KSP ksp)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;
  Vec       tmpl;

  PetscFunctionBegin;
  if (ksp->nwork != CBCG_NWORK) PetscCall(KSPSetWorkVecs(ksp, CBCG_NWORK)); /* it reallocates on every call */
  tmpl = cb->vecs.work ? cb->vecs.work[0] : ksp->work[0];
  if (cb->nalloc && cb->vecs.work) {
    PPEBackend bt, bv;
    PetscCall(PPEVecGetBackend(tmpl, &bt));
    PetscCall(PPEVecGetBackend(cb->V[0][0], &bv));
    if (bv != bt) PetscCall(KSPCBCGFreeBlocks(cb));
  }
  if (!cb->nalloc) {
    for (int b = 0; b < 3; b++) {
      PetscCall(VecDuplicateVecs(tmpl, cb->s, &cb->V[b]));
      PetscCall(VecDuplicateVecs(tmpl, cb->s, &cb->AV[b]));
    }
    cb->nalloc = cb->s;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

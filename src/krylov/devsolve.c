/*
   The vectors of the Krylov iterations of KSP cbcg and KSP bcgsfused, on the back end where
   the iteration runs (PPEKrylovVecs, include/ppekit/private/krylovimpl.h).

   The iteration runs on the operator's back end when the operator is a MATPPESTENCIL and the
   preconditioner runs there too (PC none anywhere; PPEKit's PCs say where through their
   composed "PPEPCGetDeviceBackend_C"), else on the host. Its vectors live on that back end:
   the user's b and x and the KSP's work vectors where they already do (on the host, standard
   vectors do; on a device, PETSc's VECCUDA/VECHIP or PPEKit's VECPPEEMU/VECPPECUDA/VECPPEHIP
   of that back end), else internal vectors of that back end made once and kept until the
   KSP is reset. b is copied into its internal vector once per solve (VecCopy), x too when the
   initial guess is nonzero (a zero guess is set there: nothing crosses), and x is copied out
   once at the end. In between the operator, the preconditioner and the vector kernels use the
   arrays of those vectors in place, PETSc's vector operations on them (VecCopy, VecAXPY,
   VecNorm, ...) run there too, and only the numbers of the reductions come back.

   A monitor or PETSc function that builds the solution during the solve gets the iterate
   (PPEKrylovVecsBuildSolution(), the types' buildsolution); its host values are read through
   the vector type's own coherent access, at the price of a counted copy.
*/
#include <ppekit/private/krylovimpl.h>
#include <petsc/private/kspimpl.h>

/* The back end the PC runs on for an operator on back end want: PC none runs where its
   vectors live (PCApply_None is a VecCopy), PPEKit's PCs say it through their composed
   "PPEPCGetDeviceBackend_C"; any other PC runs on the host. */
static PetscErrorCode PCBackend(PC pc, PPEBackend want, PPEBackend *b)
{
  PetscBool none;
  PetscErrorCode (*f)(PC, PPEBackend *) = NULL;

  PetscFunctionBegin;
  *b = PPE_BACKEND_HOST;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, &none));
  if (none) *b = want;
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PPEPCGetDeviceBackend_C", &f));
  if (f) PetscCall((*f)(pc, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where the iteration of a solve runs (*be), and why that is not a device back end (*why;
   NULL when it is). */
static PetscErrorCode IterationBackend(KSP ksp, PPEBackend *be, const char **why)
{
  Mat        A;
  PetscBool  isst;
  PPEBackend b, pb;

  PetscFunctionBegin;
  *be  = PPE_BACKEND_HOST;
  *why = "the operator is not a MATPPESTENCIL";
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &isst));
  if (!isst) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEStencilGetBackend(A, &b));
  PetscCall(PCBackend(ksp->pc, b, &pb));
  *why = NULL;
  if (b == PPE_BACKEND_HOST) *why = "the operator runs on the host back end";
  else if (pb != b) *why = "the preconditioner has no device path on the operator's back end (PPEKit's PCs and PC none have)";
  else *be = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether v lives on back end b with the layout of ref (ref NULL: any layout). */
static PetscErrorCode LivesOn(Vec v, PPEBackend b, Vec ref, PetscBool *on)
{
  PPEBackend vb;
  PetscInt   n, nr;

  PetscFunctionBegin;
  PetscCall(PPEVecGetBackend(v, &vb));
  *on = (PetscBool)(vb == b);
  if (ref && *on) {
    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(VecGetLocalSize(ref, &nr));
    *on = (PetscBool)(n == nr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *use = v where it lives on back end b, else the internal vector *in of b (made once, again
   when the back end or the layout changed) */
static PetscErrorCode OnBackend(Vec v, PPEBackend b, Vec *in, Vec *use)
{
  PetscBool on = PETSC_FALSE;

  PetscFunctionBegin;
  *use = v;
  PetscCall(LivesOn(v, b, NULL, &on));
  if (on) PetscFunctionReturn(PETSC_SUCCESS);
  if (*in) PetscCall(LivesOn(*in, b, v, &on));
  if (!on) {
    PetscCall(VecDestroy(in));
    PetscCall(PPEVecCreateOn(v, b, in));
  }
  *use = *in;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work vectors of the iteration: the KSP's where they all live on back end b, else
   kv->wi, made there once (again when the back end, their number or the layout changed). */
static PetscErrorCode WorkOnBackend(KSP ksp, PPEBackend b, PPEKrylovVecs *kv)
{
  PetscBool on = PETSC_TRUE, ok = PETSC_FALSE;

  PetscFunctionBegin;
  kv->work = ksp->work;
  for (PetscInt i = 0; i < ksp->nwork && on; i++) PetscCall(LivesOn(ksp->work[i], b, NULL, &on));
  if (on) PetscFunctionReturn(PETSC_SUCCESS);
  if (kv->nwi == ksp->nwork) PetscCall(LivesOn(kv->wi[0], b, ksp->work[0], &ok));
  if (!ok) {
    Vec w;

    if (kv->nwi) PetscCall(VecDestroyVecs(kv->nwi, &kv->wi));
    kv->nwi = 0;
    PetscCall(PPEVecCreateOn(ksp->work[0], b, &w));
    PetscCall(VecDuplicateVecs(w, ksp->nwork, &kv->wi));
    PetscCall(VecDestroy(&w));
    kv->nwi = ksp->nwork;
  }
  kv->work = kv->wi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEKrylovVecsBegin - at the start of a solve: where the iteration runs, and its vectors
   there (kv->x, kv->rhs, kv->work), with b copied in and x copied in (zeroed there for a zero
   initial guess) where they are internal vectors
*/
PetscErrorCode PPEKrylovVecsBegin(KSP ksp, PPEKrylovVecs *kv)
{
  PetscFunctionBegin;
  PetscCall(IterationBackend(ksp, &kv->b, &kv->why));
  kv->solved = PETSC_TRUE;
  PetscCall(OnBackend(ksp->vec_rhs, kv->b, &kv->bi, &kv->rhs));
  PetscCall(OnBackend(ksp->vec_sol, kv->b, &kv->xi, &kv->x));
  PetscCall(WorkOnBackend(ksp, kv->b, kv));
  if (kv->rhs != ksp->vec_rhs) PetscCall(VecCopy(ksp->vec_rhs, kv->rhs)); /* b in */
  if (kv->x != ksp->vec_sol) {
    if (ksp->guess_zero) PetscCall(VecSet(kv->x, 0.0)); /* set where x lives: nothing crosses */
    else PetscCall(VecCopy(ksp->vec_sol, kv->x));       /* x in */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovVecsEnd - at the end of a solve: x copied out where it was an internal vector */
PetscErrorCode PPEKrylovVecsEnd(KSP ksp, PPEKrylovVecs *kv)
{
  PetscFunctionBegin;
  if (kv->x && kv->x != ksp->vec_sol) PetscCall(VecCopy(kv->x, ksp->vec_sol)); /* x out */
  kv->x    = NULL;
  kv->rhs  = NULL;
  kv->work = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovVecsReset - the internal vectors freed (KSPReset) */
PetscErrorCode PPEKrylovVecsReset(PPEKrylovVecs *kv)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&kv->xi));
  PetscCall(VecDestroy(&kv->bi));
  if (kv->nwi) PetscCall(VecDestroyVecs(kv->nwi, &kv->wi));
  kv->nwi  = 0;
  kv->x    = NULL;
  kv->rhs  = NULL;
  kv->work = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovVecsBuildSolution - the solution as it stands (the iterate during a solve, else the
   user's x), copied into v or, with v NULL, given in *V */
PetscErrorCode PPEKrylovVecsBuildSolution(KSP ksp, const PPEKrylovVecs *kv, Vec v, Vec *V)
{
  Vec x = kv->x ? kv->x : ksp->vec_sol;

  PetscFunctionBegin;
  if (v) {
    PetscCall(VecCopy(x, v));
    if (V) *V = v;
  } else if (V) *V = x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovVecsView - the -ksp_view line of a KSP's last solve */
PetscErrorCode PPEKrylovVecsView(PetscViewer viewer, const PPEKrylovVecs *kv, const char *back)
{
  PetscFunctionBegin;
  if (!kv->solved) PetscFunctionReturn(PETSC_SUCCESS);
  if (!kv->why) PetscCall(PetscViewerASCIIPrintf(viewer, "  device-resident iteration: yes, back end %s (b in and x out once per solve, %s)\n", PPEBackends[kv->b], back));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  device-resident iteration: no (%s)\n", kv->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

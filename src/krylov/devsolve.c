/*
   Device-resident Krylov iterations (KSP cbcg and KSP bcgsfused): when the operator is a
   MATPPESTENCIL on a device back end and the preconditioner runs there too, the solution,
   the right-hand side and every work vector get device copies for the solve
   (src/sys/devvec.c). The iteration then runs on device arrays only: the operator and the
   preconditioners use them in place, the vector updates are the back end's launchers, and the
   numbers of the reductions are all that comes back per block or iteration. b is copied in
   once (at its first use), x out once (at the end); with a zero initial guess x is zeroed on
   the device. Where PETSc itself has device vectors (VECCUDA, VECHIP) nothing is attached:
   their device arrays are used the same way.
*/
#include <ppekit/private/krylovimpl.h>
#include <ppekit/private/backendimpl.h>
#include <petsc/private/kspimpl.h>

/* The device back end the PC runs on: PC none anywhere, PPEKit's PCs through their composed
   "PPEPCGetDeviceBackend_C"; host when it has no device path. */
static PetscErrorCode PCDeviceBackend(PC pc, PPEBackend want, PPEBackend *b)
{
  PetscBool none;
  PetscErrorCode (*f)(PC, PPEBackend *) = NULL;

  PetscFunctionBegin;
  *b = PPE_BACKEND_HOST;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, &none));
  if (none) {
    *b = want;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectQueryFunction((PetscObject)pc, "PPEPCGetDeviceBackend_C", &f));
  if (f) PetscCall((*f)(pc, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEKrylovDeviceBegin - at the start of a solve: whether it runs device-resident (*be: the
   back end, else host with the reason in *why), and if so the device copies of b, x and the
   KSP's work vectors, x zeroed there when the initial guess is zero
*/
PetscErrorCode PPEKrylovDeviceBegin(KSP ksp, PPEBackend *be, const char **why)
{
  Mat        A;
  PetscBool  isst;
  PPEBackend b, pb;

  PetscFunctionBegin;
  *be  = PPE_BACKEND_HOST;
  *why = NULL;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &isst));
  if (!isst) {
    *why = "the operator is not a MATPPESTENCIL";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PPEStencilGetBackend(A, &b));
  if (b == PPE_BACKEND_HOST) {
    *why = "the operator runs on the host back end";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PCDeviceBackend(ksp->pc, b, &pb));
  if (pb != b) {
    *why = "the preconditioner has no device path on the operator's back end (PPEKit's PCs and PC none have)";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    Vec       v[2] = {ksp->vec_rhs, ksp->vec_sol};
    PetscBool ok   = PETSC_TRUE;
    for (PetscInt i = 0; i < 2 + ksp->nwork; i++) {
      Vec        w = i < 2 ? v[i] : ksp->work[i - 2];
      PPEBackend wb;
      PetscBool  std;
      PetscCall(PPEVecDevBackend(w, &wb));
      PetscCall(PetscObjectTypeCompareAny((PetscObject)w, &std, VECSEQ, VECMPI, VECSTANDARD, ""));
      if (wb != b && !(wb == PPE_BACKEND_HOST && std)) ok = PETSC_FALSE;
    }
    if (!ok) {
      *why = "the vectors are neither standard vectors nor device vectors of the operator's back end";
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *be = b;
  PetscCall(PPEVecDevAttach(ksp->vec_rhs, b));
  PetscCall(PPEVecDevAttach(ksp->vec_sol, b));
  for (PetscInt i = 0; i < ksp->nwork; i++) PetscCall(PPEVecDevAttach(ksp->work[i], b));
  if (ksp->guess_zero) PetscCall(PPEVecZero(ksp->vec_sol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovDeviceAttach - device copies for more vectors of a device-resident solve */
PetscErrorCode PPEKrylovDeviceAttach(PPEBackend be, PetscInt n, Vec v[])
{
  PetscFunctionBegin;
  if (be == PPE_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < n; i++) PetscCall(PPEVecDevAttach(v[i], be));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovDeviceView - the -ksp_view line of a KSP's last solve */
PetscErrorCode PPEKrylovDeviceView(PetscViewer viewer, PetscBool solved, PPEBackend be, const char *why, const char *back)
{
  PetscFunctionBegin;
  if (!solved) PetscFunctionReturn(PETSC_SUCCESS);
  if (be != PPE_BACKEND_HOST) PetscCall(PetscViewerASCIIPrintf(viewer, "  device-resident iteration: yes, back end %s (b in and x out once per solve, %s)\n", PPEBackends[be], back));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  device-resident iteration: no (%s)\n", why ? why : "host vectors"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovDeviceEnd - x copied out once, and b and x given back to the host */
PetscErrorCode PPEKrylovDeviceEnd(KSP ksp, PPEBackend be)
{
  PetscFunctionBegin;
  if (be == PPE_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEVecDevDetach(ksp->vec_sol));
  PetscCall(PPEVecDevDetach(ksp->vec_rhs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovPCApply - y = M^-1 x; PC none copies on the device when the vectors live there
   (PETSc's PCApply_None would read the host arrays) */
PetscErrorCode PPEKrylovPCApply(PC pc, Vec x, Vec y)
{
  PetscBool none;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, &none));
  if (none) {
    PPEBackend be;
    PetscCall(PPEVecDevBackend(x, &be));
    if (be != PPE_BACKEND_HOST) {
      PetscCall(PPEVecCopy(x, y));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PCApply(pc, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEKitInitializePackage: registers every PPEKit type with PETSc, and the
   dynamic-loading entry point that -dll_append libppekit.so calls.

   One register call per type (optional ones under their HAVE_ guard); the
   classes, events and finalizer of the core are in src/sys/ppeinit.c.
*/
#include <ppekit/private/ppeimpl.h>

static PetscBool PPEKitPackageInitialized = PETSC_FALSE;
static PetscBool PPEKitRegisterAllCalled  = PETSC_FALSE;

/*@C
   PPEKitRegisterAll - registers every PPEKit matrix, KSP and PC type

   Not Collective

   Level: developer
@*/
PetscErrorCode PPEKitRegisterAll(void)
{
  PetscFunctionBegin;
  if (PPEKitRegisterAllCalled) PetscFunctionReturn(PETSC_SUCCESS);
  PPEKitRegisterAllCalled = PETSC_TRUE;
  PetscCall(MatRegister(MATPPESTENCIL, MatCreate_PPEStencil));
  PetscCall(PCRegister(PCCHEBYCI, PCCreate_ChebyCI));
  PetscCall(KSPRegister(KSPBCGSFUSED, KSPCreate_BCGSFused));
  PetscCall(PCRegister(PCTILEILU, PCCreate_TileILU));
  PetscCall(KSPRegister(KSPCBCG, KSPCreate_CBCG));
  PetscCall(PCRegister(PCFFTPTDMA, PCCreate_FFTPTDMA));
  PetscCall(PCRegister(PCPPEMG, PCCreate_PPEMG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PPEKitFinalizePackage - undoes PPEKitInitializePackage(); called by PetscFinalize()

   Level: developer
@*/
PetscErrorCode PPEKitFinalizePackage(void)
{
  PetscFunctionBegin;
  PPEKitPackageInitialized = PETSC_FALSE;
  PPEKitRegisterAllCalled  = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PPEKitInitializePackage - registers PPEKit's classes, log events and types so that
   -mat_type ppestencil (and the KSP and PC types) can be chosen; idempotent

   Not Collective

   Notes:
   Call it once after PetscInitialize() in a program linked with libppekit, or load the
   library into any PETSc program with -dll_append <libdir>/libppekit.so.

   Level: beginner

.seealso: PetscDLLibraryRegister_ppekit()
@*/
PetscErrorCode PPEKitInitializePackage(void)
{
  char version[64];

  PetscFunctionBegin;
  if (PPEKitPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PPEKitPackageInitialized = PETSC_TRUE;
  PetscCall(PPESysInitializePackage());
  PetscCall(PPEKitRegisterAll());
  PetscCall(PetscRegisterFinalize(PPEKitFinalizePackage));
  PetscCall(PPEKitGetVersion(version, sizeof(version)));
  PetscCall(PetscInfo(NULL, "%s registered: Mat %s, PC %s %s %s %s, KSP %s %s\n", version, MATPPESTENCIL, PCCHEBYCI, PCTILEILU, PCFFTPTDMA, PCPPEMG, KSPBCGSFUSED, KSPCBCG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PetscDLLibraryRegister_ppekit - called by PETSc when libppekit is loaded with
   -dll_append or -dll_prepend (PETSc looks for PetscDLLibraryRegister_<libname>).
*/
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_ppekit(void)
{
  PetscFunctionBegin;
  PetscCall(PPEKitInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}

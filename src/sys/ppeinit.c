/*
   Package initialisation of src/: class ids, log events, info and the
   finalizer. The types themselves are registered by plugins/register.c.
*/
#include <ppekit/private/ppeimpl.h>
#include <ppekit/private/tridiagimpl.h>

PetscLogEvent PPE_GridSetUp, PPE_StencilMult, PPE_StencilCore, PPE_StencilHalo, PPE_StencilSurf, PPE_StencilAsm;
PetscLogEvent PPE_StencilLocal, PPE_ChebyCISetUp, PPE_ChebyCIApply, PPE_BCGSFReduce, PPE_BCGSFKernel;
PetscLogEvent PPE_TridiagSetUp, PPE_TridiagSolve, PPE_TridiagLocal, PPE_TridiagComm, PPE_TridiagRSys, PPE_TridiagRecon, PPE_TridiagPack;
PetscLogEvent PPE_TileILUFact, PPE_TileILUPerm, PPE_TileILUApply, PPE_TileILUGather, PPE_TileILUSweep, PPE_TileILUScatter;
PetscLogEvent PPE_CBCGBasis, PPE_CBCGGram, PPE_CBCGReduce, PPE_CBCGUpdate, PPE_CBCGSmall, PPE_CBCGEigEst;
PetscLogEvent PPE_FFTPTDMASetUp, PPE_FFTPTDMAPlan, PPE_FFTPTDMAFFTxyFwd, PPE_FFTPTDMAFFTxyBwd, PPE_FFTPTDMAApply, PPE_FFTPTDMAFFTxFwd, PPE_FFTPTDMAFFTxBwd, PPE_FFTPTDMAFFTyFwd, PPE_FFTPTDMAFFTyBwd;
PetscLogEvent PPE_FFTPTDMATransDA, PPE_FFTPTDMATransXY, PPE_FFTPTDMATransYZ, PPE_FFTPTDMAZSolve;
PetscLogEvent PPE_SepInfer;

static PetscBool PPESysPackageInitialized = PETSC_FALSE;

static PetscErrorCode PPESysFinalizePackage(void)
{
  PetscFunctionBegin;
  PPESysPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPESysInitializePackage - registers the classes and log events of PPEKit's core;
   idempotent. Called by PPEKitInitializePackage() and by every object constructor.
*/
PetscErrorCode PPESysInitializePackage(void)
{
  char      logList[256];
  PetscBool opt, pkg;

  PetscFunctionBegin;
  if (PPESysPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PPESysPackageInitialized = PETSC_TRUE;
  PetscCall(KSPInitializePackage()); /* PC_CLASSID, KSP_CLASSID (and MAT_CLASSID) for the events below */
  PetscCall(VecRegister(VECPPEEMU, VecCreate_PPEEmu));
  PetscCall(VecRegister(VECPPECUDA, VecCreate_PPECUDA));
  PetscCall(VecRegister(VECPPEHIP, VecCreate_PPEHIP));
  PetscCall(PetscClassIdRegister("PPE Grid", &PPEGRID_CLASSID));
  PetscCall(PetscLogEventRegister("PPEGridSetUp", PPEGRID_CLASSID, &PPE_GridSetUp));
  PetscCall(PetscLogEventRegister("PPEStencilMult", MAT_CLASSID, &PPE_StencilMult));
  PetscCall(PetscLogEventRegister(" PPEStencilCore", MAT_CLASSID, &PPE_StencilCore));
  PetscCall(PetscLogEventRegister(" PPEStencilHalo", MAT_CLASSID, &PPE_StencilHalo));
  PetscCall(PetscLogEventRegister(" PPEStencilSurf", MAT_CLASSID, &PPE_StencilSurf));
  PetscCall(PetscLogEventRegister("PPEStencilAsm", MAT_CLASSID, &PPE_StencilAsm));
  PetscCall(PCInitializePackage()); /* PC_CLASSID for the PC events */
  PetscCall(PetscClassIdRegister("PPE Tridiag", &PPETRIDIAG_CLASSID));
  PetscCall(PetscLogEventRegister("PPETridiagSetUp", PPETRIDIAG_CLASSID, &PPE_TridiagSetUp));
  PetscCall(PetscLogEventRegister("PPETridiagSolve", PPETRIDIAG_CLASSID, &PPE_TridiagSolve));
  PetscCall(PetscLogEventRegister(" PPETridiagLocal", PPETRIDIAG_CLASSID, &PPE_TridiagLocal));
  PetscCall(PetscLogEventRegister(" PPETridiagComm", PPETRIDIAG_CLASSID, &PPE_TridiagComm));
  PetscCall(PetscLogEventRegister(" PPETridiagRSys", PPETRIDIAG_CLASSID, &PPE_TridiagRSys));
  PetscCall(PetscLogEventRegister(" PPETridiagRecon", PPETRIDIAG_CLASSID, &PPE_TridiagRecon));
  PetscCall(PetscLogEventRegister("PPETridiagPack", PPETRIDIAG_CLASSID, &PPE_TridiagPack));
  PetscCall(PetscLogEventRegister("PPEStencilLocal", MAT_CLASSID, &PPE_StencilLocal));
  PetscCall(PetscLogEventRegister("PPEChebyCISetUp", PC_CLASSID, &PPE_ChebyCISetUp));
  PetscCall(PetscLogEventRegister("PPEChebyCIApply", PC_CLASSID, &PPE_ChebyCIApply));
  PetscCall(PetscLogEventRegister("PPEBCGSFReduce", KSP_CLASSID, &PPE_BCGSFReduce));
  PetscCall(PetscLogEventRegister("PPEBCGSFKernel", KSP_CLASSID, &PPE_BCGSFKernel));
  PetscCall(PetscLogEventRegister("PPETileILUFact", PC_CLASSID, &PPE_TileILUFact));
  PetscCall(PetscLogEventRegister("PPETileILUPerm", PC_CLASSID, &PPE_TileILUPerm));
  PetscCall(PetscLogEventRegister("PPETileILUApply", PC_CLASSID, &PPE_TileILUApply));
  PetscCall(PetscLogEventRegister(" PPETileGather", PC_CLASSID, &PPE_TileILUGather));
  PetscCall(PetscLogEventRegister(" PPETileSweep", PC_CLASSID, &PPE_TileILUSweep));
  PetscCall(PetscLogEventRegister(" PPETileScatter", PC_CLASSID, &PPE_TileILUScatter));
  PetscCall(PetscLogEventRegister("PPECBCGEigEst", KSP_CLASSID, &PPE_CBCGEigEst));
  PetscCall(PetscLogEventRegister("PPECBCGBasis", KSP_CLASSID, &PPE_CBCGBasis));
  PetscCall(PetscLogEventRegister("PPECBCGGram", KSP_CLASSID, &PPE_CBCGGram));
  PetscCall(PetscLogEventRegister(" PPECBCGReduce", KSP_CLASSID, &PPE_CBCGReduce));
  PetscCall(PetscLogEventRegister("PPECBCGSmall", KSP_CLASSID, &PPE_CBCGSmall));
  PetscCall(PetscLogEventRegister("PPECBCGUpdate", KSP_CLASSID, &PPE_CBCGUpdate));
  PetscCall(PetscLogEventRegister("PPEFFTPTDMASetUp", PC_CLASSID, &PPE_FFTPTDMASetUp));
  PetscCall(PetscLogEventRegister(" PPEFFTPlan", PC_CLASSID, &PPE_FFTPTDMAPlan));
  PetscCall(PetscLogEventRegister("PPEFFTPTDMAApply", PC_CLASSID, &PPE_FFTPTDMAApply));
  PetscCall(PetscLogEventRegister(" PPEFFTxFwd", PC_CLASSID, &PPE_FFTPTDMAFFTxFwd));
  PetscCall(PetscLogEventRegister(" PPEFFTxyFwd", PC_CLASSID, &PPE_FFTPTDMAFFTxyFwd));
  PetscCall(PetscLogEventRegister(" PPEFFTyFwd", PC_CLASSID, &PPE_FFTPTDMAFFTyFwd));
  PetscCall(PetscLogEventRegister(" PPEFFTyBwd", PC_CLASSID, &PPE_FFTPTDMAFFTyBwd));
  PetscCall(PetscLogEventRegister(" PPEFFTxBwd", PC_CLASSID, &PPE_FFTPTDMAFFTxBwd));
  PetscCall(PetscLogEventRegister(" PPEFFTxyBwd", PC_CLASSID, &PPE_FFTPTDMAFFTxyBwd));
  PetscCall(PetscLogEventRegister(" PPETransposeDA", PC_CLASSID, &PPE_FFTPTDMATransDA));
  PetscCall(PetscLogEventRegister(" PPETransposeXY", PC_CLASSID, &PPE_FFTPTDMATransXY));
  PetscCall(PetscLogEventRegister(" PPETransposeYZ", PC_CLASSID, &PPE_FFTPTDMATransYZ));
  PetscCall(PetscLogEventRegister(" PPEFFTzSolve", PC_CLASSID, &PPE_FFTPTDMAZSolve));
  PetscCall(PetscLogEventRegister("PPESepInfer", MAT_CLASSID, &PPE_SepInfer));
  /* -info_exclude / -log_exclude ppe, as PETSc's own packages allow */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-info_exclude", logList, sizeof(logList), &opt));
  if (opt) {
    PetscCall(PetscStrInList("ppe", logList, ',', &pkg));
    if (pkg) PetscCall(PetscInfoDeactivateClass(PPEGRID_CLASSID));
    if (pkg) PetscCall(PetscInfoDeactivateClass(PPETRIDIAG_CLASSID));
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-log_exclude", logList, sizeof(logList), &opt));
  if (opt) {
    PetscCall(PetscStrInList("ppe", logList, ',', &pkg));
    if (pkg) PetscCall(PetscLogEventExcludeClass(PPEGRID_CLASSID));
    if (pkg) PetscCall(PetscLogEventExcludeClass(PPETRIDIAG_CLASSID));
  }
  PetscCall(PetscRegisterFinalize(PPESysFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PPEKitGetVersion - the version string of this PPEKit, e.g. "PPEKit 0.1.0"

   Not Collective

   Level: beginner
@*/
PetscErrorCode PPEKitGetVersion(char version[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(version, len, "PPEKit %s", PPEKIT_VERSION_STRING));
  PetscFunctionReturn(PETSC_SUCCESS);
}

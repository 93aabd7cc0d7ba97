/*
   Package initialisation of src/: class ids, log events, info and the
   finalizer. The types themselves are registered by plugins/register.c.
*/
#include <ppekit/private/ppeimpl.h>
#include <ppekit/private/tridiagimpl.h>

PetscLogEvent PPE_GridSetUp, PPE_StencilMult, PPE_StencilCore, PPE_StencilHalo, PPE_StencilSurf, PPE_StencilAsm, PPE_StencilCoef;
PetscLogEvent PPE_StencilLocal, PPE_ChebyCISetUp, PPE_ChebyCIApply, PPE_BCGSFReduce, PPE_BCGSFKernel;
PetscLogEvent PPE_TridiagSetUp, PPE_TridiagSolve, PPE_TridiagLocal, PPE_TridiagComm, PPE_TridiagRSys, PPE_TridiagRecon, PPE_TridiagPack;
PetscLogEvent PPE_TileILUFact, PPE_TileILUPerm, PPE_TileILUApply, PPE_TileILUGather, PPE_TileILUSweep, PPE_TileILUScatter;
PetscLogEvent PPE_CBCGBasis, PPE_CBCGGram, PPE_CBCGReduce, PPE_CBCGUpdate, PPE_CBCGSmall, PPE_CBCGEigEst;
PetscLogEvent PPE_FFTPTDMASetUp, PPE_FFTPTDMAPlan, PPE_FFTPTDMAFFTxyFwd, PPE_FFTPTDMAFFTxyBwd, PPE_FFTPTDMAApply, PPE_FFTPTDMAFFTxFwd, PPE_FFTPTDMAFFTxBwd, PPE_FFTPTDMAFFTyFwd, PPE_FFTPTDMAFFTyBwd;
PetscLogEvent PPE_FFTPTDMATransDA, PPE_FFTPTDMATransXY, PPE_FFTPTDMATransYZ, PPE_FFTPTDMAZSolve;
PetscLogEvent PPE_SepInfer, PPE_MGLevels, PPE_MGCoef;

/* PPEKit's log events in the order -log_view lists them, with the class each belongs to
   (sub-events start with a space). */
static const struct {
  const char    *name;
  PetscClassId  *classid;
  PetscLogEvent *event;
} PPESysEvents[] = {
  {"PPEGridSetUp",     &PPEGRID_CLASSID,    &PPE_GridSetUp       },
  {"PPEStencilMult",   &MAT_CLASSID,        &PPE_StencilMult     },
  {" PPEStencilCore",  &MAT_CLASSID,        &PPE_StencilCore     },
  {" PPEStencilHalo",  &MAT_CLASSID,        &PPE_StencilHalo     },
  {" PPEStencilSurf",  &MAT_CLASSID,        &PPE_StencilSurf     },
  {"PPEStencilAsm",    &MAT_CLASSID,        &PPE_StencilAsm      },
  {"PPEStencilCoef",   &MAT_CLASSID,        &PPE_StencilCoef     },
  {"PPETridiagSetUp",  &PPETRIDIAG_CLASSID, &PPE_TridiagSetUp    },
  {"PPETridiagSolve",  &PPETRIDIAG_CLASSID, &PPE_TridiagSolve    },
  {" PPETridiagLocal", &PPETRIDIAG_CLASSID, &PPE_TridiagLocal    },
  {" PPETridiagComm",  &PPETRIDIAG_CLASSID, &PPE_TridiagComm     },
  {" PPETridiagRSys",  &PPETRIDIAG_CLASSID, &PPE_TridiagRSys     },
  {" PPETridiagRecon", &PPETRIDIAG_CLASSID, &PPE_TridiagRecon    },
  {"PPETridiagPack",   &PPETRIDIAG_CLASSID, &PPE_TridiagPack     },
  {"PPEStencilLocal",  &MAT_CLASSID,        &PPE_StencilLocal    },
  {"PPEChebyCISetUp",  &PC_CLASSID,         &PPE_ChebyCISetUp    },
  {"PPEChebyCIApply",  &PC_CLASSID,         &PPE_ChebyCIApply    },
  {"PPEBCGSFReduce",   &KSP_CLASSID,        &PPE_BCGSFReduce     },
  {"PPEBCGSFKernel",   &KSP_CLASSID,        &PPE_BCGSFKernel     },
  {"PPETileILUFact",   &PC_CLASSID,         &PPE_TileILUFact     },
  {"PPETileILUPerm",   &PC_CLASSID,         &PPE_TileILUPerm     },
  {"PPETileILUApply",  &PC_CLASSID,         &PPE_TileILUApply    },
  {" PPETileGather",   &PC_CLASSID,         &PPE_TileILUGather   },
  {" PPETileSweep",    &PC_CLASSID,         &PPE_TileILUSweep    },
  {" PPETileScatter",  &PC_CLASSID,         &PPE_TileILUScatter  },
  {"PPECBCGEigEst",    &KSP_CLASSID,        &PPE_CBCGEigEst      },
  {"PPECBCGBasis",     &KSP_CLASSID,        &PPE_CBCGBasis       },
  {"PPECBCGGram",      &KSP_CLASSID,        &PPE_CBCGGram        },
  {" PPECBCGReduce",   &KSP_CLASSID,        &PPE_CBCGReduce      },
  {"PPECBCGSmall",     &KSP_CLASSID,        &PPE_CBCGSmall       },
  {"PPECBCGUpdate",    &KSP_CLASSID,        &PPE_CBCGUpdate      },
  {"PPEFFTPTDMASetUp", &PC_CLASSID,         &PPE_FFTPTDMASetUp   },
  {" PPEFFTPlan",      &PC_CLASSID,         &PPE_FFTPTDMAPlan    },
  {"PPEFFTPTDMAApply", &PC_CLASSID,         &PPE_FFTPTDMAApply   },
  {" PPEFFTxFwd",      &PC_CLASSID,         &PPE_FFTPTDMAFFTxFwd },
  {" PPEFFTxyFwd",     &PC_CLASSID,         &PPE_FFTPTDMAFFTxyFwd},
  {" PPEFFTyFwd",      &PC_CLASSID,         &PPE_FFTPTDMAFFTyFwd },
  {" PPEFFTyBwd",      &PC_CLASSID,         &PPE_FFTPTDMAFFTyBwd },
  {" PPEFFTxBwd",      &PC_CLASSID,         &PPE_FFTPTDMAFFTxBwd },
  {" PPEFFTxyBwd",     &PC_CLASSID,         &PPE_FFTPTDMAFFTxyBwd},
  {" PPETransposeDA",  &PC_CLASSID,         &PPE_FFTPTDMATransDA },
  {" PPETransposeXY",  &PC_CLASSID,         &PPE_FFTPTDMATransXY },
  {" PPETransposeYZ",  &PC_CLASSID,         &PPE_FFTPTDMATransYZ },
  {" PPEFFTzSolve",    &PC_CLASSID,         &PPE_FFTPTDMAZSolve  },
  {"PPESepInfer",      &MAT_CLASSID,        &PPE_SepInfer        },
  {"PPEMGLevels",      &PC_CLASSID,         &PPE_MGLevels        },
  {"PPEMGCoef",        &PC_CLASSID,         &PPE_MGCoef          },
};

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
  PetscCall(PetscClassIdRegister("PPE Tridiag", &PPETRIDIAG_CLASSID));
  for (size_t i = 0; i < sizeof(PPESysEvents) / sizeof(PPESysEvents[0]); i++) PetscCall(PetscLogEventRegister(PPESysEvents[i].name, *PPESysEvents[i].classid, PPESysEvents[i].event));
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

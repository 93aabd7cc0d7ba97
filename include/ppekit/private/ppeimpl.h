/*
   Private declarations shared by every part of PPEKit: PETSc version compatibility
   (petsccompat.h), log events, package initialisation of src/.
*/
#pragma once

#include <petsc/private/petscimpl.h>
#include <ppekit.h>
#include <ppekit/private/petsccompat.h>

/* Log events, registered once by PPESysInitializePackage(). */
PETSC_EXTERN PetscLogEvent PPE_GridSetUp;
PETSC_EXTERN PetscLogEvent PPE_StencilMult;
PETSC_EXTERN PetscLogEvent PPE_StencilCore;
PETSC_EXTERN PetscLogEvent PPE_StencilHalo;
PETSC_EXTERN PetscLogEvent PPE_StencilSurf;
PETSC_EXTERN PetscLogEvent PPE_StencilAsm;
PETSC_EXTERN PetscLogEvent PPE_StencilCoef;      /* a new set of variable coefficients: checks, face arrays, state on the back end */
PETSC_EXTERN PetscLogEvent PPE_StencilLocal;     /* rank-local block apply, no exchange */
PETSC_EXTERN PetscLogEvent PPE_ChebyCISetUp;     /* PC chebyci: bounds, weights, estimates */
PETSC_EXTERN PetscLogEvent PPE_ChebyCIApply;     /* PC chebyci: one application */
PETSC_EXTERN PetscLogEvent PPE_BCGSFReduce;      /* KSP bcgsfused: the merged MPI_Allreduce (wait included) */
PETSC_EXTERN PetscLogEvent PPE_BCGSFKernel;      /* KSP bcgsfused: fused vector kernels */
PETSC_EXTERN PetscLogEvent PPE_TileILUFact;      /* PC tileilu: factorisation of the tiles */
PETSC_EXTERN PetscLogEvent PPE_TileILUPerm;      /* PC tileilu: layout change xyz -> zyx of the factors */
PETSC_EXTERN PetscLogEvent PPE_TileILUApply;     /* PC tileilu: one application */
PETSC_EXTERN PetscLogEvent PPE_TileILUGather;    /*   gather of the values into the zyx layout */
PETSC_EXTERN PetscLogEvent PPE_TileILUSweep;     /*   forward and backward sweeps */
PETSC_EXTERN PetscLogEvent PPE_TileILUScatter;   /*   scatter of the values back */
PETSC_EXTERN PetscLogEvent PPE_CBCGEigEst;       /* KSP cbcg: eigenvalue estimate */
PETSC_EXTERN PetscLogEvent PPE_CBCGBasis;        /* Chebyshev basis (with its MatMult and PCApply) */
PETSC_EXTERN PetscLogEvent PPE_CBCGGram;         /* tall-skinny Gram products with their reduction */
PETSC_EXTERN PetscLogEvent PPE_CBCGReduce;       /* the MPI_Allreduce inside PPE_CBCGGram */
PETSC_EXTERN PetscLogEvent PPE_CBCGSmall;        /* s x s analysis and solves (LAPACK) */
PETSC_EXTERN PetscLogEvent PPE_CBCGUpdate;       /* x, r and block updates */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMASetUp;    /* PC fftptdma: pencils, plans, z lines */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAPlan;     /*   FFTW planning (and wisdom import/export) in the set-up */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAApply;    /* PC fftptdma: one solve */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAFFTxFwd;  /*   forward transforms along x */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAFFTxBwd;  /*   backward transforms along x */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAFFTyFwd;  /*   forward transforms along y */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAFFTyBwd;  /*   backward transforms along y */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAFFTxyFwd; /*  forward 2D transforms of whole x-y planes (py = 1) */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAFFTxyBwd; /*  backward 2D transforms of whole x-y planes */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMATransDA;  /*   DMDA <-> x-pencils */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMATransXY;  /*   x-pencils <-> y-pencils */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMATransYZ;  /*   y-pencils <-> z-pencils (zsolve transpose) */
PETSC_EXTERN PetscLogEvent PPE_FFTPTDMAZSolve;   /*   the z solve (with the y <-> z transposes of the transpose method) */
PETSC_EXTERN PetscLogEvent PPE_SepInfer;         /* separable description inferred from matrix entries */
PETSC_EXTERN PetscLogEvent PPE_MGLevels;         /* PC ppemg: the hierarchy (grids, operators, transfers, inner PCMG), once per grid */
PETSC_EXTERN PetscLogEvent PPE_MGCoef;           /* PC ppemg: coarse face coefficients, coarsest assembly, inner set-up (every new density) */

/* Classes, events and finalizer of src/ (no types: those are registered by plugins/register.c). */
PETSC_EXTERN PetscErrorCode PPESysInitializePackage(void);

/* Parse a comma-free boundary-condition name (periodic|neumann|dirichlet or P|N|D). */
PETSC_INTERN PetscErrorCode PPEParseBC(const char[], PPEBCType *, PetscBool *);

/* The error of the lowest rank with code != 0 raised on every rank of comm (collective). */
PETSC_INTERN PetscErrorCode PPERaiseCollective(MPI_Comm, PetscErrorCode, const char[]);

/* The first dim sizes joined by a separator: "32 x 16" (" x "), "32x16" ("x"); ppe-solve's too. */
PETSC_EXTERN PetscErrorCode PPEJoinSizes(PetscInt, const PetscInt[], const char[], char[], size_t);

/* The public setter and getter of one setting of a PPEKit type, written once: a setter
   Name(obj, v) checks the object and that v is the same on every rank (Kind: Int, Real, Bool
   or Enum), then calls the method the type composed as "Name_C" (nothing for another type); a
   getter Name(obj, &v) checks the pointer and calls "Name_C" (an error for another type). The
   manual page stands above each use. Obj is KSP, PC or Mat. */
#define PPE_CLASSID_KSP KSP_CLASSID
#define PPE_CLASSID_PC  PC_CLASSID
#define PPE_CLASSID_Mat MAT_CLASSID
#define PPE_API_SETTER(Name, Obj, obj, T, v, Kind) \
  PetscErrorCode Name(Obj obj, T v) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, PPE_CLASSID_##Obj, 1); \
    PetscValidLogicalCollective##Kind(obj, v, 2); \
    PetscTryMethod(obj, #Name "_C", (Obj, T), (obj, v)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#define PPE_API_GETTER(Name, Obj, obj, T, v) \
  PetscErrorCode Name(Obj obj, T *v) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, PPE_CLASSID_##Obj, 1); \
    PetscAssertPointer(v, 2); \
    PetscUseMethod(obj, #Name "_C", (Obj, T *), (obj, v)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

/* The methods a type composes behind those, written once where they only store or read one
   value. Inside, `impl` is the type's private struct (Impl *, from obj->data). A setter runs
   `check` (a statement refusing a bad value, or nothing), then `changed` (e.g. invalidating a
   set-up) if v differs from impl->field, then stores v; a getter stores `expr`. */
#define PPE_IMPL_SETTER(Name, Obj, obj, Impl, T, v, field, check, changed) \
  static PetscErrorCode Name(Obj obj, T v) \
  { \
    Impl *impl = (Impl *)obj->data; \
    PetscFunctionBegin; \
    check; \
    if (v != impl->field) { \
      changed; \
    } \
    impl->field = v; \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#define PPE_IMPL_GETTER(Name, Obj, obj, Impl, T, v, expr) \
  static PetscErrorCode Name(Obj obj, T *v) \
  { \
    Impl *impl = (Impl *)obj->data; \
    PetscFunctionBegin; \
    (void)impl; \
    *v = (expr); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

/* The public one-value setters and getters of a PPEKit object (PPEGrid, PPETridiag), and its
   getters of three values (each pointer may be NULL). Each checks the object (CLASSID). A
   setter checks that v is the same on every rank (Kind: Int, Real, Bool or Enum), runs `check`
   (a statement refusing a bad value, or nothing), runs `changed` if v differs from obj->field,
   then stores v; a getter checks the pointer, runs `check` (e.g. that the object is set up, or
   nothing), then stores `expr`. The manual page stands above each use. */
#define PPE_OBJ_SETTER(Name, Obj, obj, CLASSID, T, v, Kind, check, field, changed) \
  PetscErrorCode Name(Obj obj, T v) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, CLASSID, 1); \
    PetscValidLogicalCollective##Kind(obj, v, 2); \
    check; \
    if (obj->field != v) { \
      changed; \
    } \
    obj->field = v; \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#define PPE_OBJ_GETTER(Name, Obj, obj, CLASSID, T, v, check, expr) \
  PetscErrorCode Name(Obj obj, T *v) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, CLASSID, 1); \
    PetscAssertPointer(v, 2); \
    check; \
    *v = (expr); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
#define PPE_OBJ_GETTER3(Name, Obj, obj, CLASSID, T, a, ea, b, eb, c, ec) \
  PetscErrorCode Name(Obj obj, T *a, T *b, T *c) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(obj, CLASSID, 1); \
    if (a) *a = (ea); \
    if (b) *b = (eb); \
    if (c) *c = (ec); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

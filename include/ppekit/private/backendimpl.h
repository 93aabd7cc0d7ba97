/*
   The back ends as the library sees them: the table of launchers of a back end
   (src/backend/device/device.h: host, emu, cuda, hip), the calls that check their errors, and
   the vectors whose arrays the kernels take in a back end's memory (src/sys/vecbackend.c).
*/
#pragma once

#include <ppekit/private/ppeimpl.h>
#include <backend/device/device.h>

/* The table of back end b (the host's included), after PPEBackendCheck(). */
PETSC_EXTERN PetscErrorCode PPEBackendGetOps(PPEBackend, const PPEBackendOps **);
/* The table of back end b, or NULL when this PPEKit was built without it (no error). */
PETSC_EXTERN PetscErrorCode PPEBackendIsBuilt(PPEBackend, const PPEBackendOps **);
/* The table of a back end by name ("host", "cuda", "hip", "emu"), checked (for tests). */
PETSC_EXTERN PetscErrorCode PPEBackendOpen(const char[], const PPEBackendOps **);
/* Bytes moved between host and device memory by this process so far (PPECounters) */
PETSC_EXTERN PetscLogDouble PPEDeviceBytes(void);
/* Bytes moved between host and device for MPI on host memory (halo faces, transposes) */
PETSC_INTERN PetscLogDouble PPEDeviceHaloBytes(void);
/* count the copies that follow as halo traffic (PETSC_TRUE) or vector copies (PETSC_FALSE) */
PETSC_INTERN void PPEDeviceCountHalo(PetscBool);
/* "cuda (device 0: NVIDIA H100 ...)" on a viewer, for the views of the types */
PETSC_EXTERN PetscErrorCode PPEBackendView(PPEBackend, PetscViewer);

/* Check the int returned by a back end's function. */
#define PPEBackendCall(ops, expr) \
  do { \
    int ppe_dev_rc_ = (expr); \
    PetscCheck(ppe_dev_rc_ == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "PPEKit %s back end: %s (error %d)", (ops)->name, (ops)->errstr(ppe_dev_rc_), ppe_dev_rc_); \
  } while (0)

/* How a kernel uses an array: read, written (its old values not read), or both. */
typedef enum {
  PPE_ACCESS_READ,
  PPE_ACCESS_WRITE,
  PPE_ACCESS_READWRITE
} PPEAccess;

/*
   Vectors on back ends (src/sys/vecbackend.c). A vector lives on the host (standard
   vectors), or on a device: PETSc's own VECCUDA/VECHIP, or PPEKit's VECPPEEMU, VECPPECUDA,
   VECPPEHIP (include/ppekit/sys.h), whose PETSc operations stay on the device where they can
   and keep the host view coherent where they cannot.
*/
/* where v's values live */
PETSC_EXTERN PetscErrorCode PPEVecGetBackend(Vec, PPEBackend *);
/* the back end n vectors share (NULL entries skipped): host when they differ */
PETSC_EXTERN PetscErrorCode PPEVecsGetBackend(PetscInt, const Vec[], PPEBackend *);
/* the vector type whose values live on back end b (host: VECSTANDARD; cuda/hip: PETSc's own
   where PETSc has them, else PPEKit's) */
PETSC_EXTERN PetscErrorCode PPEBackendVecType(PPEBackend, VecType *);
/* a new vector of v's layout living on back end b */
PETSC_EXTERN PetscErrorCode PPEVecCreateOn(Vec, PPEBackend, Vec *);
/* the stream of the vector operations of back end b, and its table */
PETSC_EXTERN PetscErrorCode PPEBackendStream(PPEBackend, const PPEBackendOps **, void **);
/* work of at least n doubles in back end b's memory, for its reductions (kept until the end) */
PETSC_EXTERN PetscErrorCode PPEBackendWork(PPEBackend, size_t, double **);

/* Most vectors of one PPEArraysGet() */
#define PPE_ARRAYS_MAX 64

/*S
   PPEArrays - the arrays of vectors in the memory of one back end, for a kernel of that back
   end: a vector that lives there is used in place (on the host, every vector does), another
   one through a staging buffer of the back end (its host values copied in for a read, copied
   out at the restore for a write). A vector listed twice gets one array.
S*/
typedef struct {
  PPEBackend           b;
  const PPEBackendOps *ops;    /* b's table */
  void                *stream; /* b's stream of vector operations */
  PetscInt             n;
  Vec                  v[PPE_ARRAYS_MAX];
  PPEAccess            acc[PPE_ARRAYS_MAX];
  double              *a[PPE_ARRAYS_MAX];     /* the arrays (NULL for a NULL vector) */
  PetscInt             alias[PPE_ARRAYS_MAX]; /* the earlier entry of the same vector, or -1 */
  int                  slot[PPE_ARRAYS_MAX];  /* the staging buffer, or -1 */
} PPEArrays;

/* the arrays of n vectors (NULL entries allowed) on back end b, access acc[i] (or all when acc
   is NULL); restore synchronises b's stream, copies staged writes out and increases the
   states of the vectors written */
PETSC_EXTERN PetscErrorCode PPEArraysGet(PPEBackend, PetscInt, const Vec[], const PPEAccess[], PPEAccess, PPEArrays *);
PETSC_EXTERN PetscErrorCode PPEArraysRestore(PPEArrays *);

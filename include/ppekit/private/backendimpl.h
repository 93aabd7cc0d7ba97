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

/*
   Device-resident vectors (src/sys/devvec.c). A vector's values live on a device back end
   when it is PETSc's own CUDA or HIP vector (a PETSc built with them), or when PPEKit gave it
   a device copy (PPEVecDevAttach: Debian's PETSc has no device vectors). Such a copy is kept
   coherent with the host array: every host access through PETSc's VecGetArray family brings
   the host up to date first (and a host write makes the device copy stale), so PETSc code
   that reads the vector sees its values, at the price of a copy. The library's device paths
   (operator, preconditioners, Krylov kernels) take the device pointer and copy nothing.
   Exported for the tests; not part of the public API.
*/
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
/* the device array of one of PPEKit's device vectors, access acc (done: v is one) */
PETSC_EXTERN PetscErrorCode PPEVecDeviceArray(Vec, PPEAccess, double **, PetscBool *);
PETSC_EXTERN PetscErrorCode PPEVecDeviceArrayRestore(Vec, PPEAccess, PetscBool *);

/* the back end holding v's values: PPE_BACKEND_HOST when they are in host memory only */
PETSC_EXTERN PetscErrorCode PPEVecDevBackend(Vec, PPEBackend *);
/* give v a device copy on a device back end (its host values copied when first read there) */
PETSC_EXTERN PetscErrorCode PPEVecDevAttach(Vec, PPEBackend);
/* the host values brought up to date and the device copy freed (PETSc's device vectors: nothing) */
PETSC_EXTERN PetscErrorCode PPEVecDevDetach(Vec);
/* the device array of a vector on a device back end, for reading, writing or both */
PETSC_EXTERN PetscErrorCode PPEVecDevGetArray(Vec, PPEAccess, double **);
PETSC_EXTERN PetscErrorCode PPEVecDevRestoreArray(Vec, PPEAccess, double **);
/* get (get true) or restore the device arrays of n vectors (NULL entries give NULL), access
   acc[i], or all of them access `all` when acc is NULL */
PETSC_EXTERN PetscErrorCode PPEVecDevArrays(PetscInt, const Vec[], const PPEAccess[], PPEAccess, double *[], PetscBool);
/* the same for a kernel that runs on the device (dev) or on the host (PETSc's host arrays,
   VecGetArrayRead/Write or VecGetArray by access) */
PETSC_EXTERN PetscErrorCode PPEVecArrays(PetscBool, PetscInt, const Vec[], const PPEAccess[], PPEAccess, double *[], PetscBool);
/* the stream the device-resident vector operations of back end b run on (synchronised) */
PETSC_EXTERN PetscErrorCode PPEDevVecStream(PPEBackend, const PPEBackendOps **, void **);
/* device work of at least n doubles for the reductions of a back end (kept until the end) */
PETSC_EXTERN PetscErrorCode PPEDevVecWork(PPEBackend, const PPEBackendOps *, size_t, double **);
/* y = a x + b y + c on the device when y is there (x then follows y), else PETSc's operations:
   PPEVecCopy(x, y), PPEVecAYPX(y, b, x), PPEVecAXPY(y, a, x), PPEVecShift(y, c) */
PETSC_EXTERN PetscErrorCode PPEVecCopy(Vec, Vec);
PETSC_EXTERN PetscErrorCode PPEVecAYPX(Vec, PetscScalar, Vec);
PETSC_EXTERN PetscErrorCode PPEVecAXPY(Vec, PetscScalar, Vec);
PETSC_EXTERN PetscErrorCode PPEVecShift(Vec, PetscScalar);
/* v = 0 (on the device without a copy when v lives there) */
PETSC_EXTERN PetscErrorCode PPEVecZero(Vec);
/* the sum of the local entries (no reduction) */
PETSC_EXTERN PetscErrorCode PPEVecLocalSum(Vec, PetscScalar *);
/* local dot products y.u[q], q < n (n <= 2), on the device when y is there */
PETSC_EXTERN PetscErrorCode PPEVecDevLocalDots(Vec, PetscInt, const Vec[], PetscScalar[], PetscBool *);
/* the vectors all have their values on back end b (b != host): the device path applies */
PETSC_EXTERN PetscErrorCode PPEVecDevAllOn(PetscInt, const Vec[], PPEBackend *);

/*
   Device-resident vectors for every PETSc we support (declared in backendimpl.h).

   PETSc built with CUDA or HIP has device vectors of its own (VECCUDA, VECHIP): their device
   arrays are taken with PETSc's memory-type API (VecGetArrayReadAndMemType and its family),
   which returns host memory for a host vector. Debian's PETSc has none, so PPEKit gives a
   standard vector a device copy of its own, a "mirror", composed with the vector:

     valid     where the current values are: host, device, or both;
     state     the vector's object state when valid was last set: a host write that did not go
               through the hooks below (VecSetValues) changes it, and the host copy wins;
     hooks     the vector's getarray, getarrayread and getarraywrite operations: a host read
               copies the device values back first (then both are valid), a host write makes
               the device copy stale. PETSc's own operations (VecNorm, VecAXPY, VecScatter,
               MatMult of another type, viewers) therefore always see the current values.

   A device write increases the object state, so that PETSc's cached norms are not reused.
   A vector duplicated from a mirrored one inherits the hooks but not the mirror (the mirror
   names its owner); without a mirror the hooks are PETSc's native access. The vector
   operations of the device-resident iterations (PPEVecCopy ...) run on the device when the
   vectors live there and are PETSc's own otherwise, so the host results keep their bits.
*/
#include <ppekit/private/backendimpl.h>
#include <petsc/private/vecimpl.h>

#define MIRROR_NAME "PPEKitDeviceCopy"
#define VALID_HOST  1
#define VALID_DEV   2

typedef struct {
  Vec                 owner;
  PPEBackend          backend;
  const PPEBackendOps *ops;
  void               *stream;
  double             *d;
  PetscInt            n;
  int                 valid;
  PetscObjectState    state;
} PPEDevMirror;

/* A vector of ones per back end (local sums). */
static double *ppe_dv_ones[4];
static size_t  ppe_dv_nones[4];

/* device work of at least n doubles for the reductions of back end b */
PetscErrorCode PPEDevVecWork(PPEBackend b, const PPEBackendOps *ops, size_t n, double **w)
{
  PetscFunctionBegin;
  (void)ops;
  PetscCall(PPEBackendWork(b, n, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DevVecFinalize(void)
{
  PetscFunctionBegin;
  for (int b = 0; b < 4; b++) {
    const PPEBackendOps *ops;
    if (!ppe_dv_ones[b]) continue;
    PetscCall(PPEBackendGetOps((PPEBackend)b, &ops));
    PPEBackendCall(ops, ops->release(ppe_dv_ones[b]));
    ppe_dv_ones[b]  = NULL;
    ppe_dv_nones[b] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEDevVecStream(PPEBackend b, const PPEBackendOps **ops, void **stream)
{
  PetscFunctionBegin;
  PetscCall(PPEBackendStream(b, ops, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MirrorDestroy(PPECtxDestroyArg arg)
{
  PPEDevMirror *m = (PPEDevMirror *)PPECtxFromDestroyArg(arg);

  PetscFunctionBegin;
  if (m->d) PPEBackendCall(m->ops, m->ops->release(m->d));
  PetscCall(PetscFree(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v's own mirror, or NULL */
static PetscErrorCode GetMirror(Vec v, PPEDevMirror **m)
{
  PetscObject c;

  PetscFunctionBegin;
  *m = NULL;
  PetscCall(PetscObjectQuery((PetscObject)v, MIRROR_NAME, &c));
  if (c) {
    void *p;
    PetscCall(PetscContainerGetPointer((PetscContainer)c, &p));
    if (((PPEDevMirror *)p)->owner == v) *m = (PPEDevMirror *)p;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscScalar *HostArray(Vec v)
{
  return *((PetscScalar **)v->data);
}

/* a host write outside the hooks (the state moved): the host values are the current ones */
static PetscErrorCode CheckState(Vec v, PPEDevMirror *m)
{
  PetscObjectState s;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)v, &s));
  if (s != m->state) {
    m->valid = VALID_HOST;
    m->state = s;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ToHost(Vec v, PPEDevMirror *m)
{
  PetscFunctionBegin;
  PetscCall(CheckState(v, m));
  if (!(m->valid & VALID_HOST)) {
    PPEBackendCall(m->ops, m->ops->copy(HostArray(v), m->d, (size_t)m->n * sizeof(double), PPE_DEV_D2H, m->stream));
    PPEBackendCall(m->ops, m->ops->sync(m->stream));
    m->valid |= VALID_HOST;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HookGetArray(Vec v, PetscScalar **a)
{
  PPEDevMirror *m;

  PetscFunctionBegin;
  PetscCall(GetMirror(v, &m));
  if (m) {
    PetscCall(ToHost(v, m));
    m->valid = VALID_HOST;
  }
  *a = HostArray(v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HookGetArrayRead(Vec v, const PetscScalar **a)
{
  PPEDevMirror *m;

  PetscFunctionBegin;
  PetscCall(GetMirror(v, &m));
  if (m) PetscCall(ToHost(v, m));
  *a = HostArray(v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HookGetArrayWrite(Vec v, PetscScalar **a)
{
  PPEDevMirror *m;

  PetscFunctionBegin;
  PetscCall(GetMirror(v, &m));
  if (m) m->valid = VALID_HOST;
  *a = HostArray(v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device vector types (PETSc's and PPEKit's) */
static PetscErrorCode VecPetscDeviceKind(Vec v, PPEBackend *b)
{
  PetscFunctionBegin;
  PetscCall(PPEVecGetBackend(v, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IsStandard(Vec v, PetscBool *std)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, std, VECSEQ, VECMPI, VECSTANDARD, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecDevBackend(Vec v, PPEBackend *b)
{
  PPEDevMirror *m;

  PetscFunctionBegin;
  PetscCall(GetMirror(v, &m));
  if (m) *b = m->backend;
  else PetscCall(VecPetscDeviceKind(v, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecDevAttach(Vec v, PPEBackend b)
{
  PPEDevMirror  *m;
  PPEBackend     cur;
  PetscContainer c;

  PetscFunctionBegin;
  PetscCall(PPEVecDevBackend(v, &cur));
  if (cur == b || b == PPE_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(cur == PPE_BACKEND_HOST, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "The vector's values are on back end %s, not %s", PPEBackends[cur], PPEBackends[b]);
  {
    PetscBool std;
    PetscCall(IsStandard(v, &std));
    PetscCheck(std, PETSC_COMM_SELF, PETSC_ERR_SUP, "A device copy needs a standard vector, got type %s", ((PetscObject)v)->type_name);
  }
  PetscCall(PetscNew(&m));
  m->owner   = v;
  m->backend = b;
  PetscCall(PPEDevVecStream(b, &m->ops, &m->stream));
  PetscCall(VecGetLocalSize(v, &m->n));
  PPEBackendCall(m->ops, m->ops->alloc((void **)&m->d, (size_t)PetscMax(m->n, 1) * sizeof(double)));
  m->valid = VALID_HOST;
  PetscCall(PetscObjectStateGet((PetscObject)v, &m->state));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, m));
  PetscCall(PPEContainerSetDestroy(c, MirrorDestroy));
  PetscCall(PetscObjectCompose((PetscObject)v, MIRROR_NAME, (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  v->ops->getarray      = HookGetArray;
  v->ops->getarrayread  = HookGetArrayRead;
  v->ops->getarraywrite = HookGetArrayWrite;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecDevDetach(Vec v)
{
  PPEDevMirror *m;

  PetscFunctionBegin;
  PetscCall(GetMirror(v, &m));
  if (!m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ToHost(v, m));
  v->ops->getarray      = NULL;
  v->ops->getarrayread  = NULL;
  v->ops->getarraywrite = NULL;
  PetscCall(PetscObjectCompose((PetscObject)v, MIRROR_NAME, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecDevGetArray(Vec v, PPEAccess acc, double **a)
{
  PPEDevMirror *m;
  PetscMemType  mt = PETSC_MEMTYPE_HOST;

  PetscFunctionBegin;
  PetscCall(GetMirror(v, &m));
  if (m) {
    PetscCall(CheckState(v, m));
    if (acc != PPE_ACCESS_WRITE && !(m->valid & VALID_DEV)) {
      PPEBackendCall(m->ops, m->ops->copy(m->d, HostArray(v), (size_t)m->n * sizeof(double), PPE_DEV_H2D, m->stream));
      PPEBackendCall(m->ops, m->ops->sync(m->stream));
      m->valid |= VALID_DEV;
    }
    *a = m->d;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    PetscBool done;
    PetscCall(PPEVecDeviceArray(v, acc, a, &done));
    if (done) PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (acc == PPE_ACCESS_READ) PetscCall(VecGetArrayReadAndMemType(v, (const PetscScalar **)a, &mt));
  else if (acc == PPE_ACCESS_WRITE) PetscCall(VecGetArrayWriteAndMemType(v, a, &mt));
  else PetscCall(VecGetArrayAndMemType(v, a, &mt));
  PetscCheck(PetscMemTypeDevice(mt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The vector's values are not in device memory");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecDevRestoreArray(Vec v, PPEAccess acc, double **a)
{
  PPEDevMirror *m;

  PetscFunctionBegin;
  PetscCall(GetMirror(v, &m));
  if (m) {
    if (acc != PPE_ACCESS_READ) {
      m->valid = VALID_DEV;
      PetscCall(PetscObjectStateIncrease((PetscObject)v));
      PetscCall(PetscObjectStateGet((PetscObject)v, &m->state));
    }
    *a = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    PetscBool done;
    PetscCall(PPEVecDeviceArrayRestore(v, acc, &done));
    if (done) {
      *a = NULL;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (acc == PPE_ACCESS_READ) PetscCall(VecRestoreArrayReadAndMemType(v, (const PetscScalar **)a));
  else if (acc == PPE_ACCESS_WRITE) PetscCall(VecRestoreArrayWriteAndMemType(v, a));
  else PetscCall(VecRestoreArrayAndMemType(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecDevArrays(PetscInt n, const Vec v[], const PPEAccess acc[], PPEAccess all, double *a[], PetscBool get)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    PPEAccess ai = acc ? acc[i] : all;
    if (!v[i]) {
      a[i] = NULL;
      continue;
    }
    if (get) PetscCall(PPEVecDevGetArray(v[i], ai, &a[i]));
    else PetscCall(PPEVecDevRestoreArray(v[i], ai, &a[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecArrays(PetscBool dev, PetscInt n, const Vec v[], const PPEAccess acc[], PPEAccess all, double *a[], PetscBool get)
{
  PetscFunctionBegin;
  if (dev) {
    PetscCall(PPEVecDevArrays(n, v, acc, all, a, get));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < n; i++) {
    if (!v[i]) {
      a[i] = NULL;
      continue;
    }
    switch (acc ? acc[i] : all) {
    case PPE_ACCESS_READ:
      if (get) PetscCall(VecGetArrayRead(v[i], (const PetscScalar **)&a[i]));
      else PetscCall(VecRestoreArrayRead(v[i], (const PetscScalar **)&a[i]));
      break;
    case PPE_ACCESS_WRITE:
      if (get) PetscCall(VecGetArrayWrite(v[i], &a[i]));
      else PetscCall(VecRestoreArrayWrite(v[i], &a[i]));
      break;
    default:
      if (get) PetscCall(VecGetArray(v[i], &a[i]));
      else PetscCall(VecRestoreArray(v[i], &a[i]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecDevAllOn(PetscInt n, const Vec v[], PPEBackend *b)
{
  PetscFunctionBegin;
  PetscCall(PPEVecDevBackend(v[0], b));
  if (*b == PPE_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 1; i < n; i++) {
    PPEBackend bi;
    if (!v[i]) continue;
    PetscCall(PPEVecDevBackend(v[i], &bi));
    if (bi == *b) continue;
    PetscBool std;
    PetscCall(IsStandard(v[i], &std));
    if (bi == PPE_BACKEND_HOST && std && *b != PPE_BACKEND_HOST) {
      PPEBackend pb;
      PetscBool  own;
      PetscCall(VecPetscDeviceKind(v[0], &pb));
      PetscCall(PetscObjectTypeCompareAny((PetscObject)v[0], &own, VECPPEEMU, VECPPECUDA, VECPPEHIP, ""));
      if (pb == PPE_BACKEND_HOST || own) { /* v[0] has a mirror or is PPEKit's device vector: the others follow it */
        PetscCall(PPEVecDevAttach(v[i], *b));
        continue;
      }
    }
    *b = PPE_BACKEND_HOST; /* mixed: the host path (PETSc's device vectors copy themselves) */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = a x + b y + c on the device (x may be NULL when a = 0) */
static PetscErrorCode DevAXPBYC(PPEBackend be, Vec y, PetscScalar a, Vec x, PetscScalar b, PetscScalar c)
{
  const PPEBackendOps *ops;
  void               *stream;
  double             *yd, *xd = NULL;
  PetscInt            n;

  PetscFunctionBegin;
  PetscCall(PPEDevVecStream(be, &ops, &stream));
  PetscCall(VecGetLocalSize(y, &n));
  if (x) PetscCall(PPEVecDevGetArray(x, PPE_ACCESS_READ, &xd));
  PetscCall(PPEVecDevGetArray(y, b != 0.0 ? PPE_ACCESS_READWRITE : PPE_ACCESS_WRITE, &yd));
  PPEBackendCall(ops, ops->axpbyc((long)n, a, xd, b, yd, c, stream));
  PPEBackendCall(ops, ops->sync(stream));
  PetscCall(PPEVecDevRestoreArray(y, b != 0.0 ? PPE_ACCESS_READWRITE : PPE_ACCESS_WRITE, &yd));
  if (x) PetscCall(PPEVecDevRestoreArray(x, PPE_ACCESS_READ, &xd));
  PetscCall(PetscLogFlops(3.0 * n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecCopy(Vec x, Vec y)
{
  PPEBackend be;
  Vec        v[2] = {y, x};

  PetscFunctionBegin;
  if (x == y) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEVecDevAllOn(2, v, &be));
  if (be == PPE_BACKEND_HOST) {
    v[0] = x;
    v[1] = y;
    PetscCall(PPEVecDevAllOn(2, v, &be)); /* y follows x onto the device */
  }
  if (be == PPE_BACKEND_HOST) PetscCall(VecCopy(x, y));
  else PetscCall(DevAXPBYC(be, y, 1.0, x, 0.0, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecAYPX(Vec y, PetscScalar b, Vec x)
{
  PPEBackend be;
  Vec        v[2] = {y, x};

  PetscFunctionBegin;
  PetscCall(PPEVecDevAllOn(2, v, &be));
  if (be == PPE_BACKEND_HOST) PetscCall(VecAYPX(y, b, x));
  else PetscCall(DevAXPBYC(be, y, 1.0, x, b, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecAXPY(Vec y, PetscScalar a, Vec x)
{
  PPEBackend be;
  Vec        v[2] = {y, x};

  PetscFunctionBegin;
  PetscCall(PPEVecDevAllOn(2, v, &be));
  if (be == PPE_BACKEND_HOST) PetscCall(VecAXPY(y, a, x));
  else PetscCall(DevAXPBYC(be, y, a, x, 1.0, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecShift(Vec y, PetscScalar c)
{
  PPEBackend be;

  PetscFunctionBegin;
  PetscCall(PPEVecDevBackend(y, &be));
  if (be == PPE_BACKEND_HOST) PetscCall(VecShift(y, c));
  else PetscCall(DevAXPBYC(be, y, 0.0, NULL, 1.0, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecZero(Vec y)
{
  PPEBackend be;

  PetscFunctionBegin;
  PetscCall(PPEVecDevBackend(y, &be));
  if (be == PPE_BACKEND_HOST) PetscCall(VecSet(y, 0.0));
  else PetscCall(DevAXPBYC(be, y, 0.0, NULL, 0.0, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* local dots on the device: s[q] = y . u[q] */
PetscErrorCode PPEVecDevLocalDots(Vec y, PetscInt n, const Vec u[], PetscScalar s[], PetscBool *done)
{
  Vec                 v[3] = {y, n > 0 ? u[0] : NULL, n > 1 ? u[1] : NULL};
  PPEBackend          be;
  const PPEBackendOps *ops;
  void               *stream;
  double             *yd, *ud[2] = {NULL, NULL}, *work;
  PetscInt            nl;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  PetscCall(PPEVecDevAllOn(n + 1, v, &be));
  if (be == PPE_BACKEND_HOST || n <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEDevVecStream(be, &ops, &stream));
  PetscCall(VecGetLocalSize(y, &nl));
  PetscCall(PPEVecDevGetArray(y, PPE_ACCESS_READ, &yd));
  for (PetscInt q = 0; q < n; q++) PetscCall(PPEVecDevGetArray(u[q], PPE_ACCESS_READ, &ud[q]));
  PetscCall(PPEDevVecWork(be, ops, PPE_DEV_RED_WORK(nl, 2), &work));
  PPEBackendCall(ops, ops->dot((long)nl, (int)n, yd, ud[0], ud[1], work, s, stream));
  for (PetscInt q = 0; q < n; q++) PetscCall(PPEVecDevRestoreArray(u[q], PPE_ACCESS_READ, &ud[q]));
  PetscCall(PPEVecDevRestoreArray(y, PPE_ACCESS_READ, &yd));
  PetscCall(PetscLogFlops(2.0 * n * nl));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecLocalSum(Vec x, PetscScalar *sum)
{
  PPEBackend be;
  PetscInt   n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(PPEVecDevBackend(x, &be));
  if (be == PPE_BACKEND_HOST) {
    const PetscScalar *xa;
    PetscScalar        s = 0;
    PetscCall(VecGetArrayRead(x, &xa));
    for (PetscInt i = 0; i < n; i++) s += xa[i];
    PetscCall(VecRestoreArrayRead(x, &xa));
    *sum = s;
  } else {
    const PPEBackendOps *ops;
    void               *stream;
    double             *xd, *work;
    PetscCall(PPEDevVecStream(be, &ops, &stream));
    if (!ppe_dv_ones[0] && !ppe_dv_ones[1] && !ppe_dv_ones[2] && !ppe_dv_ones[3]) PetscCall(PetscRegisterFinalize(DevVecFinalize));
    if (ppe_dv_nones[be] < (size_t)n) { /* ones made on the device: nothing crosses */
      if (ppe_dv_ones[be]) PPEBackendCall(ops, ops->release(ppe_dv_ones[be]));
      PPEBackendCall(ops, ops->alloc((void **)&ppe_dv_ones[be], (size_t)PetscMax(n, 1) * sizeof(double)));
      PPEBackendCall(ops, ops->axpbyc((long)n, 0.0, NULL, 0.0, ppe_dv_ones[be], 1.0, stream));
      ppe_dv_nones[be] = (size_t)n;
    }
    PetscCall(PPEVecDevGetArray(x, PPE_ACCESS_READ, &xd));
    PetscCall(PPEDevVecWork(be, ops, PPE_DEV_RED_WORK(n, 1), &work));
    PPEBackendCall(ops, ops->dot((long)n, 1, xd, ppe_dv_ones[be], NULL, work, sum, stream));
    PetscCall(PPEVecDevRestoreArray(x, PPE_ACCESS_READ, &xd));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

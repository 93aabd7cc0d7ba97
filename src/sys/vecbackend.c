/*
   Vectors and back ends (declared in include/ppekit/private/backendimpl.h).

   Where a vector's values live: on the host for standard vectors; on the device for PETSc's
   own device vectors (VECCUDA, VECHIP: a PETSc built with them; their device arrays come
   from PETSc's memory-type API, VecGetArrayReadAndMemType and family) and for PPEKit's device
   vector types VECPPEEMU, VECPPECUDA and VECPPEHIP, for a PETSc without device vectors
   (Debian's) or for the emulated back end.

   PPEKit's device vectors are standard vectors (PETSc's operations and host array) with a
   device copy: their type sets its own operations, so that
     - a host access through PETSc's VecGetArray family brings the host values up to date
       first (and a host write makes the device copy stale): every PETSc operation that
       reads or writes through those (VecSetValues, VecScatter, viewers, MatMult of another
       type) sees the current values;
     - PETSc's vector operations that the Krylov methods use (VecCopy, VecSet, VecAXPY,
       VecAYPX, VecAXPBY, VecScale, VecShift, VecDot, VecTDot, VecNorm 2) run on the device
       when their vectors live there, so that nothing crosses;
     - VecDuplicate gives another device vector of the same back end.
   Nothing here writes into an object of another type or reads a private field.

   The kernels of the library take the arrays of their vectors in the memory of the back end
   they run on through PPEArraysGet(): in place where a vector lives there (on the host,
   every vector does), else through a staging buffer of that back end, copied in for reads
   and out for writes.
*/
#include <ppekit/private/backendimpl.h>
#include <petsc/private/vecimpl.h>

#define VALID_HOST 1
#define VALID_DEV  2

/* Most staging buffers of a back end in use at once (nested kernel calls each stage theirs). */
#define PPE_STAGE_MAX 32

/* The resources of a back end for vector operations: one stream, the work of reductions and
   the staging buffers. */
typedef struct {
  const PPEBackendOps *ops;
  void                *stream;
  double              *work;
  size_t               nwork;
  double              *stage[PPE_STAGE_MAX];
  size_t               nstage[PPE_STAGE_MAX];
  PetscBool            busy[PPE_STAGE_MAX];
} PPEBackendRes;

static PPEBackendRes ppe_res[4];

static PetscErrorCode BackendResFinalize(void)
{
  PetscFunctionBegin;
  for (int b = 0; b < 4; b++) {
    PPEBackendRes *r = &ppe_res[b];

    if (!r->ops) continue;
    PPEBackendCall(r->ops, r->ops->sync(r->stream));
    for (int i = 0; i < PPE_STAGE_MAX; i++)
      if (r->stage[i]) PPEBackendCall(r->ops, r->ops->release(r->stage[i]));
    if (r->work) PPEBackendCall(r->ops, r->ops->release(r->work));
    PPEBackendCall(r->ops, r->ops->stream_destroy(r->stream));
    PetscCall(PetscMemzero(r, sizeof(*r)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The resources of back end b, its table and stream made at the first use. */
static PetscErrorCode BackendRes(PPEBackend b, PPEBackendRes **r)
{
  static PetscBool registered = PETSC_FALSE;

  PetscFunctionBegin;
  *r = &ppe_res[b];
  if ((*r)->ops) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEBackendGetOps(b, &(*r)->ops));
  PPEBackendCall((*r)->ops, (*r)->ops->stream_create(&(*r)->stream));
  if (!registered) {
    PetscCall(PetscRegisterFinalize(BackendResFinalize));
    registered = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendStream(PPEBackend b, const PPEBackendOps **ops, void **stream)
{
  PPEBackendRes *r;

  PetscFunctionBegin;
  PetscCall(BackendRes(b, &r));
  *ops    = r->ops;
  *stream = r->stream;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a buffer of at least n doubles in back end r's memory, kept (and grown) in *p, *np */
static PetscErrorCode Grow(PPEBackendRes *r, size_t n, double **p, size_t *np)
{
  PetscFunctionBegin;
  if (*np < n || !*p) {
    if (*p) PPEBackendCall(r->ops, r->ops->release(*p));
    *p = NULL;
    PPEBackendCall(r->ops, r->ops->alloc((void **)p, PetscMax(n, 1) * sizeof(double)));
    *np = n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendWork(PPEBackend b, size_t n, double **w)
{
  PPEBackendRes *r;

  PetscFunctionBegin;
  PetscCall(BackendRes(b, &r));
  PetscCall(Grow(r, n, &r->work, &r->nwork));
  *w = r->work;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ device vector types */

#define DEVVEC_NAME "PPEKitDeviceVector"

typedef struct {
  Vec                  owner;
  PPEBackend           b;
  const PPEBackendOps *ops;
  void                *stream;
  double              *d; /* the device copy */
  PetscScalar         *h; /* the host array (the standard vector's) */
  PetscInt             n;
  int                  valid; /* VALID_HOST, VALID_DEV or both */
  struct _VecOps       std;   /* the standard vector's operations */
} PPEDevVec;

static PetscErrorCode DevVecDestroy(PPECtxDestroyArg arg)
{
  PPEDevVec *m = (PPEDevVec *)PPECtxFromDestroyArg(arg);

  PetscFunctionBegin;
  if (m->d) PPEBackendCall(m->ops, m->ops->release(m->d));
  PetscCall(PetscFree(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v's device copy, NULL when v is not one of PPEKit's device vectors */
static PetscErrorCode GetDevVec(Vec v, PPEDevVec **m)
{
  PetscObject c;

  PetscFunctionBegin;
  *m = NULL;
  PetscCall(PetscObjectQuery((PetscObject)v, DEVVEC_NAME, &c));
  if (c) {
    void *p;
    PetscCall(PetscContainerGetPointer((PetscContainer)c, &p));
    if (((PPEDevVec *)p)->owner == v) *m = (PPEDevVec *)p;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host values brought up to date */
static PetscErrorCode ToHost(PPEDevVec *m)
{
  PetscFunctionBegin;
  if (!(m->valid & VALID_HOST)) {
    PPEBackendCall(m->ops, m->ops->copy(m->h, m->d, (size_t)m->n * sizeof(double), PPE_DEV_D2H, m->stream));
    PPEBackendCall(m->ops, m->ops->sync(m->stream));
    m->valid |= VALID_HOST;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device values brought up to date */
static PetscErrorCode ToDevice(PPEDevVec *m)
{
  PetscFunctionBegin;
  if (!(m->valid & VALID_DEV)) {
    PPEBackendCall(m->ops, m->ops->copy(m->d, m->h, (size_t)m->n * sizeof(double), PPE_DEV_H2D, m->stream));
    PPEBackendCall(m->ops, m->ops->sync(m->stream));
    m->valid |= VALID_DEV;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device array of m for access acc (a write leaves the device copy the only current one) */
static PetscErrorCode DevArray(PPEDevVec *m, PPEAccess acc, double **a)
{
  PetscFunctionBegin;
  if (acc != PPE_ACCESS_WRITE) PetscCall(ToDevice(m));
  if (acc != PPE_ACCESS_READ) m->valid = VALID_DEV;
  *a = m->d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGetArray_PPEDevice(Vec v, PetscScalar **a)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(v, &m));
  PetscCall(ToHost(m));
  m->valid = VALID_HOST;
  *a       = m->h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGetArrayRead_PPEDevice(Vec v, const PetscScalar **a)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(v, &m));
  PetscCall(ToHost(m));
  *a = m->h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecGetArrayWrite_PPEDevice(Vec v, PetscScalar **a)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(v, &m));
  m->valid = VALID_HOST;
  *a       = m->h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc operations that reach the host array without the VecGetArray family (the multiple
   dot products and axpy of some releases read the arrays of several vectors as one block):
   every PPEKit device vector among their operands brought to the host first */
static PetscErrorCode AllToHost(Vec x, PetscInt nv, const Vec y[], PetscBool write)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(x, &m));
  if (m) {
    PetscCall(ToHost(m));
    if (write) m->valid = VALID_HOST;
  }
  for (PetscInt i = 0; i < nv; i++) {
    PetscCall(GetDevVec(y[i], &m));
    if (m) PetscCall(ToHost(m));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMDot_PPEDevice(Vec x, PetscInt nv, const Vec y[], PetscScalar *z)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(AllToHost(x, nv, y, PETSC_FALSE));
  PetscCall(GetDevVec(x, &m));
  PetscCall((*m->std.mdot)(x, nv, y, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecMAXPY_PPEDevice(Vec y, PetscInt nv, const PetscScalar *alpha, Vec x[])
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(AllToHost(y, nv, x, PETSC_TRUE));
  PetscCall(GetDevVec(y, &m));
  PetscCall((*m->std.maxpy)(y, nv, alpha, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecPlaceArray_PPEDevice(Vec v, const PetscScalar *a)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)v), PETSC_ERR_SUP, "VecPlaceArray() and VecReplaceArray() are not supported on PPEKit's device vectors (type %s): use a standard vector", ((PetscObject)v)->type_name);
  (void)a;
}

static PetscErrorCode VecResetArray_PPEDevice(Vec v)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)v), PETSC_ERR_SUP, "VecResetArray() is not supported on PPEKit's device vectors (type %s): use a standard vector", ((PetscObject)v)->type_name);
}

static PetscErrorCode VecDuplicate_PPEDevice(Vec v, Vec *w)
{
  PetscInt n, N, bs;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetSize(v, &N));
  PetscCall(VecGetBlockSize(v, &bs));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)v), w));
  PetscCall(VecSetSizes(*w, n, N));
  PetscCall(VecSetBlockSize(*w, bs));
  PetscCall(VecSetType(*w, ((PetscObject)v)->type_name));
  if (v->map->mapping) PetscCall(VecSetLocalToGlobalMapping(*w, v->map->mapping));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecDuplicateVecs_PPEDevice(Vec v, PetscInt k, Vec *w[])
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(k, w));
  for (PetscInt i = 0; i < k; i++) PetscCall(VecDuplicate(v, &(*w)[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecDestroyVecs_PPEDevice(PetscInt k, Vec w[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < k; i++) PetscCall(VecDestroy(&w[i]));
  PetscCall(PetscFree(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y and x (NULL: none) both device vectors of one back end: their copies, else NULL */
static PetscErrorCode SameDevice(Vec y, Vec x, PPEDevVec **my, PPEDevVec **mx)
{
  PetscFunctionBegin;
  PetscCall(GetDevVec(y, my));
  *mx = NULL;
  if (x && *my) {
    PetscCall(GetDevVec(x, mx));
    if (!*mx || (*mx)->b != (*my)->b) *my = *mx = NULL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = a x + b y + c on the device (x NULL when a = 0) */
static PetscErrorCode DevAXPBYC(PPEDevVec *my, PetscScalar a, PPEDevVec *mx, PetscScalar b, PetscScalar c)
{
  double *xd = NULL, *yd = NULL;

  PetscFunctionBegin;
  if (mx) PetscCall(DevArray(mx, PPE_ACCESS_READ, &xd));
  PetscCall(DevArray(my, b != 0.0 ? PPE_ACCESS_READWRITE : PPE_ACCESS_WRITE, &yd));
  PPEBackendCall(my->ops, my->ops->axpbyc((long)my->n, a, xd, b, yd, c, my->stream));
  PPEBackendCall(my->ops, my->ops->sync(my->stream));
  PetscCall(PetscLogFlops(3.0 * my->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecCopy_PPEDevice(Vec x, Vec y)
{
  PPEDevVec *mx, *my;

  PetscFunctionBegin;
  PetscCall(SameDevice(y, x, &my, &mx));
  if (my) {
    double *xd = NULL, *yd = NULL;
    PetscCall(DevArray(mx, PPE_ACCESS_READ, &xd));
    PetscCall(DevArray(my, PPE_ACCESS_WRITE, &yd));
    PPEBackendCall(my->ops, my->ops->copy(yd, xd, (size_t)my->n * sizeof(double), PPE_DEV_D2D, my->stream));
    PPEBackendCall(my->ops, my->ops->sync(my->stream));
  } else {
    PetscCall(GetDevVec(x, &mx));
    PetscCall((*mx->std.copy)(x, y)); /* through the VecGetArray family: coherent */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecSet_PPEDevice(Vec y, PetscScalar alpha)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(y, &m));
  PetscCall(DevAXPBYC(m, 0.0, NULL, 0.0, alpha));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecScale_PPEDevice(Vec y, PetscScalar alpha)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(y, &m));
  PetscCall(DevAXPBYC(m, 0.0, NULL, alpha, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecShift_PPEDevice(Vec y, PetscScalar c)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(y, &m));
  PetscCall(DevAXPBYC(m, 0.0, NULL, 1.0, c));
  PetscCall(PetscObjectStateIncrease((PetscObject)y)); /* VecShift() leaves it to the type */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecAXPY_PPEDevice(Vec y, PetscScalar a, Vec x)
{
  PPEDevVec *my, *mx;

  PetscFunctionBegin;
  PetscCall(SameDevice(y, x, &my, &mx));
  if (my) PetscCall(DevAXPBYC(my, a, mx, 1.0, 0.0));
  else {
    PetscCall(GetDevVec(y, &my));
    PetscCall((*my->std.axpy)(y, a, x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecAYPX_PPEDevice(Vec y, PetscScalar b, Vec x)
{
  PPEDevVec *my, *mx;

  PetscFunctionBegin;
  PetscCall(SameDevice(y, x, &my, &mx));
  if (my) PetscCall(DevAXPBYC(my, 1.0, mx, b, 0.0));
  else {
    PetscCall(GetDevVec(y, &my));
    PetscCall((*my->std.aypx)(y, b, x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecAXPBY_PPEDevice(Vec y, PetscScalar a, PetscScalar b, Vec x)
{
  PPEDevVec *my, *mx;

  PetscFunctionBegin;
  PetscCall(SameDevice(y, x, &my, &mx));
  if (my) PetscCall(DevAXPBYC(my, a, mx, b, 0.0));
  else {
    PetscCall(GetDevVec(y, &my));
    PetscCall((*my->std.axpby)(y, a, b, x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the sum over the ranks of the local x . y, x and y on one device (the device's order) */
static PetscErrorCode DevDot(Vec x, PPEDevVec *mx, PPEDevVec *my, PetscScalar *z)
{
  double     *xd = NULL, *yd = NULL, *work;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(DevArray(mx, PPE_ACCESS_READ, &xd));
  PetscCall(DevArray(my, PPE_ACCESS_READ, &yd));
  PetscCall(PPEBackendWork(mx->b, PPE_DEV_RED_WORK(mx->n, 1), &work));
  PPEBackendCall(mx->ops, mx->ops->dot((long)mx->n, 1, xd, yd, NULL, work, z, mx->stream));
  PetscCall(PetscLogFlops(2.0 * mx->n));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)x), &size));
  if (size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, z, 1, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecDot_PPEDevice(Vec x, Vec y, PetscScalar *z)
{
  PPEDevVec *mx, *my;

  PetscFunctionBegin;
  PetscCall(SameDevice(x, y, &mx, &my));
  if (mx) PetscCall(DevDot(x, mx, my, z));
  else {
    PetscCall(GetDevVec(x, &mx));
    PetscCall((*mx->std.dot)(x, y, z));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the 2-norm on the device (the square root of the dot product); the others on the host */
static PetscErrorCode VecNorm_PPEDevice(Vec x, NormType type, PetscReal *z)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(x, &m));
  if (type == NORM_2 || type == NORM_FROBENIUS) {
    PetscScalar s;
    PetscCall(DevDot(x, m, m, &s));
    *z = PetscSqrtReal(PetscRealPart(s));
  } else PetscCall((*m->std.norm)(x, type, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operations of PPEKit's device vector types, set on a vector of that type when it is
   made: those of a standard vector but for the ones above. */
static void VecSetOps_PPEDevice(Vec v)
{
  v->ops->getarray      = VecGetArray_PPEDevice;
  v->ops->getarrayread  = VecGetArrayRead_PPEDevice;
  v->ops->getarraywrite = VecGetArrayWrite_PPEDevice;
  v->ops->placearray    = VecPlaceArray_PPEDevice;
  v->ops->replacearray  = VecPlaceArray_PPEDevice;
  v->ops->resetarray    = VecResetArray_PPEDevice;
  v->ops->duplicate     = VecDuplicate_PPEDevice;
  v->ops->duplicatevecs = VecDuplicateVecs_PPEDevice;
  v->ops->destroyvecs   = VecDestroyVecs_PPEDevice;
  v->ops->mdot          = VecMDot_PPEDevice;
  v->ops->mtdot         = VecMDot_PPEDevice; /* real scalars (configure refuses complex): a transpose dot is the dot */
  v->ops->mdot_local    = NULL;
  v->ops->mtdot_local   = NULL;
  v->ops->maxpy         = VecMAXPY_PPEDevice;
  v->ops->copy          = VecCopy_PPEDevice;
  v->ops->set           = VecSet_PPEDevice;
  v->ops->scale         = VecScale_PPEDevice;
  v->ops->shift         = VecShift_PPEDevice;
  v->ops->axpy          = VecAXPY_PPEDevice;
  v->ops->aypx          = VecAYPX_PPEDevice;
  v->ops->axpby         = VecAXPBY_PPEDevice;
  v->ops->dot           = VecDot_PPEDevice;
  v->ops->tdot          = VecDot_PPEDevice;
  v->ops->norm          = VecNorm_PPEDevice;
}

/* A PPEKit device vector of back end b: a standard vector (host array, PETSc's operations)
   given a device copy and this type's operations. */
static PetscErrorCode VecCreate_PPEDevice(Vec v, PPEBackend b, VecType type)
{
  PPEDevVec     *m;
  PetscContainer c;
  PetscScalar   *a;

  PetscFunctionBegin;
  PetscCall(PPEBackendCheck(PetscObjectComm((PetscObject)v), b));
  PetscCall(VecSetType(v, VECSTANDARD));
  PetscCall(PetscNew(&m));
  m->owner = v;
  m->b     = b;
  m->std   = *v->ops;
  PetscCall(PPEBackendStream(b, &m->ops, &m->stream));
  PetscCall(VecGetLocalSize(v, &m->n));
  PetscCall(VecGetArray(v, &a));
  m->h = a;
  PetscCall(VecRestoreArray(v, &a));
  PPEBackendCall(m->ops, m->ops->alloc((void **)&m->d, (size_t)PetscMax(m->n, 1) * sizeof(double)));
  m->valid = VALID_HOST;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, m));
  PetscCall(PPEContainerSetDestroy(c, DevVecDestroy));
  PetscCall(PetscObjectCompose((PetscObject)v, DEVVEC_NAME, (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscCall(PetscObjectChangeTypeName((PetscObject)v, type));
  VecSetOps_PPEDevice(v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode VecCreate_PPEEmu(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecCreate_PPEDevice(v, PPE_BACKEND_EMU, VECPPEEMU));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode VecCreate_PPECUDA(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecCreate_PPEDevice(v, PPE_BACKEND_CUDA, VECPPECUDA));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode VecCreate_PPEHIP(Vec v)
{
  PetscFunctionBegin;
  PetscCall(VecCreate_PPEDevice(v, PPE_BACKEND_HIP, VECPPEHIP));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------- where vectors live */

/* PETSc's own device vectors of a back end PPEKit was built with */
static PetscErrorCode PetscDeviceBackend(Vec v, PPEBackend *b)
{
  PetscBool            cuda, hip;
  const PPEBackendOps *ops;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, &cuda, VECSEQCUDA, VECMPICUDA, VECCUDA, ""));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, &hip, "seqhip", "mpihip", "hip", ""));
  *b = cuda ? PPE_BACKEND_CUDA : hip ? PPE_BACKEND_HIP : PPE_BACKEND_HOST;
  PetscCall(PPEBackendIsBuilt(*b, &ops));
  if (!ops) *b = PPE_BACKEND_HOST;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecGetBackend(Vec v, PPEBackend *b)
{
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(v, &m));
  if (m) *b = m->b;
  else PetscCall(PetscDeviceBackend(v, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecsGetBackend(PetscInt n, const Vec v[], PPEBackend *b)
{
  PetscBool first = PETSC_TRUE;

  PetscFunctionBegin;
  *b = PPE_BACKEND_HOST;
  for (PetscInt i = 0; i < n; i++) {
    PPEBackend bi = PPE_BACKEND_HOST;

    if (!v[i]) continue;
    PetscCall(PPEVecGetBackend(v[i], &bi));
    if (first) *b = bi;
    else if (bi != *b) {
      *b = PPE_BACKEND_HOST; /* mixed: the host, where every vector can be read */
      break;
    }
    first = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendVecType(PPEBackend b, VecType *type)
{
  static const VecType own[] = {VECSTANDARD, VECPPECUDA, VECPPEHIP, VECPPEEMU};

  PetscFunctionBegin;
  *type = own[b];
#if defined(PETSC_HAVE_CUDA)
  if (b == PPE_BACKEND_CUDA) *type = VECCUDA;
#endif
#if defined(PETSC_HAVE_HIP)
  if (b == PPE_BACKEND_HIP) *type = VECHIP;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEVecCreateOn(Vec v, PPEBackend b, Vec *w)
{
  PetscInt n, N;
  VecType  type;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetSize(v, &N));
  PetscCall(PPEBackendVecType(b, &type));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)v), w));
  PetscCall(VecSetSizes(*w, n, N));
  PetscCall(VecSetType(*w, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------- arrays in a back end's memory */

/* a staging buffer of n doubles of back end r (kept for the next call once released) */
static PetscErrorCode StageTake(PPEBackendRes *r, size_t n, int *slot)
{
  PetscFunctionBegin;
  for (*slot = 0; *slot < PPE_STAGE_MAX && r->busy[*slot]; (*slot)++) { }
  PetscCheck(*slot < PPE_STAGE_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "More than %d vectors staged at once on back end %s", PPE_STAGE_MAX, r->ops->name);
  PetscCall(Grow(r, n, &r->stage[*slot], &r->nstage[*slot]));
  r->busy[*slot] = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the array of vector i of A (not an alias) in place or staged */
static PetscErrorCode ArrayGet(PPEArrays *A, PetscInt i, PPEBackendRes *r)
{
  Vec        v   = A->v[i];
  PPEAccess  acc = A->acc[i];
  PPEBackend vb;
  PPEDevVec *m;

  PetscFunctionBegin;
  A->slot[i] = -1;
  PetscCall(PPEVecGetBackend(v, &vb));
  PetscCall(GetDevVec(v, &m));
  if (A->b == PPE_BACKEND_HOST) { /* every vector can be read on the host */
    if (acc == PPE_ACCESS_READ) PetscCall(VecGetArrayRead(v, (const PetscScalar **)&A->a[i]));
    else if (acc == PPE_ACCESS_WRITE) PetscCall(VecGetArrayWrite(v, &A->a[i]));
    else PetscCall(VecGetArray(v, &A->a[i]));
  } else if (m && vb == A->b) PetscCall(DevArray(m, acc, &A->a[i]));
  else if (vb == A->b) { /* PETSc's device vector */ PetscMemType mt;
    if (acc == PPE_ACCESS_READ) PetscCall(VecGetArrayReadAndMemType(v, (const PetscScalar **)&A->a[i], &mt));
    else if (acc == PPE_ACCESS_WRITE) PetscCall(VecGetArrayWriteAndMemType(v, &A->a[i], &mt));
    else PetscCall(VecGetArrayAndMemType(v, &A->a[i], &mt));
    PetscCheck(PetscMemTypeDevice(mt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The vector's values are not in device memory");
  } else { /* staged: a buffer of the back end, the host values copied in for a read */
    PetscInt n;
    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(StageTake(r, (size_t)n, &A->slot[i]));
    A->a[i] = r->stage[A->slot[i]];
    if (acc != PPE_ACCESS_WRITE) {
      const PetscScalar *h;
      PetscCall(VecGetArrayRead(v, &h));
      PPEBackendCall(r->ops, r->ops->copy(A->a[i], h, (size_t)n * sizeof(double), PPE_DEV_H2D, r->stream));
      PPEBackendCall(r->ops, r->ops->sync(r->stream));
      PetscCall(VecRestoreArrayRead(v, &h));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ArrayRestore(PPEArrays *A, PetscInt i, PPEBackendRes *r)
{
  Vec        v   = A->v[i];
  PPEAccess  acc = A->acc[i];
  PPEDevVec *m;

  PetscFunctionBegin;
  PetscCall(GetDevVec(v, &m));
  if (A->slot[i] >= 0) { /* staged: a write copied out */
    if (acc != PPE_ACCESS_READ) {
      PetscScalar *h;
      PetscInt     n;
      PetscCall(VecGetLocalSize(v, &n));
      PetscCall(VecGetArrayWrite(v, &h));
      PPEBackendCall(r->ops, r->ops->copy(h, A->a[i], (size_t)n * sizeof(double), PPE_DEV_D2H, r->stream));
      PPEBackendCall(r->ops, r->ops->sync(r->stream));
      PetscCall(VecRestoreArrayWrite(v, &h));
    }
    r->busy[A->slot[i]] = PETSC_FALSE;
  } else if (A->b == PPE_BACKEND_HOST) {
    if (acc == PPE_ACCESS_READ) PetscCall(VecRestoreArrayRead(v, (const PetscScalar **)&A->a[i]));
    else if (acc == PPE_ACCESS_WRITE) PetscCall(VecRestoreArrayWrite(v, &A->a[i]));
    else PetscCall(VecRestoreArray(v, &A->a[i]));
  } else if (m) {
    if (acc != PPE_ACCESS_READ) PetscCall(PetscObjectStateIncrease((PetscObject)v));
  } else if (acc == PPE_ACCESS_READ) PetscCall(VecRestoreArrayReadAndMemType(v, (const PetscScalar **)&A->a[i]));
  else if (acc == PPE_ACCESS_WRITE) PetscCall(VecRestoreArrayWriteAndMemType(v, &A->a[i]));
  else PetscCall(VecRestoreArrayAndMemType(v, &A->a[i]));
  A->a[i] = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEArraysGet(PPEBackend b, PetscInt n, const Vec v[], const PPEAccess acc[], PPEAccess all, PPEArrays *A)
{
  PPEBackendRes *r;

  PetscFunctionBegin;
  PetscCheck(n >= 0 && n <= PPE_ARRAYS_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Arrays of %" PetscInt_FMT " vectors asked for: 0 to %d allowed", n, PPE_ARRAYS_MAX);
  PetscCall(BackendRes(b, &r));
  A->b      = b;
  A->ops    = r->ops;
  A->stream = r->stream;
  A->n      = n;
  for (PetscInt i = 0; i < n; i++) { /* one access per vector: a vector listed twice is read and written */
    A->v[i]     = v[i];
    A->acc[i]   = acc ? acc[i] : all;
    A->alias[i] = -1;
    A->a[i]     = NULL;
    for (PetscInt j = 0; j < i && v[i]; j++)
      if (v[j] == v[i] && A->alias[j] < 0) {
        A->alias[i] = j;
        if (A->acc[j] != A->acc[i]) A->acc[j] = PPE_ACCESS_READWRITE;
        break;
      }
  }
  for (PetscInt i = 0; i < n; i++)
    if (v[i] && A->alias[i] < 0) PetscCall(ArrayGet(A, i, r));
  for (PetscInt i = 0; i < n; i++)
    if (A->alias[i] >= 0) A->a[i] = A->a[A->alias[i]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEArraysRestore(PPEArrays *A)
{
  PPEBackendRes *r;

  PetscFunctionBegin;
  PetscCall(BackendRes(A->b, &r));
  PPEBackendCall(r->ops, r->ops->sync(r->stream));
  for (PetscInt i = 0; i < A->n; i++)
    if (A->v[i] && A->alias[i] < 0) PetscCall(ArrayRestore(A, i, r));
  for (PetscInt i = 0; i < A->n; i++) A->a[i] = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

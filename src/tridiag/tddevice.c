/*
   PPETridiag solves on a device back end.

   At the first solve after a set-up, the batch's coefficients, factors, lane arrays and a
   scratch for every line are copied to the device, where they stay until the next set-up.
   A solve copies the data in, runs each kernel over every line in two launches (the full
   groups of SZ lines, then the lines of the last group), one thread per line calling the
   single-source bodies the host runs, and copies the data out (PPETridiagSolveResident()
   takes data already on the device: PC fftptdma's pencils). The distributed methods move
   the boundary values of each line (2 per line) to the host between the reduction and the
   reconstruction, where the exchange and the reduced systems run as on the host.
*/
#include <ppekit/private/tridiagimpl.h>
#include <ppekit/private/backendimpl.h>

#define TD_SZ PPE_TRIDIAG_SZ

struct _n_PPETdDev {
  const PPEBackendOps *ops;
  void               *stream;
  PPETdArrays         arr;     /* device copies */
  PetscReal          *buf[14]; /* what to free */
  int                 nbuf;
  PetscReal          *d;       /* the data of solves of host arrays (made at the first one) */
  size_t              nd;      /* doubles of d */
};

#define DEVCALL(D, expr) PPEBackendCall((D)->ops, expr)

/* A device copy of n values of src (NULL stays NULL); zeros when src is NULL and zero is set. */
static PetscErrorCode DevCopy(struct _n_PPETdDev *D, const PetscReal *src, size_t n, PetscBool zero, PetscReal **dst)
{
  PetscFunctionBegin;
  *dst = NULL;
  if (!src && !zero) PetscFunctionReturn(PETSC_SUCCESS);
  DEVCALL(D, D->ops->alloc((void **)dst, PetscMax(n, 1) * sizeof(PetscReal)));
  D->buf[D->nbuf++] = *dst;
  if (src) DEVCALL(D, D->ops->copy(*dst, src, n * sizeof(PetscReal), PPE_DEV_H2D, D->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DeviceCreate(PPETridiag t)
{
  struct _n_PPETdDev *D;
  size_t              m = (size_t)t->m, nl = (size_t)t->ng * TD_SZ, pl = nl * m;
  size_t              lc = t->perline ? pl : m, lf = t->mode == PPE_TD_MODE_SHARED ? m : pl;
  PetscReal          *p;

  PetscFunctionBegin;
  PetscCall(PetscNew(&D));
  t->dev = D;
  PetscCall(PPEBackendGetOps(t->backend, &D->ops));
  DEVCALL(D, D->ops->stream_create(&D->stream));
  /* the read-only arrays, in this order: coefficients, weights, lanes, factors */
  {
    const PetscReal  *src[] = {t->a, t->ex, t->c, t->w, t->shift, t->mask, t->ip, t->q, t->al, t->be, t->last};
    const PetscReal **dst[] = {&D->arr.a, &D->arr.ex, &D->arr.c, &D->arr.w, &D->arr.shift, &D->arr.mask, &D->arr.ip, &D->arr.q, &D->arr.al, &D->arr.be, &D->arr.last};
    const size_t      len[] = {lc, lc, lc, m, nl, nl, lf, lf, lf, lf, nl};

    for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
      PetscCall(DevCopy(D, src[i], len[i], PETSC_FALSE, &p));
      *dst[i] = p;
    }
  }
  PetscCall(DevCopy(D, NULL, nl, PETSC_TRUE, &D->arr.rb0));
  PetscCall(DevCopy(D, NULL, nl, PETSC_TRUE, &D->arr.rb1));
  /* scratch of the fly kernels: 3 tiles covering every group */
  if (!t->precompute) PetscCall(DevCopy(D, NULL, 3 * pl, PETSC_TRUE, &D->arr.scr));
  D->arr.scrgroups = t->ng;
  DEVCALL(D, D->ops->sync(D->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPETridiagDeviceDestroy(PPETridiag t)
{
  struct _n_PPETdDev *D = t->dev;

  PetscFunctionBegin;
  if (!D) PetscFunctionReturn(PETSC_SUCCESS);
  DEVCALL(D, D->ops->sync(D->stream));
  for (int i = 0; i < D->nbuf; i++) DEVCALL(D, D->ops->release(D->buf[i]));
  if (D->d) DEVCALL(D, D->ops->release(D->d));
  DEVCALL(D, D->ops->stream_destroy(D->stream));
  PetscCall(PetscFree(t->dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kernel k over every line of the data dd (device): the full groups in one launch, the
   last group's lines in another. */
static PetscErrorCode DeviceKernel(PPETridiag t, PPETdKernel k, PetscScalar *dd, PetscBool packed)
{
  struct _n_PPETdDev *D     = t->dev;
  int                 nfull, rem = (int)(t->nsys % TD_SZ);
  PPETdArgs           x;

  PetscFunctionBegin;
  PetscCall(PetscCIntCast(t->nsys / TD_SZ, &nfull)); /* the launchers count groups in C ints */
  PPETridiagBlockArgs(t, &D->arr, dd, packed, 0, &x);
  if (nfull) {
    ppe_td_lanes R = {0, nfull, 0, TD_SZ};
    DEVCALL(D, D->ops->tridiag((int)k, t->precompute ? 0 : 1, R, t->m, &x, D->stream));
  }
  if (rem) {
    ppe_td_lanes R = {nfull, nfull + 1, 0, rem};
    DEVCALL(D, D->ops->tridiag((int)k, t->precompute ? 0 : 1, R, t->m, &x, D->stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solve on device data dd; the stream is synchronised at the end. */
static PetscErrorCode SolveOn(PPETridiag t, PetscScalar *dd, PetscBool packed)
{
  struct _n_PPETdDev *D  = t->dev;
  size_t              nl = (size_t)t->ng * TD_SZ;

  PetscFunctionBegin;
  if (t->used == PPE_TRIDIAG_THOMAS) {
    PetscCall(DeviceKernel(t, t->periodic ? PPE_TD_K_PTHOMAS : PPE_TD_K_THOMAS, dd, packed));
    DEVCALL(D, D->ops->sync(D->stream));
    PetscCall(PetscLogEventEnd(PPE_TridiagLocal, t, 0, 0, 0));
  } else {
    PetscCall(DeviceKernel(t, PPE_TD_K_REDUCE, dd, packed));
    DEVCALL(D, D->ops->copy(t->rb0, D->arr.rb0, nl * sizeof(PetscReal), PPE_DEV_D2H, D->stream));
    DEVCALL(D, D->ops->copy(t->rb1, D->arr.rb1, nl * sizeof(PetscReal), PPE_DEV_D2H, D->stream));
    DEVCALL(D, D->ops->sync(D->stream));
    PetscCall(PetscLogEventEnd(PPE_TridiagLocal, t, 0, 0, 0));
    PetscCall(PPETridiagExchange(t));
    PetscCall(PetscLogEventBegin(PPE_TridiagRecon, t, 0, 0, 0));
    DEVCALL(D, D->ops->copy(D->arr.rb0, t->rb0, nl * sizeof(PetscReal), PPE_DEV_H2D, D->stream));
    DEVCALL(D, D->ops->copy(D->arr.rb1, t->rb1, nl * sizeof(PetscReal), PPE_DEV_H2D, D->stream));
    PetscCall(DeviceKernel(t, PPE_TD_K_RECON, dd, packed));
    DEVCALL(D, D->ops->sync(D->stream));
    PetscCall(PetscLogEventEnd(PPE_TridiagRecon, t, 0, 0, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A solve of host data d: copied to the device and back. */
PetscErrorCode PPETridiagSolveDevice(PPETridiag t, PetscScalar d[], PetscBool packed)
{
  struct _n_PPETdDev *D;
  size_t              nd;

  PetscFunctionBegin;
  if (!t->dev) PetscCall(DeviceCreate(t));
  D  = t->dev;
  nd = packed ? (size_t)t->ng * t->m * TD_SZ : (t->nsys ? (size_t)(t->nsys - 1) * t->ls + (size_t)(t->m - 1) * t->ks + 1 : 0);
  if (nd > D->nd) { /* the packed and natural spans differ: room for the larger one asked so far */
    if (D->d) DEVCALL(D, D->ops->release(D->d));
    D->d = NULL;
    DEVCALL(D, D->ops->alloc((void **)&D->d, nd * sizeof(PetscReal)));
    D->nd = nd;
  }
  PetscCall(PetscLogEventBegin(PPE_TridiagLocal, t, 0, 0, 0));
  DEVCALL(D, D->ops->copy(D->d, d, nd * sizeof(PetscScalar), PPE_DEV_H2D, D->stream));
  PetscCall(SolveOn(t, D->d, packed));
  DEVCALL(D, D->ops->copy(d, D->d, nd * sizeof(PetscScalar), PPE_DEV_D2H, D->stream));
  DEVCALL(D, D->ops->sync(D->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPETridiagSolveResident - solves every line in place, data in the natural layout held in
   the memory of the batch's device back end (the device pipeline of PC fftptdma); the work
   queued on other streams on that data must have finished. Returns when the solution is
   there. Collective.
*/
PetscErrorCode PPETridiagSolveResident(PPETridiag t, PetscScalar dd[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(t, PPETRIDIAG_CLASSID, 1);
  PetscCall(PPETridiagSetUp(t));
  PetscCheck(t->backend != PPE_BACKEND_HOST, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "PPETridiagSolveResident() needs a device back end: this batch runs on the host");
  PetscCheck(dd || t->nsys == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null data array given to a tridiagonal solve");
  if (!t->dev) PetscCall(DeviceCreate(t));
  PetscCall(PetscLogEventBegin(PPE_TridiagSolve, t, 0, 0, 0));
  PetscCall(PetscLogEventBegin(PPE_TridiagLocal, t, 0, 0, 0));
  PetscCall(SolveOn(t, dd, PETSC_FALSE));
  t->nsolves++;
  PetscCall(PetscLogFlops(PPETdSolveFlops(t)));
  PetscCall(PetscLogEventEnd(PPE_TridiagSolve, t, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

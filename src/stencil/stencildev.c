/*
   The back-end side of MATPPESTENCIL: the box a back end works on, and one application of
   the operator run in phases on the host or on a device back end.

   Every application (MatMult, the rank-local block, the fused dot products, the fused
   Chebyshev step) is: start the halo exchange, compute the core points, finish the
   exchange, compute the surface points. PPEStencilRunWithHalo() runs that sequence, each
   step timed by its event; PPEStencilRunCore/RunSurface do the two computing phases. On the
   host they call the row loops of src/backend/host. On a device:

     core:    x (and the operands of a fused step) copied in, core launch, both queued on
              the stream, so the device computes the core while the host waits for the halo
              messages (the overlap of the exchange with the core of Ali et al. (2019),
              Table II);
     surface: the halo faces copied in, surface launch, the result copied out, wait.

   The operator's 1D tables stay on the device from set-up to destroy. Host vectors are
   copied in and out at each application. Device-resident vectors (devio: PETSc's device
   vectors, or PPEKit's device copies on Debian's PETSc, src/sys/devvec.c) are used in place:
   only the six boundary planes of the input cross to the host, for the halo exchange that
   MPI makes on host memory, and the received faces come back.

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of
     communication avoiding Chebyshev basis conjugate gradient solver for multiphase CFD
     simulations", ScalA workshop at SC19 (IEEE/ACM), 2019.
*/
#include <ppekit/private/stencilimpl.h>
#include <ppekit/private/backendimpl.h>
#include <kernels/krylov.h>
#include <backend/host/simd.h>

struct _n_PPEStencilDev {
  const PPEBackendOps *ops;
  void               *stream;
  ppe_dev_box         box;     /* with the device copies of the tables */
  double             *tab;     /* the 12 tables, N[0], N[1] or N[2] values each */
  double             *x, *y;   /* the input and output over the box */
  double             *halo;    /* the face buffers, laid out as on the host */
  size_t              hoff[6]; /* face offsets in halo */
  double             *b, *z, *dinv, *w, *u[2]; /* operands of fused steps, allocated when first used */
  double             *work;    /* reductions */
  size_t              n, nhalo;
  double             *planes;  /* device-resident input: its six boundary planes, packed */
  double             *hplanes; /* their host copy */
  double             *xh;      /* host array over the box holding them (the halo's source) */
  size_t              nplanes;
  PetscBool           halo_static;  /* the face buffers never change (set by the owner) */
  PetscBool           halo_on_dev;  /* and they are on the device already */
};

#define DEVCALL(d, expr) PPEBackendCall((d)->ops, expr)

/* Table of the box and its neighbours on this rank. */
PetscErrorCode PPEStencilBoxSetUp(PPEGrid grid, PPEStencilBox *B)
{
  PetscInt    s[3], m[3];
  ppe_s7_dir *dir[3] = {&B->X, &B->Y, &B->Z};

  PetscFunctionBegin;
  PetscCall(PetscArraycpy(s, grid->box.s, 3)); /* the kernels' 3D view of the grid's DMDA */
  PetscCall(PetscArraycpy(m, grid->box.m, 3));
  B->sigma = grid->shift;
  B->xs    = s[0];
  B->ys    = s[1];
  B->zs    = s[2];
  B->xm    = m[0];
  B->ym    = m[1];
  B->zm    = m[2];
  B->avx2  = PPEHostHasAVX2();
  for (int d = 0; d < 3; d++) {
    dir[d]->w       = grid->dir[d].w;
    dir[d]->tlo     = grid->dir[d].tlo;
    dir[d]->thi     = grid->dir[d].thi;
    dir[d]->d       = grid->dir[d].d;
    B->N[d]         = grid->N[d];
    B->per[d]       = (PetscBool)(grid->bc[2 * d] == PPE_BC_PERIODIC);
    B->nb[2 * d]    = (PetscBool)(s[d] > 0 || B->per[d]);
    B->nb[2 * d + 1] = (PetscBool)(s[d] + m[d] < grid->N[d] || B->per[d]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The diagonal of the operator on box B, in the order of the box (x fastest). */
void PPEStencilBoxDiagonal(const PPEStencilBox *B, PetscScalar *a)
{
  PetscInt l = 0;

  for (PetscInt k = B->zs; k < B->zs + B->zm; k++)
    for (PetscInt j = B->ys; j < B->ys + B->ym; j++)
      for (PetscInt i = B->xs; i < B->xs + B->xm; i++) a[l++] = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, i, j, k).c0;
}

static PetscErrorCode DevAlloc(PPEStencilDev d, double **p, size_t n)
{
  PetscFunctionBegin;
  if (!*p) DEVCALL(d, d->ops->alloc((void **)p, (n ? n : 1) * sizeof(double)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilDevCreate - device data of an application on box B, whose face buffers are
   faces (pointers into one host array hbase of nhalo values)
*/
PetscErrorCode PPEStencilDevCreate(PPEBackend backend, const PPEStencilBox *B, const PPEStencilHalo *faces, const double *hbase, size_t nhalo, PPEStencilDev *dev)
{
  PPEStencilDev    d;
  const ppe_s7_dir *dir[3] = {&B->X, &B->Y, &B->Z};
  ppe_s7_dir       *ddir[3];
  size_t            off = 0;

  PetscFunctionBegin;
  PetscCall(PetscNew(&d));
  PetscCall(PPEBackendGetOps(backend, &d->ops));
  d->n     = (size_t)B->xm * B->ym * B->zm;
  d->nhalo = nhalo;
  DEVCALL(d, d->ops->stream_create(&d->stream));
  d->box.sigma = B->sigma;
  d->box.xs    = B->xs;
  d->box.ys    = B->ys;
  d->box.zs    = B->zs;
  d->box.xm    = B->xm;
  d->box.ym    = B->ym;
  d->box.zm    = B->zm;
  for (int e = 0; e < 3; e++) {
    d->box.N[e]   = B->N[e];
    d->box.per[e] = B->per[e] ? 1 : 0;
  }
  for (int f = 0; f < 6; f++) {
    d->box.nb[f] = B->nb[f] ? 1 : 0;
    d->hoff[f]   = faces->f[f] ? (size_t)(faces->f[f] - hbase) : 0;
  }
  PetscCall(DevAlloc(d, &d->tab, 4 * (size_t)(B->N[0] + B->N[1] + B->N[2])));
  ddir[0] = &d->box.X;
  ddir[1] = &d->box.Y;
  ddir[2] = &d->box.Z;
  for (int e = 0; e < 3; e++) {
    const double *src[4] = {dir[e]->w, dir[e]->tlo, dir[e]->thi, dir[e]->d};
    size_t        n      = (size_t)B->N[e];
    for (int q = 0; q < 4; q++) DEVCALL(d, d->ops->copy(d->tab + off + q * n, src[q], n * sizeof(double), PPE_DEV_H2D, d->stream));
    ddir[e]->w   = d->tab + off;
    ddir[e]->tlo = d->tab + off + n;
    ddir[e]->thi = d->tab + off + 2 * n;
    ddir[e]->d   = d->tab + off + 3 * n;
    off += 4 * n;
  }
  PetscCall(DevAlloc(d, &d->x, d->n));
  PetscCall(DevAlloc(d, &d->y, d->n));
  PetscCall(DevAlloc(d, &d->halo, nhalo));
  DEVCALL(d, d->ops->sync(d->stream));
  *dev = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEStencilDevDestroy(PPEStencilDev *dev)
{
  PPEStencilDev d = *dev;
  double       *a[12];

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  a[0] = d->tab, a[1] = d->x, a[2] = d->y, a[3] = d->halo, a[4] = d->b, a[5] = d->z;
  a[6] = d->dinv, a[7] = d->w, a[8] = d->u[0], a[9] = d->u[1], a[10] = d->work, a[11] = d->planes;
  DEVCALL(d, d->ops->sync(d->stream));
  for (int i = 0; i < 12; i++)
    if (a[i]) DEVCALL(d, d->ops->release(a[i]));
  PetscCall(PetscFree(d->hplanes));
  PetscCall(PetscFree(d->xh));
  DEVCALL(d, d->ops->stream_destroy(d->stream));
  PetscCall(PetscFree(*dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DevIn(PPEStencilDev d, double **dst, const double *src)
{
  PetscFunctionBegin;
  PetscCall(DevAlloc(d, dst, d->n));
  DEVCALL(d, d->ops->copy(*dst, src, d->n * sizeof(double), PPE_DEV_H2D, d->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The fused step with its operands on the device (copied in by the core phase). */
static void DevCI(PPEStencilDev d, const PPEStencilCI *ci, ppe_dev_ci *c)
{
  c->rho     = ci->rho;
  c->rho_old = ci->rho_old;
  c->s2      = ci->s2;
  c->d2      = ci->d2;
  c->b       = d->b;
  c->z       = d->z;
  c->dinv    = ci->dinv ? d->dinv : NULL;
  c->w       = d->w;
}

static PetscErrorCode DevHalo(PPEStencilDev d, ppe_dev_halo *H)
{
  PetscFunctionBegin;
  for (int f = 0; f < 6; f++) H->f[f] = d->box.nb[f] ? d->halo + d->hoff[f] : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face buffers of an application never change (a rank-local block without periodic
   wrap on the rank: zeros): copied to the device once. */
void PPEStencilDevSetHaloStatic(PPEStencilDev d, PetscBool flg)
{
  d->halo_static = flg;
  if (!flg) d->halo_on_dev = PETSC_FALSE;
}

/*
   PPEStencilDevBoundary - the boundary planes of the device array xd on the faces of mask,
   copied to the host and written at their places in a host array over the box, returned in
   *xh (the other entries are zero or older planes): the source of the halo exchange and of
   the rank's own periodic wrap when the input lives on the device. Counted as halo traffic.
*/
PetscErrorCode PPEStencilDevBoundary(PPEStencilDev d, const double *xd, const PetscBool mask[6], const double **xh)
{
  long   xm = d->box.xm, ym = d->box.ym, zm = d->box.zm;
  long   arr[6]      = {0, 0, 0, xm, ym, zm};
  long   box[6][6]   = {
    {0,      0,      0,      1,  ym, zm},
    {xm - 1, 0,      0,      1,  ym, zm},
    {0,      0,      0,      xm, 1,  zm},
    {0,      ym - 1, 0,      xm, 1,  zm},
    {0,      0,      0,      xm, ym, 1 },
    {0,      0,      zm - 1, xm, ym, 1 }
  };
  size_t off = 0;

  PetscFunctionBegin;
  if (!d->planes) {
    d->nplanes = (size_t)(2 * (ym * zm + xm * zm + xm * ym));
    DEVCALL(d, d->ops->alloc((void **)&d->planes, d->nplanes * sizeof(double)));
    PetscCall(PetscMalloc1(d->nplanes, &d->hplanes));
    PetscCall(PetscCalloc1(d->n ? d->n : 1, &d->xh));
  }
  for (int f = 0; f < 6; f++) {
    if (!mask[f]) continue;
    DEVCALL(d, d->ops->tp_copy(xd, NULL, 0.0, arr, box[f], box[f], d->planes + off, d->stream));
    off += (size_t)(box[f][3] * box[f][4] * box[f][5]);
  }
  PPEDeviceCountHalo(PETSC_TRUE);
  DEVCALL(d, d->ops->copy(d->hplanes, d->planes, off * sizeof(double), PPE_DEV_D2H, d->stream));
  PPEDeviceCountHalo(PETSC_FALSE);
  DEVCALL(d, d->ops->sync(d->stream));
  off = 0;
  for (int f = 0; f < 6; f++) {
    const long *b = box[f];
    if (!mask[f]) continue;
    for (long k = 0; k < b[5]; k++)
      for (long j = 0; j < b[4]; j++)
        for (long i = 0; i < b[3]; i++) d->xh[((b[2] + k) * ym + (b[1] + j)) * xm + (b[0] + i)] = d->hplanes[off + (k * b[4] + j) * b[3] + i];
    off += (size_t)(b[3] * b[4] * b[5]);
  }
  *xh = d->xh;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device arrays of an application: its own (devio: the caller's device arrays) or the
   copies of the host arrays made by the core phase. */
static void DevArrays(const PPEStencilRun *R, PPEStencilDev d, const double **x, double **y, ppe_dev_ci *c)
{
  *x = R->devio ? R->x : d->x;
  *y = R->devio ? R->y : d->y;
  if (R->ci) {
    DevCI(d, R->ci, c);
    if (R->devio) {
      c->b    = R->ci->b;
      c->z    = R->ci->z;
      c->dinv = R->ci->dinv;
      c->w    = R->ci->w;
    }
  }
}

/*
   PPEStencilRunCore - the core points of one application: y = A x (dot: with the partial dot
   products; ci: the fused Chebyshev step into ci->w instead)
*/
PetscErrorCode PPEStencilRunCore(const PPEStencilRun *R)
{
  PetscFunctionBegin;
  if (!R->dev) {
    if (R->ci) PPEStencilApplyCI_Host(R->box, R->x, R->faces, PPE_STENCIL_CORE, R->ci);
    else if (R->dot) PPEStencilApplyDot_Host(R->box, R->x, R->faces, R->y, PPE_STENCIL_CORE, R->dot);
    else PPEStencilApply_Host(R->box, R->x, R->faces, R->y, PPE_STENCIL_CORE);
  } else {
    PPEStencilDev d = R->dev;
    ppe_dev_halo  H;
    ppe_dev_ci    c;
    const double *xd;
    double       *yd;

    if (!R->devio) {
      PetscCall(DevIn(d, &d->x, R->x));
      if (R->ci) {
        PetscCall(DevIn(d, &d->b, R->ci->b));
        PetscCall(DevIn(d, &d->z, R->ci->z));
        if (R->ci->dinv) PetscCall(DevIn(d, &d->dinv, R->ci->dinv));
        PetscCall(DevAlloc(d, &d->w, d->n));
      }
    }
    DevArrays(R, d, &xd, &yd, &c);
    PetscCall(DevHalo(d, &H));
    DEVCALL(d, d->ops->stencil(&d->box, xd, &H, yd, PPE_DEV_CORE, R->ci ? &c : NULL, d->stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEStencilRunSurface - the surface points; on a device also the result back to the host */
PetscErrorCode PPEStencilRunSurface(const PPEStencilRun *R)
{
  PetscFunctionBegin;
  if (!R->dev) {
    if (R->ci) PPEStencilApplyCI_Host(R->box, R->x, R->faces, PPE_STENCIL_SURFACE, R->ci);
    else if (R->dot) {
      PPEStencilApplyDot_Host(R->box, R->x, R->faces, R->y, PPE_STENCIL_SURFACE, R->dot);
      for (PetscInt q = 0; q < R->dot->n; q++) R->dot->s[q] = ppe_red_array((long)R->box->ym * R->box->zm, R->dot->rows[q]); /* the rows in the device's order */
    }
    else PPEStencilApply_Host(R->box, R->x, R->faces, R->y, PPE_STENCIL_SURFACE);
  } else {
    PPEStencilDev d = R->dev;
    ppe_dev_halo  H;
    ppe_dev_ci    c;
    const double *xd;
    double       *yd;

    if (d->nhalo && !(d->halo_static && d->halo_on_dev)) {
      if (R->devio) PPEDeviceCountHalo(PETSC_TRUE);
      DEVCALL(d, d->ops->copy(d->halo, R->hbase, d->nhalo * sizeof(double), PPE_DEV_H2D, d->stream));
      PPEDeviceCountHalo(PETSC_FALSE);
      d->halo_on_dev = d->halo_static;
    }
    PetscCall(DevHalo(d, &H));
    DevArrays(R, d, &xd, &yd, &c);
    DEVCALL(d, d->ops->stencil(&d->box, xd, &H, yd, PPE_DEV_SURFACE, R->ci ? &c : NULL, d->stream));
    if (R->dot && R->dot->n > 0) {
      const double *u[2] = {NULL, NULL};
      double        s[2] = {0.0, 0.0};

      for (PetscInt q = 0; q < R->dot->n; q++) {
        if (R->dot->u[q] == R->y) u[q] = yd;
        else if (R->dot->u[q] == R->x) u[q] = xd;
        else if (R->devio) u[q] = R->dot->u[q];
        else {
          PetscCall(DevIn(d, &d->u[q], R->dot->u[q]));
          u[q] = d->u[q];
        }
      }
      PetscCall(DevAlloc(d, &d->work, PPE_DEV_ROW_RED_WORK(d->box.ym * d->box.zm, 2)));
      DEVCALL(d, d->ops->stencil_dot(&d->box, (int)R->dot->n, yd, u[0], u[1], d->work, s, d->stream)); /* the host's order */
      for (PetscInt q = 0; q < R->dot->n; q++) R->dot->s[q] = s[q];
    }
    if (!R->devio) {
      if (R->ci) DEVCALL(d, d->ops->copy(R->ci->w, d->w, d->n * sizeof(double), PPE_DEV_D2H, d->stream));
      else DEVCALL(d, d->ops->copy(R->y, d->y, d->n * sizeof(double), PPE_DEV_D2H, d->stream));
    }
    DEVCALL(d, d->ops->sync(d->stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilRunSetUp - an application of the full operator (halo faces st->faces) on
   arrays xa -> ya, on the matrix's back end (its device data made at the first use)
*/
PetscErrorCode PPEStencilRunSetUp(Mat A, const double *xa, double *ya, PPEStencilRun *R)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  if (st->backend != PPE_BACKEND_HOST && !st->dev) PetscCall(PPEStencilDevCreate(st->backend, &st->box, &st->faces, st->halo, (size_t)st->nhalo, &st->dev));
  PetscCall(PetscMemzero(R, sizeof(*R)));
  R->box   = &st->box;
  R->dev   = st->dev;
  R->x     = xa;
  R->faces = &st->faces;
  R->hbase = st->halo;
  R->y     = ya;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Finish the halo exchange of x (a host array) started by PPEStencilRunWithHalo(), timed by PPEStencilHalo. */
static PetscErrorCode HaloEnd(Mat A, const double *x)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_StencilHalo, A, 0, 0, 0));
  PetscCall(PetscSFBcastEnd(st->sf, MPIU_SCALAR, x, st->halo, MPI_REPLACE));
  PetscCall(PetscLogEventEnd(PPE_StencilHalo, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilRunWithHalo - the application R of the full operator A (made by
   PPEStencilRunSetUp() on the input R->x) around the halo exchange of R->x: start the
   exchange, compute the core points, finish the exchange, compute the surface points. With
   overlap off the exchange is finished before the core points (same bits). Events:
   PPEStencilHalo (the wait for the exchange), PPEStencilCore, PPEStencilSurf.
*/
PetscErrorCode PPEStencilRunWithHalo(Mat A, const PPEStencilRun *R)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  const double   *xh = R->x; /* the source of the exchange, in host memory */

  PetscFunctionBegin;
  if (st->has_halo && R->devio) { /* the planes sent across the faces that have a neighbour */
    PetscBool mask[6];
    for (int f = 0; f < 6; f++) mask[f] = R->box->nb[f];
    PetscCall(PPEStencilDevBoundary(R->dev, R->x, mask, &xh));
  }
  if (st->has_halo) PetscCall(PetscSFBcastBegin(st->sf, MPIU_SCALAR, xh, st->halo, MPI_REPLACE));
  if (!st->overlap && st->has_halo) PetscCall(HaloEnd(A, xh));
  PetscCall(PetscLogEventBegin(PPE_StencilCore, A, 0, 0, 0));
  PetscCall(PPEStencilRunCore(R));
  PetscCall(PetscLogEventEnd(PPE_StencilCore, A, 0, 0, 0));
  if (st->overlap && st->has_halo) PetscCall(HaloEnd(A, xh));
  PetscCall(PetscLogEventBegin(PPE_StencilSurf, A, 0, 0, 0));
  PetscCall(PPEStencilRunSurface(R));
  PetscCall(PetscLogEventEnd(PPE_StencilSurf, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PC fftptdma on a device back end (-ppe_backend cuda|hip|emu): the pipeline of fftptdma.c
   with every array resident in device memory from the right-hand side to the result (their
   arrays in the back end's memory: a vector that lives there is read and written in place):

     DMDA -> x-pencils (box copies on the device, MPI through host buffers),
     x transforms (pre pass, the back end's batched complex FFT, post pass: src/kernels/fft.h),
     x -> y-pencils, y transforms, zero mean of the (0,0) line, z solve (PPETridiag's device
     kernels on the y-pencils in place, or on z-pencils after a transpose), and back.

   The device data (pencils, work of the transforms, plans) is made at set-up
   (PPEFFTPTDMASetUpDevice(), so that -log_view charges it to the set-up and the first
   application costs what the others do) and freed by the next set-up. The right-hand side
   and the result are read and written in the back end's memory (PPEArraysGet(): in place
   for vectors that live there, else staged through the back end's buffers).
*/
#include <ppekit/private/fftptdmaimpl.h>
#include <ppekit/private/tridiagimpl.h>

struct _n_PPEFFTDev {
  const PPEBackendOps *ops;
  void                *stream;
  PetscInt             nloc;         /* points of the DMDA's local array */
  double              *dx, *dy, *dz; /* pencils (dy = dx when P1 = 1; dz = dy unless z is transposed) */
  double              *rinv;         /* 1/rowscale on the DMDA's layout, or NULL */
  double              *z, *ends;     /* complex work of the transforms, ends of the lines */
  double              *send, *recv;  /* scratch of the transposes */
  double              *line;         /* the (0,0) z line (spectral zero mean) */
  double              *ones, *red;   /* x-pencil of ones and reduction work (zero mean in the copy back) */
  PetscScalar         *hline;        /* host copy of the line */
  void                *plan[2];      /* the complex DFT of each direction */
  ppe_fft_lines        F[2][2];      /* [direction][forward, backward] */
};

#define DEVCALL(D, expr) PPEBackendCall((D)->ops, expr)

static int KindOf(fftw_r2r_kind k)
{
  switch (k) {
  case FFTW_R2HC:
    return PPE_FFT_R2HC;
  case FFTW_HC2R:
    return PPE_FFT_HC2R;
  case FFTW_REDFT00:
    return PPE_FFT_REDFT00;
  case FFTW_REDFT01:
    return PPE_FFT_REDFT01;
  case FFTW_REDFT10:
    return PPE_FFT_REDFT10;
  case FFTW_REDFT11:
    return PPE_FFT_REDFT11;
  case FFTW_RODFT00:
    return PPE_FFT_RODFT00;
  case FFTW_RODFT01:
    return PPE_FFT_RODFT01;
  case FFTW_RODFT10:
    return PPE_FFT_RODFT10;
  case FFTW_RODFT11:
    return PPE_FFT_RODFT11;
  default:
    return -1;
  }
}

static PetscErrorCode DevAlloc(struct _n_PPEFFTDev *D, size_t n, double **p)
{
  PetscFunctionBegin;
  DEVCALL(D, D->ops->alloc((void **)p, PetscMax(n, (size_t)1) * sizeof(double)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device data of the pipeline: nothing when the transforms are FFTW's (the host back end,
   whose table has no batched transforms: fftsetup.c plans them). */
PetscErrorCode PPEFFTPTDMASetUpDevice(PPEFFTPTDMA *f)
{
  struct _n_PPEFFTDev *D;
  PetscInt             nx = f->xbox.n[0] * f->xbox.n[1] * f->xbox.n[2], ny = f->ybox.n[0] * f->ybox.n[1] * f->ybox.n[2];
  PetscInt             nz = f->zbox.n[0] * f->zbox.n[1] * f->zbox.n[2], scr;
  size_t               nc = 0, nl = 0;

  PetscFunctionBegin;
  if (f->fftw) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&D));
  f->dev      = D;
  f->pipeline = PPEFFTPTDMAApplyDevice;
  PetscCall(PPEBackendGetOps(f->backend, &D->ops));
  DEVCALL(D, D->ops->stream_create(&D->stream));
  D->nloc = f->dabox.n[0] * f->dabox.n[1] * f->dabox.n[2];
  PetscCall(DevAlloc(D, (size_t)nx, &D->dx));
  D->dy = D->dx;
  if (f->ybuf != f->xbuf) PetscCall(DevAlloc(D, (size_t)ny, &D->dy));
  D->dz = D->dy;
  if (f->zbuf != f->ybuf) PetscCall(DevAlloc(D, (size_t)nz, &D->dz));
  if (f->rinv) {
    const PetscScalar *r;

    PetscCall(DevAlloc(D, (size_t)D->nloc, &D->rinv));
    PetscCall(VecGetArrayRead(f->rinv, &r));
    DEVCALL(D, D->ops->copy(D->rinv, r, (size_t)D->nloc * sizeof(double), PPE_DEV_H2D, D->stream));
    DEVCALL(D, D->ops->sync(D->stream));
    PetscCall(VecRestoreArrayRead(f->rinv, &r));
  }
  scr = PPETransposeScratchSize(&f->tda);
  if (f->txy.abox) scr = PetscMax(scr, PPETransposeScratchSize(&f->txy));
  if (f->tyz.abox) scr = PetscMax(scr, PPETransposeScratchSize(&f->tyz));
  PetscCall(DevAlloc(D, (size_t)scr, &D->send));
  PetscCall(DevAlloc(D, (size_t)scr, &D->recv));
  for (int d = 0; d < 2; d++) {
    const PPEBox *b = d ? &f->ybox : &f->xbox; /* the pencil of the lines of direction d */
    long          n = (long)b->n[d], inner = d ? (long)b->n[0] : 1;
    long          lines = (long)PPEBoxSize(b) / n;
    int           kf = KindOf(f->kind[d].fwd), kb = KindOf(f->kind[d].bwd);

    if (n == 1) continue; /* a direction of one point (2D's y): the identity, no lines (Transform() skips it) */
    PetscCheck(kf >= 0 && kb >= 0 && !ppe_fft_setup(kf, n, inner, lines, &D->F[d][0]) && !ppe_fft_setup(kb, n, inner, lines, &D->F[d][1]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "No device transform for the %c kind %s on %ld points", "xy"[d],
               f -> kind[d].name, n);
    PetscCheck(D->F[d][0].L == D->F[d][1].L, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Forward and backward %c transforms of different lengths", "xy"[d]);
    nc = PetscMax(nc, (size_t)lines * (size_t)D->F[d][0].L * 2);
    nl = PetscMax(nl, (size_t)lines * 2);
  }
  PetscCall(DevAlloc(D, nc, &D->z));
  PetscCall(DevAlloc(D, nl, &D->ends));
  for (int d = 0; d < 2; d++)
    if (D->F[d][0].lines) DEVCALL(D, D->ops->fft_plan(D->F[d][0].L, D->F[d][0].lines, D->z, &D->plan[d], D->stream));
  if (f->singular) {
    PetscCall(DevAlloc(D, (size_t)f->ybox.n[2], &D->line));
    PetscCall(PetscMalloc1(PetscMax(f->ybox.n[2], 1), &D->hline));
    if (!f->specmean) {
      PetscScalar *one;

      PetscCall(DevAlloc(D, (size_t)nx, &D->ones));
      PetscCall(DevAlloc(D, PPE_DEV_RED_WORK(nx, 1), &D->red));
      PetscCall(PetscMalloc1(PetscMax(nx, 1), &one));
      for (PetscInt p = 0; p < nx; p++) one[p] = 1.0;
      DEVCALL(D, D->ops->copy(D->ones, one, (size_t)nx * sizeof(double), PPE_DEV_H2D, D->stream));
      DEVCALL(D, D->ops->sync(D->stream));
      PetscCall(PetscFree(one));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMADeviceDestroy(PPEFFTPTDMA *f)
{
  struct _n_PPEFFTDev *D = f->dev;

  PetscFunctionBegin;
  if (!D) PetscFunctionReturn(PETSC_SUCCESS);
  if (D->ops) {
    double *mem[] = {D->dx, D->dy != D->dx ? D->dy : NULL, D->dz != D->dy ? D->dz : NULL, D->rinv, D->z, D->ends, D->send, D->recv, D->line, D->ones, D->red}; /* dy, dz may alias dx, dy */

    for (int d = 0; d < 2; d++)
      if (D->plan[d]) DEVCALL(D, D->ops->fft_destroy(D->plan[d]));
    for (size_t q = 0; q < sizeof(mem) / sizeof(mem[0]); q++)
      if (mem[q]) DEVCALL(D, D->ops->release(mem[q]));
    if (D->stream) DEVCALL(D, D->ops->stream_destroy(D->stream));
  }
  PetscCall(PetscFree(D->hline));
  PetscCall(PetscFree(f->dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Transform s (0 forward, 1 backward) along direction d of the device pencil arr, in place. */
static PetscErrorCode Transform(PPEFFTPTDMA *f, int d, int s, double *arr, PetscLogEvent ev)
{
  struct _n_PPEFFTDev *D = f->dev;
  const ppe_fft_lines *F = &D->F[d][s];

  PetscFunctionBegin;
  if (!F->lines) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(ev, 0, 0, 0, 0));
  DEVCALL(D, D->ops->fft_pre(F, arr, D->z, D->ends, D->stream));
  DEVCALL(D, D->ops->fft_exec(D->plan[d], D->z, D->stream));
  DEVCALL(D, D->ops->fft_post(F, D->z, D->ends, arr, D->stream));
  DEVCALL(D, D->ops->sync(D->stream));
  PetscCall(PetscLogEventEnd(ev, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mean along z of the (kx,ky) = (0,0) line removed, among the z group of the ranks that
   hold it (ZeroMean of fftptdma.c, spectral case): the line comes to the host for its sum. */
static PetscErrorCode SpectralZeroMean(PPEFFTPTDMA *f)
{
  struct _n_PPEFFTDev *D      = f->dev;
  long                 arr[6] = {0, 0, 0, (long)f->ybox.n[0], (long)f->ybox.n[1], (long)f->ybox.n[2]}, box[6] = {0, 0, 0, 1, 1, (long)f->ybox.n[2]};
  PetscScalar          sum = 0;

  PetscFunctionBegin;
  if (f->ybox.lo[0] != 0) PetscFunctionReturn(PETSC_SUCCESS);
  DEVCALL(D, D->ops->tp_copy(D->dy, NULL, 0.0, arr, box, box, D->line, D->stream));
  DEVCALL(D, D->ops->copy(D->hline, D->line, (size_t)f->ybox.n[2] * sizeof(double), PPE_DEV_D2H, D->stream));
  DEVCALL(D, D->ops->sync(D->stream));
  for (PetscInt k = 0; k < f->ybox.n[2]; k++) sum += D->hline[k];
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_SCALAR, MPIU_SUM, f->zcomm));
  sum /= (PetscReal)f->N[2];
  DEVCALL(D, D->ops->tp_copy(D->dy, NULL, -sum, arr, box, arr, D->dy, D->stream));
  DEVCALL(D, D->ops->sync(D->stream)); /* before the z solve, which runs on the batch's stream */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = the fftptdma solution for the right-hand side rhs of the box (fftptdma.c's
   PPEFFTPTDMAApply has set up rhs and, for a box, x outside it): the DMDA's arrays in the back
   end's memory go straight into the transposes to and from the x-pencils. */
PetscErrorCode PPEFFTPTDMAApplyDevice(PPEFFTPTDMA *f, Vec rhs, Vec x)
{
  struct _n_PPEFFTDev *D      = f->dev;
  Vec                  v[2]   = {rhs, x};
  PPEAccess            acc[2] = {PPE_ACCESS_READ, f->box ? PPE_ACCESS_READWRITE : PPE_ACCESS_WRITE}; /* a box: x holds the values outside it */
  PPEArrays            K;
  PetscScalar          shift = 0;

  PetscFunctionBegin;
  PetscCall(PPEArraysGet(f->backend, 2, v, acc, PPE_ACCESS_READ, &K));
  PetscCall(PPETransposeDevice(&f->tda, PETSC_TRUE, D->ops, D->stream, D->send, D->recv, K.a[0], D->rinv, 0.0, D->dx));
  PetscCall(Transform(f, 0, 0, D->dx, PPE_FFTPTDMAFFTxFwd));
  if (f->P[0] > 1) PetscCall(PPETransposeDevice(&f->txy, PETSC_TRUE, D->ops, D->stream, D->send, D->recv, D->dx, NULL, 0.0, D->dy));
  PetscCall(Transform(f, 1, 0, D->dy, PPE_FFTPTDMAFFTyFwd));
  if (f->specproj) PetscCall(SpectralZeroMean(f));
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMAZSolve, 0, 0, 0, 0));
  if (D->dz != D->dy) {
    PetscCall(PPETransposeDevice(&f->tyz, PETSC_TRUE, D->ops, D->stream, D->send, D->recv, D->dy, NULL, 0.0, D->dz));
    PetscCall(PPETridiagSolveResident(f->td, D->dz));
    PetscCall(PPETransposeDevice(&f->tyz, PETSC_FALSE, D->ops, D->stream, D->send, D->recv, D->dz, NULL, 0.0, D->dy));
  } else PetscCall(PPETridiagSolveResident(f->td, D->dy));
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMAZSolve, 0, 0, 0, 0));
  if (f->specmean) PetscCall(SpectralZeroMean(f));
  PetscCall(Transform(f, 1, 1, D->dy, PPE_FFTPTDMAFFTyBwd));
  if (f->P[0] > 1) PetscCall(PPETransposeDevice(&f->txy, PETSC_FALSE, D->ops, D->stream, D->send, D->recv, D->dy, NULL, 0.0, D->dx));
  PetscCall(Transform(f, 0, 1, D->dx, PPE_FFTPTDMAFFTxBwd));
  if (f->singular && !f->specmean) { /* the mean of the result, removed in the copy back */
    PetscInt    nx = f->xbox.n[0] * f->xbox.n[1] * f->xbox.n[2];
    PetscScalar sum;

    DEVCALL(D, D->ops->dot((long)nx, 1, D->dx, D->ones, NULL, D->red, &sum, D->stream));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_SCALAR, MPIU_SUM, f->comm));
    shift = -sum / ((PetscReal)f->N[0] * f->N[1] * f->N[2]);
  }
  PetscCall(PPETransposeDevice(&f->tda, PETSC_FALSE, D->ops, D->stream, D->send, D->recv, D->dx, NULL, shift, K.a[1]));
  PetscCall(PPEArraysRestore(&K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

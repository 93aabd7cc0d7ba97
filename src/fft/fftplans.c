/*
   PC fftptdma's FFTW plans, made at set-up: the wisdom file, the choice between FFTW's r2r
   kinds and the fast DCT/DST (timed once when asked for), and the x, y (or 2D) plans of the
   pencils. Called by PPEFFTPTDMASetUp() (fftsetup.c).
*/
#include <ppekit/private/fftptdmaimpl.h>

/* FFTW's guru64 interface takes sizes and strides as ptrdiff_t: a pencil of more than 2^31
   values on one rank (possible with 64-bit PetscInt) plans without overflow. */
static fftw_iodim64 IODim(PetscInt n, PetscInt is, PetscInt os)
{
  fftw_iodim64 d;

  d.n  = (ptrdiff_t)n;
  d.is = (ptrdiff_t)is;
  d.os = (ptrdiff_t)os;
  return d;
}

/* Planning budget of the auto effort, seconds per local point: about two solves' worth on
   the machines of docs/benchmarks.md (a solve costs 6-10 ns per point on one core). */
#define PPE_FFT_AUTO_BUDGET 1.5e-8

/* Wisdom file: rank 0 reads it and every rank imports it (missing file: nothing imported). */
static PetscErrorCode ImportWisdom(PPEFFTPTDMA *f)
{
  char       *text = NULL;
  PetscInt    len  = -1;
  PetscMPIInt mlen;

  PetscFunctionBegin;
  f->wisdom[0] = f->wisdom[1] = -1;
  if (!f->wisdomfile[0]) PetscFunctionReturn(PETSC_SUCCESS);
  if (f->rank == 0) { /* len: -1 no file, -2 unreadable (raised on every rank below) */
    FILE *fp = fopen(f->wisdomfile, "r");
    long  n  = -1;

    if (fp) {
      if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        PetscCall(PetscMalloc1(n + 1, &text));
        if ((long)fread(text, 1, (size_t)n, fp) != n) n = -2;
        else text[n] = 0;
      } else n = -2;
      (void)fclose(fp);
    }
    len = (PetscInt)n;
  }
  PetscCallMPI(MPI_Bcast(&len, 1, MPIU_INT, 0, f->comm));
  PetscCheck(len != -2, f->comm, PETSC_ERR_FILE_READ, "%s: cannot read the FFTW wisdom file %s", PPEFFTPTDMAName(f), f->wisdomfile);
  f->wisdom[0] = 0;
  if (len < 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (f->rank) PetscCall(PetscMalloc1(len + 1, &text));
  PetscCall(PetscMPIIntCast(len + 1, &mlen));
  PetscCallMPI(MPI_Bcast(text, mlen, MPI_CHAR, 0, f->comm));
  f->wisdom[0] = fftw_import_wisdom_from_string(text) ? 1 : 0;
  PetscCall(PetscFree(text));
  PetscCheck(f->wisdom[0], f->comm, PETSC_ERR_FILE_UNEXPECTED, "%s: %s is not an FFTW wisdom file (fftw_import_wisdom_from_string failed); remove it or point %s elsewhere", PPEFFTPTDMAName(f), f->wisdomfile,
             PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_WISDOM));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank's wisdom (they plan different pencil sizes) gathered on rank 0, merged and written. */
static PetscErrorCode ExportWisdom(PPEFFTPTDMA *f)
{
  char       *mine, *all = NULL;
  PetscMPIInt n, *cnt = NULL, *dsp = NULL;
  PetscBool   ok = PETSC_FALSE;

  PetscFunctionBegin;
  if (!f->wisdomfile[0]) PetscFunctionReturn(PETSC_SUCCESS);
  mine = fftw_export_wisdom_to_string();
  PetscCheck(mine, PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not export its wisdom");
  PetscCall(PetscMPIIntCast((PetscInt)strlen(mine) + 1, &n));
  if (f->rank == 0) PetscCall(PetscMalloc2(f->size, &cnt, f->size + 1, &dsp));
  PetscCallMPI(MPI_Gather(&n, 1, MPI_INT, cnt, 1, MPI_INT, 0, f->comm));
  if (f->rank == 0) {
    dsp[0] = 0;
    for (PetscMPIInt r = 0; r < f->size; r++) dsp[r + 1] = dsp[r] + cnt[r];
    PetscCall(PetscMalloc1(dsp[f->size], &all));
  }
  PetscCallMPI(MPI_Gatherv(mine, n, MPI_CHAR, all, cnt, dsp, MPI_CHAR, 0, f->comm));
  free(mine);
  if (f->rank == 0) {
    FILE *fp;
    for (PetscMPIInt r = 1; r < f->size; r++) (void)fftw_import_wisdom_from_string(all + dsp[r]);
    fp = fopen(f->wisdomfile, "w");
    if (fp) {
      fftw_export_wisdom_to_file(fp);
      ok = (PetscBool)(fclose(fp) == 0);
    }
    PetscCall(PetscFree(all));
    PetscCall(PetscFree2(cnt, dsp));
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, PPE_MPI_BOOL, 0, f->comm)); /* an error on every rank, not on rank 0 alone */
  PetscCheck(ok, f->comm, PETSC_ERR_FILE_WRITE, "%s: cannot write the FFTW wisdom file %s", PPEFFTPTDMAName(f), f->wisdomfile);
  f->wisdom[1] = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A DCT-II/III or DST-II/III pair: the kinds the fast transforms replace (their DCT-IV path
   loses digits along long lines, so the IV kinds stay with FFTW). */
static PetscBool Fastable(const PPEFFT1dKind *k)
{
  fftw_r2r_kind ok[4] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01};
  PetscBool     f = PETSC_FALSE, b = PETSC_FALSE;

  for (int i = 0; i < 4; i++) {
    f = (PetscBool)(f || k->fwd == ok[i]);
    b = (PetscBool)(b || k->bwd == ok[i]);
  }
  return (PetscBool)(f && b);
}

PetscErrorCode PPEFFTPTDMADestroyFast(PPEFFTPTDMA *f)
{
  PetscFunctionBegin;
  for (int d = 0; d < 2; d++)
    for (int s = 0; s < 2; s++) PetscCall(PPEFastR2RDestroy(&f->fr[d][s]));
  f->fast[0] = f->fast[1] = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One forward pass, on the first kp planes, of the FFTW transforms (fast = FALSE) or of the
   fast ones where they exist (fast = TRUE; fr: fast objects made for kp planes), seconds;
   for the auto choice. */
static PetscErrorCode TimeForward(PPEFFTPTDMA *f, PetscBool fast, PPEFastR2R fr[2], PetscInt kp, PetscScalar *tmp, PetscLogDouble *t)
{
  PetscLogDouble t0, t1;
  PPEFFTBatch    bx = f->fxd[0].p[0] ? f->fxd[0] : f->fx[0], by = f->fy[0]; /* the plans the solves run, on kp planes */

  PetscFunctionBegin;
  bx.nplanes = by.nplanes = kp;
  PetscCall(PetscTime(&t0));
  if (fast && fr[0]) PetscCall(PPEFastR2RExecute(fr[0], f->xbuf, tmp));
  else PPEFFTBatchExecute(&bx, f->xbuf, f->fxd[0].p[0] ? tmp : f->xbuf);
  if (fast && fr[1]) PetscCall(PPEFastR2RExecute(fr[1], f->ybuf, f->sbuf));
  else if (!f->plan2d && !f->flat) PPEFFTBatchExecute(&by, f->ybuf, f->sbuf);
  PetscCall(PetscTime(&t1));
  *t = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The fast DCT/DST (src/fft/fastdct.c) for the directions whose pair is DCT-II/III or
   DST-II/III and that are not r2c: made for dct = fast, or made and timed
   against FFTW's kinds for auto (below; the faster kept). With 2D plans (py = 1) both directions must have a fast pair. x runs on the
   x-pencil layout (the Vec's, for the direct path), y on the y-pencil lines.
*/
static PetscErrorCode ChooseDCT(PPEFFTPTDMA *f, unsigned flags)
{
  PetscBool can[2];
  PetscInt  n0 = f->N[0], n1 = f->N[1], nyl = f->xbox.n[1], nzl = f->xbox.n[2], nxs = f->ybox.n[0], nloc = f->xbox.n[0] * nyl * nzl;

  PetscFunctionBegin;
  f->dct_s[0] = f->dct_s[1] = 0;
  can[0]                    = (PetscBool)(!f->cplx[0] && Fastable(&f->kind[0]));
  can[1]                    = (PetscBool)(!f->flat && !f->cplx[1] && !f->ydft && Fastable(&f->kind[1]));
  if (f->plan2d && !(can[0] && can[1])) can[0] = can[1] = PETSC_FALSE;
  if (f->dct == PPE_FFT_DCT_FFTW || !(can[0] || can[1])) PetscFunctionReturn(PETSC_SUCCESS);
  /* auto effort: the fast kinds' r2c/c2r plans are of one cache block each; a sixteenth of
     the transforms' planning budget per plan is enough */
  if (f->planner == PPE_FFT_PLANNER_AUTO) fftw_set_timelimit(PPE_FFT_AUTO_BUDGET * (double)nloc / 16.0);
  if (can[0]) {
    PetscInt loop[1][2] = {
      {nyl * nzl, n0}
    };
    PetscCall(PPEFastR2RCreate(f->kind[0].fwd, n0, 1, 1, loop, flags, &f->fr[0][0]));
    PetscCall(PPEFastR2RCreate(f->kind[0].bwd, n0, 1, 1, loop, flags, &f->fr[0][1]));
  }
  if (can[1]) {
    PetscInt loop[2][2] = {
      {nxs, 1       },
      {nzl, nxs * n1}
    };
    PetscCall(PPEFastR2RCreate(f->kind[1].fwd, n1, nxs, 2, loop, flags, &f->fr[1][0]));
    PetscCall(PPEFastR2RCreate(f->kind[1].bwd, n1, nxs, 2, loop, flags, &f->fr[1][1]));
  }
  if (f->dct == PPE_FFT_DCT_AUTO && f->planner != PPE_FFT_PLANNER_ESTIMATE) { /* estimate: nothing timed, fast kept (repeatable) */
    /* timed on kp of the nzl planes (at least 4, an eighth of a large pencil; the fast
       objects of kp planes reuse the plans just made), three alternating passes each, the
       best kept, scaled to the pencil */
    PetscInt       kp = PetscMin(nzl, PetscMax(4, nzl / 8));
    PetscLogDouble t = 0, best[2] = {PETSC_MAX_REAL, PETSC_MAX_REAL};
    PPEFastR2R     fr[2] = {NULL, NULL};
    PetscScalar   *tmp;

    if (can[0]) {
      PetscInt loop[1][2] = {
        {nyl * kp, n0}
      };
      PetscCall(PPEFastR2RCreate(f->kind[0].fwd, n0, 1, 1, loop, flags, &fr[0]));
    }
    if (can[1]) {
      PetscInt loop[2][2] = {
        {nxs, 1       },
        {kp,  nxs * n1}
      };
      PetscCall(PPEFastR2RCreate(f->kind[1].fwd, n1, nxs, 2, loop, flags, &fr[1]));
    }
    PetscCall(PetscCalloc1(nloc, &tmp)); /* aligned like a Vec's array (the direct plans') */
    PetscCall(PetscArrayzero(f->xbuf, nloc));
    for (int r = 0; r < 3; r++)
      for (int v = 0; v < 2; v++) {
        PetscCall(TimeForward(f, (PetscBool)v, fr, kp, tmp, &t));
        best[v] = PetscMin(best[v], t);
      }
    PetscCall(PetscFree(tmp));
    for (int d = 0; d < 2; d++) PetscCall(PPEFastR2RDestroy(&fr[d]));
    f->dct_s[0] = best[0] * nzl / kp;
    f->dct_s[1] = best[1] * nzl / kp;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, f->dct_s, 2, MPIU_PETSCLOGDOUBLE, MPI_MAX, f->comm)); /* every rank decides alike */
    if (f->dct_s[1] >= f->dct_s[0]) {
      PetscCall(PPEFFTPTDMADestroyFast(f));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  f->fast[0] = (PetscBool)(f->fr[0][0] != NULL);
  f->fast[1] = (PetscBool)(f->fr[1][0] != NULL);
  f->plan2d  = PETSC_FALSE; /* x and y apart (with 2D plans both are fast) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The transforms on the host, each a batch of one-plane plans (PPEFFTBatch):
     x: r2r kind on the nyl contiguous lines of an x-pencil plane, or r2c in place on lines
        padded to Ns[0] = 2 (nx/2 + 1) doubles (cplx[0]);
     y: r2r kind on the stride-nxs lines of a y-pencil plane (on the real and imaginary parts
        alike after an x r2c), a complex DFT of the half spectrum (ydft), or r2c from the real
        y-pencil to the spectral pencil (cplx[1]);
     x and y in one 2D plan per plane when the x-pencils hold whole planes (py = 1) and both
        directions are r2r kinds or both periodic (r2c/c2r): FFTW then picks the order and
        the buffering of the two passes itself.
   Planner effort. estimate, measure and patient apply to every plan. auto measures the plans
   the solves will run (the direct x plans when the x-pencils are the DMDA's boxes, else the
   in-place ones; the y plans) under FFTW's time limit, a share of PPE_FFT_AUTO_BUDGET times
   the local points each, and estimates the fallback plans: set-up then costs a few solves
   and the plans keep most of what measuring gains (docs/types/fftptdma-performance.md).
*/
PetscErrorCode PPEFFTPTDMACreatePlans(PPEFFTPTDMA *f)
{
  PPEFFTPlanner  pl    = f->planner;
  unsigned       flags = pl == PPE_FFT_PLANNER_ESTIMATE ? FFTW_ESTIMATE : (pl == PPE_FFT_PLANNER_PATIENT ? FFTW_PATIENT : FFTW_MEASURE);
  unsigned       fflags; /* flags of the fallback in-place x plans */
  PetscBool      direct = (PetscBool)(f->daaligned && !f->box);
  PetscInt       n0 = f->N[0], n1 = f->N[1], nyl = f->xbox.n[1], nzl = f->xbox.n[2], nxs = f->ybox.n[0], ns0 = f->Ns[0];
  PetscInt       xa   = f->xbox.n[0]; /* x-pencil line length in the array: n0, or ns0 padded for r2c */
  PetscInt       nloc = f->xbox.n[0] * f->xbox.n[1] * f->xbox.n[2];
  double        *xb = f->xbuf, *yb = f->ybuf, *sb = f->sbuf;
  fftw_r2r_kind  kf[2], kb[2];
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  f->planned = pl;
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMAPlan, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(ImportWisdom(f));
  if (!f->fftw) { /* the back end's table makes its own plans (fftdevice.c); the file is still read and written */
    PetscCall(ExportWisdom(f));
    PetscCall(PetscLogEventEnd(PPE_FFTPTDMAPlan, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  f->pipeline = PPEFFTPTDMAApplyFFTW;
  f->plan2d   = (PetscBool)(!f->flat && f->P[0] == 1 && (f->cplx[0] ? f->ydft : !f->cplx[1]));
  fflags      = flags;
  if (pl == PPE_FFT_PLANNER_AUTO) { /* the measured plans: 2D forward and backward, or x and y */
    fftw_set_timelimit(PPE_FFT_AUTO_BUDGET * (double)nloc / (f->plan2d ? 2.0 : 4.0));
    fflags = direct ? FFTW_ESTIMATE : FFTW_MEASURE;
  }
  kf[0] = f->kind[1].fwd; /* 2D plans: y outer, x inner */
  kf[1] = f->kind[0].fwd;
  kb[0] = f->kind[1].bwd;
  kb[1] = f->kind[0].bwd;
  if (f->plan2d) {
    if (f->cplx[0]) {
      fftw_iodim64 fw[2] = {IODim(n1, ns0, ns0 / 2), IODim(n0, 1, 1)}, bw[2] = {IODim(n1, ns0 / 2, ns0), IODim(n0, 1, 1)};
      PetscCall(PPEFFTBatchCreate(&f->fx[0], PPE_FFT_BATCH_R2C, 0, 2, fw, 0, NULL, NULL, nzl, ns0 * n1, ns0 * n1, xb, xb, fflags));
      PetscCall(PPEFFTBatchCreate(&f->fx[1], PPE_FFT_BATCH_C2R, 0, 2, bw, 0, NULL, NULL, nzl, ns0 * n1, ns0 * n1, xb, xb, fflags));
    } else {
      fftw_iodim64 d[2] = {IODim(n1, n0, n0), IODim(n0, 1, 1)};
      PetscCall(PPEFFTBatchCreate(&f->fx[0], PPE_FFT_BATCH_R2R, 0, 2, d, 0, NULL, kf, nzl, n0 * n1, n0 * n1, xb, xb, fflags));
      PetscCall(PPEFFTBatchCreate(&f->fx[1], PPE_FFT_BATCH_R2R, 0, 2, d, 0, NULL, kb, nzl, n0 * n1, n0 * n1, xb, xb, fflags));
    }
  } else {
    fftw_iodim64 xd = IODim(n0, 1, 1);
    if (f->cplx[0]) {
      fftw_iodim64 lf = IODim(nyl, ns0, ns0 / 2), lb = IODim(nyl, ns0 / 2, ns0);
      PetscCall(PPEFFTBatchCreate(&f->fx[0], PPE_FFT_BATCH_R2C, 0, 1, &xd, 1, &lf, NULL, nzl, ns0 * nyl, ns0 * nyl, xb, xb, fflags));
      PetscCall(PPEFFTBatchCreate(&f->fx[1], PPE_FFT_BATCH_C2R, 0, 1, &xd, 1, &lb, NULL, nzl, ns0 * nyl, ns0 * nyl, xb, xb, fflags));
    } else {
      fftw_iodim64 l = IODim(nyl, n0, n0);
      PetscCall(PPEFFTBatchCreate(&f->fx[0], PPE_FFT_BATCH_R2R, 0, 1, &xd, 1, &l, &f->kind[0].fwd, nzl, n0 * nyl, n0 * nyl, xb, xb, fflags));
      PetscCall(PPEFFTBatchCreate(&f->fx[1], PPE_FFT_BATCH_R2R, 0, 1, &xd, 1, &l, &f->kind[0].bwd, nzl, n0 * nyl, n0 * nyl, xb, xb, fflags));
    }
    if (f->flat) {        /* 2D: the y transform is the identity, no plan */
    } else if (f->ydft) { /* complex values: nxs / 2 of them per y line, strides in complex values */
      fftw_iodim64 yd = IODim(n1, nxs / 2, nxs / 2), l = IODim(nxs / 2, 1, 1);
      PetscCall(PPEFFTBatchCreate(&f->fy[0], PPE_FFT_BATCH_DFT, FFTW_FORWARD, 1, &yd, 1, &l, NULL, nzl, nxs * n1, nxs * n1, yb, yb, flags));
      PetscCall(PPEFFTBatchCreate(&f->fy[1], PPE_FFT_BATCH_DFT, FFTW_BACKWARD, 1, &yd, 1, &l, NULL, nzl, nxs * n1, nxs * n1, yb, yb, flags));
    } else if (f->cplx[1]) { /* real y-pencil (nxs x n1) <-> spectral pencil (nxs complex x n1/2 + 1) */
      fftw_iodim64 yd = IODim(n1, nxs, nxs), l = IODim(nxs, 1, 1);
      PetscInt     sp = 2 * nxs * f->Ns[1];
      PetscCall(PPEFFTBatchCreate(&f->fy[0], PPE_FFT_BATCH_R2C, 0, 1, &yd, 1, &l, NULL, nzl, nxs * n1, sp, yb, sb, flags));
      PetscCall(PPEFFTBatchCreate(&f->fy[1], PPE_FFT_BATCH_C2R, 0, 1, &yd, 1, &l, NULL, nzl, sp, nxs * n1, sb, yb, flags));
    } else {
      fftw_iodim64 yd = IODim(n1, nxs, nxs), l = IODim(nxs, 1, 1);
      PetscCall(PPEFFTBatchCreate(&f->fy[0], PPE_FFT_BATCH_R2R, 0, 1, &yd, 1, &l, &f->kind[1].fwd, nzl, nxs * n1, nxs * n1, yb, yb, flags));
      PetscCall(PPEFFTBatchCreate(&f->fy[1], PPE_FFT_BATCH_R2R, 0, 1, &yd, 1, &l, &f->kind[1].bwd, nzl, nxs * n1, nxs * n1, yb, yb, flags));
    }
  }
  /* When the x-pencils are the DMDA's boxes, the x (or 2D) transforms can read b's array and
     write x's array directly (out of place), which saves a copy each way; the forward plan
     must not touch its input (b). Planned on an array from PetscMalloc like a Vec's; an array
     of another alignment takes the in-place path with the copies. */
  if (direct) {
    PetscScalar *tmp;
    PetscInt     py = f->plan2d ? n1 : nyl, vp = n0 * py, bp = xa * py; /* lines per plane, plane sizes in the Vec and in xbuf */

    PetscCall(PetscMalloc1(vp * nzl, &tmp));
    if (f->cplx[0]) {
      fftw_iodim64 xd = IODim(n0, 1, 1), lf = IODim(py, n0, ns0 / 2), lb = IODim(py, ns0 / 2, n0);
      PetscCall(PPEFFTBatchCreate(&f->fxd[0], PPE_FFT_BATCH_R2C, 0, f->plan2d ? 2 : 1, f->plan2d ? (fftw_iodim64[]){lf, xd} : &xd, f->plan2d ? 0 : 1, &lf, NULL, nzl, vp, bp, tmp, xb, flags | FFTW_PRESERVE_INPUT));
      PetscCall(PPEFFTBatchCreate(&f->fxd[1], PPE_FFT_BATCH_C2R, 0, f->plan2d ? 2 : 1, f->plan2d ? (fftw_iodim64[]){lb, xd} : &xd, f->plan2d ? 0 : 1, &lb, NULL, nzl, bp, vp, xb, tmp, flags | FFTW_DESTROY_INPUT));
    } else {
      fftw_iodim64 xd = IODim(n0, 1, 1), l = IODim(py, n0, n0);
      if (f->plan2d) {
        fftw_iodim64 d[2] = {l, xd};
        PetscCall(PPEFFTBatchCreate(&f->fxd[0], PPE_FFT_BATCH_R2R, 0, 2, d, 0, NULL, kf, nzl, vp, bp, tmp, xb, flags | FFTW_PRESERVE_INPUT));
        PetscCall(PPEFFTBatchCreate(&f->fxd[1], PPE_FFT_BATCH_R2R, 0, 2, d, 0, NULL, kb, nzl, bp, vp, xb, tmp, flags | FFTW_DESTROY_INPUT));
      } else {
        PetscCall(PPEFFTBatchCreate(&f->fxd[0], PPE_FFT_BATCH_R2R, 0, 1, &xd, 1, &l, &f->kind[0].fwd, nzl, vp, bp, tmp, xb, flags | FFTW_PRESERVE_INPUT));
        PetscCall(PPEFFTBatchCreate(&f->fxd[1], PPE_FFT_BATCH_R2R, 0, 1, &xd, 1, &l, &f->kind[0].bwd, nzl, bp, vp, xb, tmp, flags | FFTW_DESTROY_INPUT));
      }
    }
    f->xalign = fftw_alignment_of(tmp);
    PetscCall(PetscFree(tmp));
  }
  PetscCall(ChooseDCT(f, pl == PPE_FFT_PLANNER_ESTIMATE ? FFTW_ESTIMATE : flags));
  if (pl == PPE_FFT_PLANNER_AUTO) fftw_set_timelimit(FFTW_NO_TIMELIMIT);
  PetscCall(ExportWisdom(f));
  PetscCall(PetscTime(&t1));
  f->plan_s = t1 - t0;
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMAPlan, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Application of the FFT + tridiagonal pressure solver on pencils (set up by fftsetup.c):

     rhs   = b - A xout on the box rows (identity-row Dirichlet nodes outside the box:
             xout = b / idiag there), divided by the row scale
     DMDA -> x-pencils, FFT x, x -> y-pencils, FFT y,
     z: one tridiagonal system per (kx,ky) line, in place across the z group (P-TDMA,
        Diez, Peeters and Costa (2025) sec. 2.2.3, or DistD2, Akkurt et al. (2025)) or on
        z-pencils after a transpose (Thomas, the full-transpose method of Diez, Peeters and
        Costa (2025) sec. 2.2.2),
     singular operators: the zero mode was pinned; the mean of the result is removed (on the
        (0,0) z line for periodic/cell-Neumann transforms, else in the copy back),
     inverse FFT y, y -> x-pencils, inverse FFT x, x-pencils -> DMDA (xout outside the box).
   When the x-pencils are the DMDA's boxes, the x transforms read b's array and write x's
   directly, and a row scale that depends on z only is folded into the z systems: the two
   copies between the DMDA and the x-pencils are then skipped (a row scale that varies in x
   or y is divided in the forward copy).

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025.
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (arXiv:2411.13532).
*/
#include <ppekit/private/fftptdmaimpl.h>

/* The x (or, with 2D plans, x and y) transform s (0 forward, 1 backward) from in to out: the
   fast DCT/DST when chosen, else the direct plan (Vec array <-> xbuf) or the in-place one. */
static PetscErrorCode TransformX(PPEFFTPTDMA *f, int s, PetscBool direct, const PetscScalar *in, PetscScalar *out)
{
  PetscLogEvent ev = f->plan2d ? (s ? PPE_FFTPTDMAFFTxyBwd : PPE_FFTPTDMAFFTxyFwd) : (s ? PPE_FFTPTDMAFFTxBwd : PPE_FFTPTDMAFFTxFwd);

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(ev, 0, 0, 0, 0));
  if (f->fast[0]) PetscCall(PPEFastR2RExecute(f->fr[0][s], in, out));
  else PPEFFTBatchExecute(direct ? &f->fxd[s] : &f->fx[s], in, out);
  PetscCall(PetscLogEventEnd(ev, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The y transform s between the y-pencil and the spectral pencil (none with 2D plans). */
static PetscErrorCode TransformY(PPEFFTPTDMA *f, int s)
{
  PetscLogEvent ev = s ? PPE_FFTPTDMAFFTyBwd : PPE_FFTPTDMAFFTyFwd;
  PetscScalar  *in = s ? f->sbuf : f->ybuf, *out = s ? f->ybuf : f->sbuf;

  PetscFunctionBegin;
  if (f->plan2d || f->flat) PetscFunctionReturn(PETSC_SUCCESS); /* 2D: the identity */
  PetscCall(PetscLogEventBegin(ev, 0, 0, 0, 0));
  if (f->fast[1]) PetscCall(PPEFastR2RExecute(f->fr[1][s], in, out));
  else PPEFFTBatchExecute(&f->fy[s], in, out);
  PetscCall(PetscLogEventEnd(ev, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the direct x transforms can run on a Vec array: planned (the x-pencils are the
   DMDA's boxes) and of the planned alignment, unless the fast passes run (they copy). */
static PetscBool DirectOK(PPEFFTPTDMA *f, int s, const PetscScalar *a)
{
  return (PetscBool)(f->fxd[s].p[0] && (f->fast[0] || fftw_alignment_of((double *)a) == f->xalign));
}

/* Right-hand side -> x-pencils, transformed along x: straight from b's array when the
   x-pencils are the DMDA's boxes and nothing is to be divided out, else through a copy. */
static PetscErrorCode ForwardX(PPEFFTPTDMA *f, Vec rhs)
{
  const PetscScalar *ra;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(rhs, &ra));
  if (!f->rinv && DirectOK(f, 0, ra)) {
    PetscCall(TransformX(f, 0, PETSC_TRUE, ra, f->xbuf));
    f->direct[0]++;
  } else {
    if (f->rinv) {
      const PetscScalar *sa;
      PetscCall(VecGetArrayRead(f->rinv, &sa));
      PetscCall(PPETransposeForwardScaled(&f->tda, ra, sa, f->xbuf)); /* (sigma + Lx + Ly + Lz) u = rhs / rowscale */
      PetscCall(VecRestoreArrayRead(f->rinv, &sa));
    } else PetscCall(PPETransposeForward(&f->tda, ra, f->xbuf));
    PetscCall(TransformX(f, 0, PETSC_FALSE, f->xbuf, f->xbuf));
  }
  PetscCall(VecRestoreArrayRead(rhs, &ra));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Singular operators: the result is to have zero mean. With periodic and cell-Neumann
   transforms only the (kx,ky) = (0,0) line contributes to the sum of the result (as nx ny
   times its values), so its mean along z is removed there, among the z group of the ranks
   that hold it; else the mean is returned in *shift, to be removed in the copy back. The
   same spectral removal applied to the transformed b before the z solve removes b's mean. */
static PetscErrorCode ZeroMean(PPEFFTPTDMA *f, PetscBool spectral, PetscScalar *shift)
{
  PetscScalar sum = 0;

  PetscFunctionBegin;
  *shift = 0;
  if (!f->singular) PetscFunctionReturn(PETSC_SUCCESS);
  if (spectral) {
    if (f->sbox.lo[0] == 0) { /* sbox.lo[1] = 0 always: this rank holds a z block of the line */
      PetscInt stride = f->sbox.n[0] * f->sbox.n[1];
      for (PetscInt k = 0; k < f->sbox.n[2]; k++) sum += f->sbuf[stride * k];
      PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_SCALAR, MPIU_SUM, f->zcomm));
      sum /= (PetscReal)f->N[2];
      for (PetscInt k = 0; k < f->sbox.n[2]; k++) f->sbuf[stride * k] -= sum;
    }
  } else { /* the data of the x-pencil: lines of xdata.n[0] values in rows of xbox.n[0] (r2c padding) */
    PetscInt nrow = f->xbox.n[1] * f->xbox.n[2];
    for (PetscInt r = 0; r < nrow; r++)
      for (PetscInt i = 0; i < f->xdata.n[0]; i++) sum += f->xbuf[r * f->xbox.n[0] + i];
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_SCALAR, MPIU_SUM, f->comm));
    *shift = -sum / ((PetscReal)f->N[0] * f->N[1] * f->N[2]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The FFTW pipeline (the host back end): x = the solution for rhs (x already holds the
   values outside a box). */
PetscErrorCode PPEFFTPTDMAApplyFFTW(PPEFFTPTDMA *f, Vec rhs, Vec x)
{
  PetscScalar *xa, shift = 0;
  PetscBool    xdirect;

  PetscFunctionBegin;
  PetscCall(ForwardX(f, rhs));
  if (f->P[0] > 1) PetscCall(PPETransposeForward(&f->txy, f->xbuf, f->ybuf));
  PetscCall(TransformY(f, 0));
  if (f->specproj) PetscCall(ZeroMean(f, PETSC_TRUE, &shift)); /* b's mean: A^+ b, zero mean, for any b */
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMAZSolve, 0, 0, 0, 0));
  if (f->zbuf != f->sbuf) {
    PetscCall(PPETransposeForward(&f->tyz, f->sbuf, f->zbuf));
    PetscCall(PPETridiagSolve(f->td, f->zbuf));
    PetscCall(PPETransposeBackward(&f->tyz, f->zbuf, f->sbuf));
  } else PetscCall(PPETridiagSolve(f->td, f->sbuf));
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMAZSolve, 0, 0, 0, 0));
  if (f->specmean) PetscCall(ZeroMean(f, PETSC_TRUE, &shift));
  PetscCall(TransformY(f, 1));
  if (f->P[0] > 1) PetscCall(PPETransposeBackward(&f->txy, f->ybuf, f->xbuf));
  /* x backward straight into x's array when it is the x-pencil (no box, mean already removed) */
  PetscCall(VecGetArray(x, &xa));
  xdirect = (PetscBool)((!f->singular || f->specmean) && DirectOK(f, 1, xa));
  if (xdirect) {
    PetscCall(TransformX(f, 1, PETSC_TRUE, f->xbuf, xa));
    f->direct[1]++;
  } else {
    PetscCall(TransformX(f, 1, PETSC_FALSE, f->xbuf, f->xbuf));
    if (!f->specmean) PetscCall(ZeroMean(f, PETSC_FALSE, &shift));
    PetscCall(PPETransposeBackwardShifted(&f->tda, f->xbuf, shift, xa));
  }
  PetscCall(VecRestoreArray(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A box smaller than the DMDA: xout = b / idiag on the identity rows outside it (0 inside),
   and the box's right-hand side f->work = b - A xout (the coupling to the outside moved). */
static PetscErrorCode BoxRightHandSide(PPEFFTPTDMA *f, const PPESeparable *sep, Mat A, Vec b)
{
  const PetscScalar *ba, *id;
  PetscScalar       *xo;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(b, &n));
  PetscCall(VecGetArrayRead(b, &ba));
  PetscCall(VecGetArrayRead(sep->idiag, &id));
  PetscCall(VecGetArrayWrite(f->xout, &xo));
  for (PetscInt p = 0; p < n; p++) xo[p] = id[p] != 0.0 ? ba[p] / id[p] : 0.0; /* the identity rows */
  PetscCall(VecRestoreArrayWrite(f->xout, &xo));
  PetscCall(VecRestoreArrayRead(sep->idiag, &id));
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(MatMult(A, f->xout, f->work)); /* coupling of every row to the outside values */
  PetscCall(VecAYPX(f->work, -1.0, b));    /* box rows: b - A_box,out xout */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = the solution for b: the box's right-hand side, then the pipeline of the back end chosen
   at set-up (FFTW's plans on the host, or the back end's batched transforms: fftdevice.c). */
PetscErrorCode PPEFFTPTDMAApply(PPEFFTPTDMA *f, const PPESeparable *sep, Mat A, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMAApply, 0, 0, 0, 0));
  if (f->box) {
    PetscCall(BoxRightHandSide(f, sep, A, b));
    PetscCall(VecCopy(f->xout, x)); /* outside the box; the box is overwritten by the pipeline */
  }
  PetscCall(f->pipeline(f, f->box ? f->work : b, x));
  f->solves++;
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMAApply, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   x = M^-1 b with M = c S, the symmetric form of an approximate description
   (PPESeparableSymmetricScaling(): the solver f set up for S = W U, that is with the row
   scaling W; cinv = 1/c):

       M^-1 = c^-1 S^-1      nonsingular S
       M^-1 = c^-1 S^+       singular S (constant null space): the pseudo-inverse

   both symmetric for every b and positive definite (off the constants when singular; the
   result then has zero mean, as the exact solver's). The solver gives S^+ when it removes b's
   mean on the (kx,ky) = (0,0) line itself (f->specproj); else b's mean is removed here first
   (S^-1 of the pinned zero mode is S^+ on a consistent right-hand side). With a box (identity
   rows outside it) the coupling of the box to them is moved to the right-hand side first, and
   the values outside are b / idiag as in PPEFFTPTDMAApply(). w: a work vector of the DMDA.
*/
PetscErrorCode PPEFFTPTDMAApplyScaled(PPEFFTPTDMA *f, const PPESeparable *sep, Mat A, PetscReal cinv, Vec w, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMAApply, 0, 0, 0, 0));
  if (f->box) { /* never singular: the identity rows are Dirichlet nodes */
    PetscCall(BoxRightHandSide(f, sep, A, b));
    PetscCall(VecScale(f->work, cinv)); /* 0 on the identity rows */
    PetscCall(VecCopy(f->xout, x));
    PetscCall(f->pipeline(f, f->work, x));
  } else {
    Vec rhs = b;
    if (f->singular && !f->specproj) { /* P b: consistent for S */
      PetscScalar sum;
      PetscInt    N;
      PetscCall(VecSum(b, &sum));
      PetscCall(VecGetSize(b, &N));
      PetscCall(VecCopy(b, w));
      PetscCall(VecShift(w, -sum / (PetscReal)N));
      rhs = w;
    }
    PetscCall(f->pipeline(f, rhs, x)); /* S^-1, or S^+ */
    PetscCall(VecScale(x, cinv));
  }
  f->solves++;
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMAApply, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Bytes this rank handed to MPI for other ranks: counted (cumulative since set-up) and the
   model of one solve, for [0] DMDA <-> x-pencils, [1] x <-> y transposes, [2] the z solve
   (the reduced systems of P-TDMA/DistD2, or the y <-> z transposes).
*/
PetscErrorCode PPEFFTPTDMAGetCommCounts(PPEFFTPTDMA *f, PetscLogDouble counted[3], PetscLogDouble model[3])
{
  PetscInt       solves;
  PetscLogDouble bytes, msgs, mb, mm;

  PetscFunctionBegin;
  PetscCall(PPETridiagGetCommCounts(f->td, &solves, &bytes, &msgs));
  PetscCall(PPETridiagGetCommModel(f->td, &mb, &mm));
  if (counted) {
    counted[0] = f->tda.bytes;
    counted[1] = f->txy.bytes;
    counted[2] = (f->zbuf != f->sbuf) ? f->tyz.bytes : bytes - f->zbytes0;
  }
  if (model) {
    model[0] = f->tda.fbytes + f->tda.bbytes;
    model[1] = f->txy.fbytes + f->txy.bbytes;
    model[2] = (f->zbuf != f->sbuf) ? f->tyz.fbytes + f->tyz.bbytes : mb;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The transforms of the view: their kinds (complex spectra only where FFTW's r2c/c2r run),
   and for FFTW's plans the passes and the DCT/DST choice. */
static PetscErrorCode ViewTransforms(PPEFFTPTDMA *f, PetscViewer viewer)
{
  const char *r2c = "real DFT r2c/c2r, complex half spectrum", *xn = f->kind[0].name, *yn = f->kind[1].name;
  const int   ntr = f->flat ? 1 : 2; /* the transformed directions: x, and y of a 3D box */

  PetscFunctionBegin;
  if (f->cplx[0]) xn = r2c;
  if (f->cplx[1]) yn = r2c;
  if (f->ydft) yn = "complex DFT of x's half spectrum";
  if (ntr == 1) PetscCall(PetscViewerASCIIPrintf(viewer, "2D: x transforms (%s), tridiagonal solve along y (the last direction of the nx x 1 x ny box; no transform along its one-point middle)\n", xn));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "transforms: x %s, y %s%s\n", xn, yn, f->cplx[0] && !f->ydft ? " (on the real and imaginary parts)" : ""));
  if (!f->fftw) PetscFunctionReturn(PETSC_SUCCESS);
  if (ntr == 2) PetscCall(PetscViewerASCIIPrintf(viewer, "transform passes: %s\n", f->plan2d ? "one 2D FFTW plan per x-y plane (the x-pencils hold whole planes)" : "x lines per x-pencil plane, then y lines per y-pencil plane"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "DCT/DST (%s %s):", PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_DCT), PPEFFTDCTs[f->dct]));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  for (int d = 0; d < ntr; d++) PetscCall(PetscViewerASCIIPrintf(viewer, "%s %c %s", d ? "," : "", "xy"[d], f -> fast[d] ? "fast (reorder + r2c/c2r + twiddle)" : "FFTW"));
  if (f->dct_s[0] > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "; timed at set-up: FFTW %.3g ms, fast %.3g ms per forward pass", 1e3 * f->dct_s[0], 1e3 * f->dct_s[1]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMAView(PPEFFTPTDMA *f, PetscViewer viewer)
{
  PetscInt       nth, npt, nd2;
  PetscLogDouble cnt[3], mod[3], tot[3];
  const char    *zm[] = {"P-TDMA in place across the z group", "transpose to z-pencils, local Thomas", "DistD2 in place across the z group", "auto: in place, DistD2 where exact and P-TDMA elsewhere (Thomas when pz = 1)"};

  PetscFunctionBegin;
  PetscCall(ViewTransforms(f, viewer));
  PetscCall(
    PetscViewerASCIIPrintf(viewer, "pencil grid: py x pz = %" PetscInt_FMT " x %" PetscInt_FMT " (%s)\n", f->P[0], f->P[1], f->pauto ? "automatic: the DMDA's pz kept where z blocks have >= 2 points" : PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_PGRID)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "pencils of rank 0: x %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", y %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "%s\n", f->xbox.n[0], f->xbox.n[1], f->xbox.n[2], f->ybox.n[0],
                                   f->ybox.n[1], f->ybox.n[2], f->daaligned ? "; x-pencils are the DMDA's boxes (no redistribution)" : ""));
  if (!f->fftw) PetscCall(PetscViewerASCIIPrintf(viewer, "copies DMDA <-> x-pencils: box copies on the device (%" PetscInt_FMT " applications on rank 0)\n", f->solves));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "copies DMDA <-> x-pencils: %s (forward direct in %" PetscInt_FMT ", backward in %" PetscInt_FMT " of %" PetscInt_FMT " applications on rank 0)\n",
                                     f->fxd[0].p[0] ? "x (or 2D) transforms read b's array and write x's array directly where the arrays' alignment allows" : "copied (the x-pencils are not the DMDA's boxes, or the box is smaller than the DMDA)",
                                     f->direct[0], f->direct[1], f->solves));
  PetscCall(PetscViewerASCIIPrintf(viewer, "row scale: %s\n", f->wz ? "depends on z only, folded into the z systems" : f->rinv ? "varies in x or y, divided in the copy to the x-pencils" : "none"));
  if (f->singular) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "zero mean: %s\n", f->specmean ? "removed on the (kx,ky) = (0,0) z line after the z solve (one reduction over its z group)" : "removed in the copy back (one reduction over all ranks)"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "singular right-hand side: %s\n",
                                     f->specproj ? "its mean removed on the (0,0) z line before the z solve: the result is A^+ b for any b"
                                                 : "must be consistent (the operator is not symmetric in the transformed sense: attach the null space so that KSP projects b)"));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "z solve: %s\n", zm[f->zsolve]));
  PetscCall(PPETridiagGetLineMethods(f->td, &nth, &npt, &nd2));
  PetscCall(PetscViewerASCIIPrintf(viewer, "z lines of rank 0: %" PetscInt_FMT " Thomas, %" PetscInt_FMT " P-TDMA, %" PetscInt_FMT " DistD2%s\n", nth, npt, nd2, f->singular ? "; zero mode pinned, result with zero mean" : ""));
  PetscCall(PPEFFTPTDMAGetCommCounts(f, cnt, mod));
  PetscCall(MPIU_Allreduce(mod, tot, 3, MPIU_PETSCLOGDOUBLE, MPI_SUM, f->comm));
  PetscCall(PetscViewerASCIIPrintf(viewer, "bytes per solve to other ranks (all ranks): redistribution %.0f, x-y transposes %.0f, z %.0f\n", tot[0], tot[1], tot[2]));
  if (f->fftw) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "FFTW planner: %s%s, planning %.3g s on rank 0 (one-plane plans run on every plane)\n", PPEFFTPlanners[f->planned],
                                     f->planner == PPE_FFT_PLANNER_AUTO ? " (FFTW_MEASURE under a time limit of about two solves on the plans the solves run, FFTW_ESTIMATE on the fallback plans)" : "", (double)f->plan_s));
    if (f->wisdomfile[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "FFTW wisdom file: %s (%s at set-up, %s)\n", f->wisdomfile, f->wisdom[0] == 1 ? "imported" : "not found", f->wisdom[1] == 1 ? "written back" : "not written"));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "device transforms: pre pass, %s batched complex DFT, post pass (src/kernels/fft.h); pencils resident on the device\n",
                                     f->backend == PPE_BACKEND_CUDA  ? "cuFFT"
                                     : f->backend == PPE_BACKEND_HIP ? "VkFFT"
                                                                     : "FFTW (emulation)"));
  PetscCall(PPEBackendView(f->backend, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

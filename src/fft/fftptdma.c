/*
   Application of the FFT + tridiagonal pressure solver on pencils (set up by fftsetup.c):

     rhs   = b - A xout on the box rows (identity-row Dirichlet nodes outside the box:
             xout = b / idiag there), divided by the row scale
     DMDA -> x-pencils, FFT x, x -> y-pencils, FFT y,
     z: one tridiagonal system per (kx,ky) line, in place across the z group (P-TDMA or
        DistD2, paper 000 sec. 2.2.3) or on z-pencils after a transpose (Thomas, the
        full-transpose method of paper 000 sec. 2.2.2),
     inverse FFT y, y -> x-pencils, inverse FFT x, x-pencils -> DMDA (xout outside the box),
     singular operators: the zero mode was pinned, the mean of the result is removed.
*/
#include <ppekit/private/fftptdmaimpl.h>

static PetscErrorCode Execute(fftw_plan p, PetscLogEvent ev)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(ev, 0, 0, 0, 0));
  fftw_execute(p);
  PetscCall(PetscLogEventEnd(ev, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMAApply(PPEFFTPTDMA *f, const PPESeparable *sep, Mat A, Vec b, Vec x)
{
  Vec                rhs = b;
  const PetscScalar *ra;
  PetscScalar       *xa, shift = 0.0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMAApply, 0, 0, 0, 0));
  if (f->box) {
    const PetscScalar *ba, *id;
    PetscScalar       *xo;
    PetscInt           n;

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
    rhs = f->work;
  }
  PetscCall(VecGetArrayRead(rhs, &ra));
  if (f->rinv) {
    const PetscScalar *sa;
    PetscCall(VecGetArrayRead(f->rinv, &sa));
    PetscCall(PPETransposeForwardScaled(&f->tda, ra, sa, f->xbuf)); /* (sigma + Lx + Ly + Lz) u = rhs / rowscale */
    PetscCall(VecRestoreArrayRead(f->rinv, &sa));
  } else PetscCall(PPETransposeForward(&f->tda, ra, f->xbuf));
  PetscCall(VecRestoreArrayRead(rhs, &ra));
  PetscCall(Execute(f->plan[0][0], PPE_FFTPTDMAFFTxFwd));
  if (f->P[0] > 1) PetscCall(PPETransposeForward(&f->txy, f->xbuf, f->ybuf));
  PetscCall(Execute(f->plan[1][0], PPE_FFTPTDMAFFTyFwd));
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMAZSolve, 0, 0, 0, 0));
  if (f->zbuf != f->ybuf) {
    PetscCall(PPETransposeForward(&f->tyz, f->ybuf, f->zbuf));
    PetscCall(PPETridiagSolve(f->td, f->zbuf));
    PetscCall(PPETransposeBackward(&f->tyz, f->zbuf, f->ybuf));
  } else PetscCall(PPETridiagSolve(f->td, f->ybuf));
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMAZSolve, 0, 0, 0, 0));
  PetscCall(Execute(f->plan[1][1], PPE_FFTPTDMAFFTyBwd));
  if (f->P[0] > 1) PetscCall(PPETransposeBackward(&f->txy, f->ybuf, f->xbuf));
  PetscCall(Execute(f->plan[0][1], PPE_FFTPTDMAFFTxBwd));
  if (f->singular) { /* zero mean: the component in the null space, removed while copying back */
    PetscInt    nloc = f->xbox[3] * f->xbox[4] * f->xbox[5];
    PetscScalar sum  = 0;
    for (PetscInt p = 0; p < nloc; p++) sum += f->xbuf[p];
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_SCALAR, MPIU_SUM, f->comm));
    shift = -sum / ((PetscReal)f->N[0] * f->N[1] * f->N[2]);
  }
  if (f->box) PetscCall(VecCopy(f->xout, x)); /* outside the box; the box is overwritten next */
  PetscCall(VecGetArray(x, &xa));
  PetscCall(PPETransposeBackwardShifted(&f->tda, f->xbuf, shift, xa));
  PetscCall(VecRestoreArray(x, &xa));
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
    counted[2] = (f->zbuf != f->ybuf) ? f->tyz.bytes : bytes - f->zbytes0;
  }
  if (model) {
    model[0] = f->tda.fbytes + f->tda.bbytes;
    model[1] = f->txy.fbytes + f->txy.bbytes;
    model[2] = (f->zbuf != f->ybuf) ? f->tyz.fbytes + f->tyz.bbytes : mb;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMAView(PPEFFTPTDMA *f, PetscViewer viewer)
{
  PetscInt       nth, npt, nd2;
  PetscLogDouble cnt[3], mod[3], tot[3];
  const char    *zm[] = {"P-TDMA in place across the z group", "transpose to z-pencils, local Thomas", "DistD2 in place across the z group", "auto: in place, DistD2 where exact and P-TDMA elsewhere (Thomas when pz = 1)"};

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "transforms: x %s, y %s\n", f->kind[0].name, f->kind[1].name));
  PetscCall(PetscViewerASCIIPrintf(viewer, "pencil grid: py x pz = %" PetscInt_FMT " x %" PetscInt_FMT " (%s)\n", f->P[0], f->P[1], f->pauto ? "automatic: the DMDA's pz kept where z blocks have >= 2 points" : "-pc_fftptdma_pgrid"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "pencils of rank 0: x %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", y %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "%s\n", f->xbox[3], f->xbox[4], f->xbox[5], f->ybox[3], f->ybox[4], f->ybox[5], f->daaligned ? "; x-pencils are the DMDA's boxes (no redistribution)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "z solve: %s\n", zm[f->zsolve]));
  PetscCall(PPETridiagGetLineMethods(f->td, &nth, &npt, &nd2));
  PetscCall(PetscViewerASCIIPrintf(viewer, "z lines of rank 0: %" PetscInt_FMT " Thomas, %" PetscInt_FMT " P-TDMA, %" PetscInt_FMT " DistD2%s\n", nth, npt, nd2, f->singular ? "; zero mode pinned, result with zero mean" : ""));
  PetscCall(PPEFFTPTDMAGetCommCounts(f, cnt, mod));
  PetscCall(MPIU_Allreduce(mod, tot, 3, MPIU_PETSCLOGDOUBLE, MPI_SUM, f->comm));
  PetscCall(PetscViewerASCIIPrintf(viewer, "bytes per solve to other ranks (all ranks): redistribution %.0f, x-y transposes %.0f, z %.0f\n", tot[0], tot[1], tot[2]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "FFTW planner: %s\n", PCFFTPTDMAPlanners[f->planner]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

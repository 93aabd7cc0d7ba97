/*
   1D real transforms that diagonalise the unit second-difference matrix K of a direction
   (docs/conventions.md, include/ppekit/private/separableimpl.h), one FFTW r2r pair per
   location and boundary-condition pair.

   The backward transform's columns are eigenvectors of K, so forward(K x) = Lambda
   forward(x) and backward(forward(x)) = norm x. The eigenvalue of output slot k is
   PPEGridEigenvalues1d()[k] for every kind:
     - DCT/DST kinds put wavenumber k in slot k;
     - the periodic R2HC (halfcomplex) puts the cosine of wavenumber s in slot s <= n/2 and
       the sine of wavenumber n - s in slot s > n/2, and 4 sin^2(pi s/n) = 4 sin^2(pi (n-s)/n),
       so the wavenumber-ordered table is already in slot order (Diez, Peeters and Costa
       (2025), Appendix A, reorder the eigenvalues of their packed layout the same way).
   Test t401 checks forward K backward = norm Lambda against the dense K for every kind.

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025.
*/
#include <ppekit/private/fftptdmaimpl.h>

/*
   PPEFFT1dGetKind - the FFTW kinds for a location and BC pair

     location  pair      eigenvectors of K                  forward / backward       norm
     any       periodic  cos, sin(2 pi k i / n)              R2HC / HC2R (DFT)        n
     cell      N-N       cos(pi k (i+1/2) / n)               REDFT10 / REDFT01        2n
     cell      D-D       sin(pi (k+1) (i+1/2) / n)           RODFT10 / RODFT01        2n
     cell      N-D       cos(pi (k+1/2) (i+1/2) / n)         REDFT11 / REDFT11        2n
     cell      D-N       sin(pi (k+1/2) (i+1/2) / n)         RODFT11 / RODFT11        2n
     vertex    N-N       cos(pi k i / (n-1))                 REDFT00 / REDFT00        2(n-1)
     vertex    D-D       sin(pi (k+1) (i+1) / (n+1))         RODFT00 / RODFT00        2(n+1)
     vertex    N-D       cos(pi (k+1/2) i / n)               REDFT01 / REDFT10        2n
     vertex    D-N       sin(pi (k+1/2) (i+1) / n)           RODFT01 / RODFT10        2n
*/
PetscErrorCode PPEFFT1dGetKind(PPELocation loc, PPEBCType lo, PPEBCType hi, PetscInt n, PPEFFT1dKind *k)
{
  PetscBool cell = (PetscBool)(loc == PPE_LOCATION_CELL);

  PetscFunctionBegin;
  PetscCheck((lo == PPE_BC_PERIODIC) == (hi == PPE_BC_PERIODIC), PETSC_COMM_SELF, PETSC_ERR_SUP, "BC pair %s-%s is not supported: periodic needs both faces of a direction (supported: periodic-periodic, and any pair of neumann and dirichlet)",
             PPEBCTypes[lo], PPEBCTypes[hi]);
  PetscCheck(n >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A transform needs at least 2 points, got %" PetscInt_FMT, n);
  if (lo == PPE_BC_PERIODIC) {
    k->fwd  = FFTW_R2HC;
    k->bwd  = FFTW_HC2R;
    k->norm = n;
    k->name = "real DFT, halfcomplex (R2HC/HC2R)";
  } else if (lo == PPE_BC_NEUMANN && hi == PPE_BC_NEUMANN) {
    k->fwd  = cell ? FFTW_REDFT10 : FFTW_REDFT00;
    k->bwd  = cell ? FFTW_REDFT01 : FFTW_REDFT00;
    k->norm = cell ? 2.0 * n : 2.0 * (n - 1);
    k->name = cell ? "DCT-II/DCT-III (REDFT10/REDFT01)" : "DCT-I (REDFT00)";
  } else if (lo == PPE_BC_DIRICHLET && hi == PPE_BC_DIRICHLET) {
    k->fwd  = cell ? FFTW_RODFT10 : FFTW_RODFT00;
    k->bwd  = cell ? FFTW_RODFT01 : FFTW_RODFT00;
    k->norm = cell ? 2.0 * n : 2.0 * (n + 1);
    k->name = cell ? "DST-II/DST-III (RODFT10/RODFT01)" : "DST-I (RODFT00)";
  } else if (lo == PPE_BC_NEUMANN) {
    k->fwd  = cell ? FFTW_REDFT11 : FFTW_REDFT01;
    k->bwd  = cell ? FFTW_REDFT11 : FFTW_REDFT10;
    k->norm = 2.0 * n;
    k->name = cell ? "DCT-IV (REDFT11)" : "DCT-III/DCT-II (REDFT01/REDFT10)";
  } else {
    k->fwd  = cell ? FFTW_RODFT11 : FFTW_RODFT01;
    k->bwd  = cell ? FFTW_RODFT11 : FFTW_RODFT10;
    k->norm = 2.0 * n;
    k->name = cell ? "DST-IV (RODFT11)" : "DST-III/DST-II (RODFT01/RODFT10)";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEFFT1dEigenvalues - the eigenvalues of c K in the output order of PPEFFT1dGetKind()'s
   forward transform (see the comment at the top of the file)
*/
PetscErrorCode PPEFFT1dEigenvalues(PPELocation loc, PPEBCType lo, PPEBCType hi, PetscInt n, PetscReal c, PetscReal lam[])
{
  PetscFunctionBegin;
  PetscCall(PPEGridEigenvalues1d(loc, lo, hi, n, 1.0, lam));
  for (PetscInt k = 0; k < n; k++) lam[k] *= c;
  /* exact zero for the constant mode (sin(0) is 0 already; kept explicit for the pinning test) */
  if (lo != PPE_BC_DIRICHLET && hi != PPE_BC_DIRICHLET) lam[0] = 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEFFTBatchCreate - plans a transform of one plane, run on every plane of a pencil

   Input Parameters:
+  type - PPE_FFT_BATCH_R2R, _R2C, _C2R or _DFT
.  sign - FFTW_FORWARD or FFTW_BACKWARD (DFT only)
.  rank, dims - the transform's dimensions (FFTW guru64: strides in doubles for real arrays,
                in complex values for complex ones)
.  hrank, hdims - the loops of one plane over the transform (same units)
.  kinds - the r2r kinds, one per dimension (R2R only)
.  nplanes - planes of an execution
.  is, os - plane strides of the input and the output, in doubles
.  in, out - arrays to plan on (overwritten unless the effort is estimate): at least two planes
             when a plane stride is odd
-  flags - FFTW planner flags

   The planes run in order with fftw_execute_*(); a second plan of the other alignment is made
   when a plane stride is odd, so that every plane meets its plan's alignment.
*/
PetscErrorCode PPEFFTBatchCreate(PPEFFTBatch *b, PPEFFTBatchType type, int sign, int rank, const fftw_iodim64 dims[], int hrank, const fftw_iodim64 hdims[], const fftw_r2r_kind kinds[], PetscInt nplanes, ptrdiff_t is, ptrdiff_t os, double *in,
                                 double *out, unsigned flags)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(b, sizeof(*b)));
  b->type    = type;
  b->nplanes = nplanes;
  b->is      = is;
  b->os      = os;
  for (int q = 0; q < ((is % 2 || os % 2) && nplanes > 1 ? 2 : 1); q++) {
    double *i = in + q * is, *o = out + q * os;

    switch (type) {
    case PPE_FFT_BATCH_R2R:
      b->p[q] = fftw_plan_guru64_r2r(rank, dims, hrank, hdims, i, o, kinds, flags);
      break;
    case PPE_FFT_BATCH_R2C:
      b->p[q] = fftw_plan_guru64_dft_r2c(rank, dims, hrank, hdims, i, (fftw_complex *)o, flags);
      break;
    case PPE_FFT_BATCH_C2R:
      b->p[q] = fftw_plan_guru64_dft_c2r(rank, dims, hrank, hdims, (fftw_complex *)i, o, flags);
      break;
    case PPE_FFT_BATCH_DFT:
      b->p[q] = fftw_plan_guru64_dft(rank, dims, hrank, hdims, (fftw_complex *)i, (fftw_complex *)o, sign, flags);
      break;
    }
    PetscCheck(b->p[q], PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan a transform batch (type %d, rank %d, %" PetscInt_FMT " planes)", (int)type, rank, nplanes);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEFFTBatchExecute - runs a batch on the arrays in and out (same alignment as planned). */
void PPEFFTBatchExecute(const PPEFFTBatch *b, const double *in, double *out)
{
  for (PetscInt k = 0; k < b->nplanes; k++) {
    fftw_plan p = b->p[b->p[1] ? k % 2 : 0];
    double   *i = (double *)in + k * b->is, *o = out + k * b->os;

    switch (b->type) {
    case PPE_FFT_BATCH_R2R:
      fftw_execute_r2r(p, i, o);
      break;
    case PPE_FFT_BATCH_R2C:
      fftw_execute_dft_r2c(p, i, (fftw_complex *)o);
      break;
    case PPE_FFT_BATCH_C2R:
      fftw_execute_dft_c2r(p, (fftw_complex *)i, o);
      break;
    case PPE_FFT_BATCH_DFT:
      fftw_execute_dft(p, (fftw_complex *)i, (fftw_complex *)o);
      break;
    }
  }
}

/* PPEFFTBatchDestroy - destroys the plans of a batch (nothing to do for an empty one) */
void PPEFFTBatchDestroy(PPEFFTBatch *b)
{
  for (int q = 0; q < 2; q++)
    if (b->p[q]) fftw_destroy_plan(b->p[q]);
  b->p[0] = b->p[1] = NULL;
}

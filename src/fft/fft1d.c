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
       so the wavenumber-ordered table is already in slot order (paper 000, Appendix A
       reorders the eigenvalues of its packed layout the same way).
   Test t401 checks forward K backward = norm Lambda against the dense K for every kind.
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
  PetscCheck((lo == PPE_BC_PERIODIC) == (hi == PPE_BC_PERIODIC), PETSC_COMM_SELF, PETSC_ERR_SUP, "BC pair %s-%s is not supported: periodic needs both faces of a direction (supported: periodic-periodic, and any pair of neumann and dirichlet)", PPEBCTypes[lo], PPEBCTypes[hi]);
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

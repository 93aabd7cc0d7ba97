/*
   The Chebyshev iteration as a fixed-degree solve (Pennati et al. (2025), Algorithm 2; its
   distributed form, Algorithm 4).

   Method:
     For P x = b with the eigenvalues of P in [alpha, beta], 0 < alpha < beta, and
     theta = (beta + alpha)/2, delta = (beta - alpha)/2, sigma = theta/delta (eq. 15):

       rho_old = 1/sigma,  rho = 1/(2 sigma - rho_old)
       z = b/theta
       y = (2 rho/delta) (2 b - P b/theta)                       (1 application of P)
       for i = 2..its:  rho_old = rho, rho = 1/(2 sigma - rho_old)
                        w = rho (2 sigma y + (2/delta)(b - P y) - rho_old z)
                        z = y, y = w
       x = y

     so x = p(P) b with p of degree its-1, the polynomial whose residual 1 - lambda p(lambda)
     is T_its((theta - lambda)/delta) / T_its(sigma): the smallest on [alpha, beta] of its
     degree. No inner product is formed, so the map b -> x is linear and fixed: the same b
     gives the same x, bit for bit, and the iteration needs no global reduction.

     P = D^-1 A with D a positive diagonal (the grid's volume weights W, whose D^-1 A is the
     operator of Pennati et al., or I). Then x = p(D^-1 A) D^-1 b, and p(D^-1 A) D^-1 = D^-1 p(A D^-1)
     is symmetric when A is: the preconditioner also serves CG.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025,
     sec. III.A and III.B (see docs/types/chebyci.md);
     Y. Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., SIAM 2003, sec. 12.3.
*/
#include <ppekit/private/chebyciimpl.h>
#include <ppekit/private/backendimpl.h>
#include <kernels/chebyci.h>

/* The interval [alpha, beta] and the constants of eq. 15. */
PetscErrorCode PPEChebyCISetInterval(PPEChebyCI *ci, PetscReal alpha, PetscReal beta)
{
  PetscFunctionBegin;
  PetscCheck(alpha > 0 && beta > alpha && PetscIsNormalReal(alpha) && PetscIsNormalReal(beta), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev interval must satisfy 0 < alpha < beta, got [%g, %g]", (double)alpha, (double)beta);
  ci->alpha = alpha;
  ci->beta  = beta;
  ci->theta = 0.5 * (beta + alpha);
  ci->delta = 0.5 * (beta - alpha);
  ci->sigma = ci->theta / ci->delta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEChebyCISetUpWork(PPEChebyCI *ci, Vec v)
{
  PetscFunctionBegin;
  for (int i = 0; i < 5; i++)
    if (!ci->work[i]) PetscCall(VecDuplicate(v, &ci->work[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEChebyCIReset(PPEChebyCI *ci)
{
  PetscFunctionBegin;
  for (int i = 0; i < 5; i++) PetscCall(VecDestroy(&ci->work[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The vector steps of the iteration (src/kernels/chebyci.h) on host arrays or, with dev set,
   on the device arrays of device-resident vectors (ci->devb: its launchers, finished before
   the next operator application). dinv may be NULL (D = I).
*/

/* bw = D b */
static PetscErrorCode Scale(PPEChebyCI *ci, PetscBool dev, const PPEBackendOps *ops, void *stream, PetscInt n, Vec b, Vec bw)
{
  Vec       v[3]   = {ci->dinv, b, bw};
  PPEAccess acc[3] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE};
  double   *a[3]   = {NULL, NULL, NULL};

  PetscFunctionBegin;
  PetscCall(PPEVecArrays(dev, 3, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  if (dev) {
    PPEBackendCall(ops, ops->ci_scale((long)n, a[0], a[1], a[2], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else ppe_ci_scale(n, a[0], a[1], a[2]);
  PetscCall(PPEVecArrays(dev, 3, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  PetscCall(PetscLogFlops(n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelCI1: z and y from b and t = A b */
static PetscErrorCode First(PPEChebyCI *ci, PetscBool dev, const PPEBackendOps *ops, void *stream, PetscInt n, PetscReal c1, Vec b, Vec t, Vec z, Vec y)
{
  Vec       v[5]   = {ci->dinv, b, t, z, y};
  PPEAccess acc[5] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE, PPE_ACCESS_WRITE};
  double   *a[5]   = {NULL, NULL, NULL, NULL, NULL};

  PetscFunctionBegin;
  PetscCall(PPEVecArrays(dev, 5, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  if (dev) {
    PPEBackendCall(ops, ops->ci_first((long)n, ci->theta, c1, a[0], a[1], a[2], a[3], a[4], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else ppe_ci_first(n, ci->theta, c1, a[0], a[1], a[2], a[3], a[4]);
  PetscCall(PPEVecArrays(dev, 5, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  PetscCall(PetscLogFlops((ci->dinv ? 6.0 : 5.0) * n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelCI2 with t = A y: w from b, t, y, z */
static PetscErrorCode Step(PPEChebyCI *ci, PetscBool dev, const PPEBackendOps *ops, void *stream, PetscInt n, PetscReal rho, PetscReal rho_old, Vec b, Vec t, Vec y, Vec z, Vec w)
{
  Vec       v[6]   = {ci->dinv, b, t, y, z, w};
  PPEAccess acc[6] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE};
  double   *a[6]   = {NULL, NULL, NULL, NULL, NULL, NULL};
  PetscReal s2 = 2.0 * ci->sigma, d2 = 2.0 / ci->delta;

  PetscFunctionBegin;
  PetscCall(PPEVecArrays(dev, 6, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  if (dev) {
    PPEBackendCall(ops, ops->ci_step((long)n, rho, rho_old, s2, d2, a[0], a[1], a[2], a[3], a[4], a[5], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else ppe_ci_step(n, rho, rho_old, s2, d2, a[0], a[1], a[2], a[3], a[4], a[5]);
  PetscCall(PPEVecArrays(dev, 6, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   x = p(P) D^-1 b, its applications of A. The last iterate is written straight into x;
   the vectors rotate by pointer (Algorithm 4, "swap pointers"). With device-resident b and
   x (ci->devb) the same steps run on the device arrays, with the same bits and no copy; the
   operator callbacks then apply A to device arrays too.
*/
PetscErrorCode PPEChebyCISolve(PPEChebyCI *ci, Vec b, Vec x)
{
  Vec                 bw, t = ci->work[1], z = ci->work[2], y = ci->work[3], w = ci->work[4];
  PetscReal           rho_old, rho;
  PetscInt            n;
  PetscBool           dev    = PETSC_FALSE;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;

  PetscFunctionBegin;
  PetscCheck(ci->its >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev iteration needs its >= 1, got %" PetscInt_FMT, ci->its);
  PetscCheck(ci->work[0], PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call PPEChebyCISetUpWork() first");
  PetscCheck(b != x, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "Chebyshev iteration: input and output must be different vectors");
  if (ci->devb != PPE_BACKEND_HOST) { /* device-resident b and x: the work vectors follow them */
    Vec        v[8] = {b, x, ci->work[0], ci->work[1], ci->work[2], ci->work[3], ci->work[4], ci->dinv};
    PPEBackend be;
    PetscCall(PPEVecDevAllOn(8, v, &be));
    dev = (PetscBool)(be == ci->devb);
    if (dev) PetscCall(PPEDevVecStream(ci->devb, &ops, &stream));
  }
  PetscCall(VecGetLocalSize(b, &n));
  if (ci->dinv) {
    bw = ci->work[0];
    PetscCall(Scale(ci, dev, ops, stream, n, b, bw));
  } else bw = b;

  /* KernelCI1 */
  rho_old = 1.0 / ci->sigma;
  rho     = 1.0 / (2.0 * ci->sigma - rho_old);
  PetscCall((*ci->op)(ci->opctx, bw, t));
  if (ci->its == 1) y = x;
  PetscCall(First(ci, dev, ops, stream, n, 2.0 * rho / ci->delta, bw, t, z, y));

  /* KernelCI2 */
  for (PetscInt i = 2; i <= ci->its; i++) {
    Vec out = (i == ci->its) ? x : w;

    rho_old = rho;
    rho     = 1.0 / (2.0 * ci->sigma - rho_old);
    if (ci->step) { /* the operator and KernelCI2 in one sweep, t never stored */
      PetscCall((*ci->step)(ci->stepctx, y, bw, z, ci->dinv, rho, rho_old, 2.0 * ci->sigma, 2.0 / ci->delta, out));
    } else {
      PetscCall((*ci->op)(ci->opctx, y, t));
      PetscCall(Step(ci, dev, ops, stream, n, rho, rho_old, bw, t, y, z, out));
    }
    PetscCall(PetscLogFlops((ci->dinv ? 9.0 : 8.0) * n));
    if (out == w) { /* z <- y, y <- w, w <- old z */
      Vec tmp = z;
      z       = y;
      y       = w;
      w       = tmp;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

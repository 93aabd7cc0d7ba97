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

/*
   The work vectors (and D^-1, when the caller has set ci->dinv[PPE_BACKEND_HOST]) by the back
   end the inputs live on: their own on back end b, the operator's, and the host's for inputs
   anywhere else (read there). Made at set-up, v a vector of the operator's layout; the weights
   are copied to b now, not in the first solve.
*/
PetscErrorCode PPEChebyCISetUpWork(PPEChebyCI *ci, Vec v, PPEBackend b)
{
  const PPEBackend host = PPE_BACKEND_HOST;

  PetscFunctionBegin;
  ci->backend = b;
  for (int i = 0; i < 5; i++) {
    PetscCall(PPEVecCreateOn(v, host, &ci->work[host][i]));
    if (!ci->work[b][i]) PetscCall(PPEVecCreateOn(v, b, &ci->work[b][i]));
  }
  if (ci->dinv[host] && !ci->dinv[b]) {
    PPEArrays K;
    PetscCall(PPEVecCreateOn(v, b, &ci->dinv[b]));
    PetscCall(VecCopy(ci->dinv[host], ci->dinv[b]));
    PetscCall(PPEArraysGet(b, 1, &ci->dinv[b], NULL, PPE_ACCESS_READ, &K)); /* in b's memory now */
    PetscCall(PPEArraysRestore(&K));
  }
  for (int e = 0; e < 4; e++) { /* the other back ends: the host's vectors */
    if (ci->work[e][0]) continue;
    for (int i = 0; i < 5; i++) PetscCall(PetscObjectReference((PetscObject)(ci->work[e][i] = ci->work[host][i])));
    if (ci->dinv[host]) PetscCall(PetscObjectReference((PetscObject)(ci->dinv[e] = ci->dinv[host])));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEChebyCIReset(PPEChebyCI *ci)
{
  PetscFunctionBegin;
  for (int b = 0; b < 4; b++) {
    for (int i = 0; i < 5; i++) PetscCall(VecDestroy(&ci->work[b][i]));
    PetscCall(VecDestroy(&ci->dinv[b]));
  }
  PetscCall(PetscFree(ci->rho));
  ci->nrho = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The vector steps of the iteration (src/kernels/chebyci.h) through the table of the back end
   their vectors live on (the host when they differ), finished before the next operator
   application. dinv may be NULL (D = I).
*/
static PetscErrorCode StepArraysGet(PetscInt n, Vec v[], const PPEAccess acc[], PPEArrays *K)
{
  PPEBackend b;

  PetscFunctionBegin;
  PetscCall(PPEVecsGetBackend(n, v, &b));
  PetscCall(PPEArraysGet(b, n, v, acc, PPE_ACCESS_READ, K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bw = D b */
static PetscErrorCode Scale(Vec dinv, PetscInt n, Vec b, Vec bw)
{
  Vec       v[3]   = {dinv, b, bw};
  PPEAccess acc[3] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE};
  PPEArrays K;

  PetscFunctionBegin;
  PetscCall(StepArraysGet(3, v, acc, &K));
  PPEBackendCall(K.ops, K.ops->ci_scale((long)n, K.a[0], K.a[1], K.a[2], K.stream));
  PetscCall(PPEArraysRestore(&K));
  PetscCall(PetscLogFlops(n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelCI1: z and y from b and t = A b */
static PetscErrorCode First(PPEChebyCI *ci, Vec dinv, PetscInt n, PetscReal c1, Vec b, Vec t, Vec z, Vec y)
{
  Vec       v[5]   = {dinv, b, t, z, y};
  PPEAccess acc[5] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE, PPE_ACCESS_WRITE};
  PPEArrays K;

  PetscFunctionBegin;
  PetscCall(StepArraysGet(5, v, acc, &K));
  PPEBackendCall(K.ops, K.ops->ci_first((long)n, ci->theta, c1, K.a[0], K.a[1], K.a[2], K.a[3], K.a[4], K.stream));
  PetscCall(PPEArraysRestore(&K));
  PetscCall(PetscLogFlops((dinv ? 6.0 : 5.0) * n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelCI2 with t = A y: w from b, t, y, z */
static PetscErrorCode Step(PPEChebyCI *ci, Vec dinv, PetscInt n, PetscReal rho, PetscReal rho_old, Vec b, Vec t, Vec y, Vec z, Vec w)
{
  Vec       v[6]   = {dinv, b, t, y, z, w};
  PPEAccess acc[6] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE};
  PetscReal s2 = 2.0 * ci->sigma, d2 = 2.0 / ci->delta;
  PPEArrays K;

  PetscFunctionBegin;
  PetscCall(StepArraysGet(6, v, acc, &K));
  PPEBackendCall(K.ops, K.ops->ci_step((long)n, rho, rho_old, s2, d2, K.a[0], K.a[1], K.a[2], K.a[3], K.a[4], K.a[5], K.stream));
  PetscCall(PPEArraysRestore(&K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The scalars of every level j = 1..its (eq. 15's recurrence): rho at ci->rho[j], rho_old at
   ci->rho[ci->nrho + j], for the step-by-step loop and the sweeps alike. */
static PetscErrorCode LevelScalars(PPEChebyCI *ci)
{
  PetscReal rho_old, rho;

  PetscFunctionBegin;
  if (ci->nrho < ci->its + 1) {
    PetscCall(PetscFree(ci->rho));
    PetscCall(PetscMalloc1(2 * (ci->its + 1), &ci->rho));
    ci->nrho = ci->its + 1;
  }
  rho_old = 1.0 / ci->sigma;
  rho     = 1.0 / (2.0 * ci->sigma - rho_old);
  for (PetscInt j = 1; j <= ci->its; j++) {
    if (j > 1) {
      rho_old = rho;
      rho     = 1.0 / (2.0 * ci->sigma - rho_old);
    }
    ci->rho[j]            = rho;
    ci->rho[ci->nrho + j] = rho_old;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The levels of the iteration in sweeps of ci->block levels (ci->sweep): each sweep reads the
   two levels before it and stores its last two (the last sweep: its last level, into x), the
   levels inside never leave the sweep.
*/
static PetscErrorCode SolveSweeps(PPEChebyCI *ci, Vec dinv, Vec *W, PetscInt n, Vec bw, Vec x)
{
  Vec              y = NULL, z = NULL, fr[2] = {W[1], W[4]}, keep[2] = {W[2], W[3]};
  ppe_dev_ci_sweep S;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&S, sizeof(S)));
  S.theta   = ci->theta;
  S.c1      = 2.0 * ci->rho[1] / ci->delta;
  S.s2      = 2.0 * ci->sigma;
  S.d2      = 2.0 / ci->delta;
  S.rho     = ci->rho;
  S.rho_old = ci->rho + ci->nrho;
  for (PetscInt j0 = 1; j0 <= ci->its; j0 += ci->block) {
    PetscInt  j1   = PetscMin(ci->its, j0 + ci->block - 1);
    PetscBool last = (PetscBool)(j1 == ci->its);
    Vec       yout = last ? x : fr[0], zout = last ? NULL : fr[1];

    S.j0 = j0;
    S.j1 = j1;
    PetscCall((*ci->sweep)(ci->sweepctx, &S, bw, dinv, y, z, yout, zout));
    PetscCall(PetscLogFlops((dinv ? 6.0 : 5.0) * n * (j0 == 1) + (dinv ? 9.0 : 8.0) * n * (j1 - PetscMax(j0, 2) + 1)));
    if (!last) { /* the two levels out become the next sweep's in; the two in are free */
      Vec a = y ? y : keep[0], c = z ? z : keep[1];

      y     = fr[0];
      z     = fr[1];
      fr[0] = a;
      fr[1] = c;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   x = p(P) D^-1 b, its applications of A. The last iterate is written straight into x;
   the vectors rotate by pointer (Algorithm 4, "swap pointers"). The work vectors and weights
   are those of the back end b and x live on (PPEChebyCISetUpWork()): inputs on the operator's
   device back end iterate there with the same bits and no copy.
*/
PetscErrorCode PPEChebyCISolve(PPEChebyCI *ci, Vec b, Vec x)
{
  Vec        bw, dinv, *W, t, z, y, w;
  Vec        io[2] = {b, x};
  PetscInt   n;
  PPEBackend be;

  PetscFunctionBegin;
  PetscCheck(ci->its >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev iteration needs its >= 1, got %" PetscInt_FMT, ci->its);
  PetscCheck(ci->work[ci->backend][0], PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call PPEChebyCISetUpWork() first");
  PetscCheck(b != x, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "Chebyshev iteration: input and output must be different vectors");
  PetscCall(PPEVecsGetBackend(2, io, &be));
  W    = ci->work[be];
  dinv = ci->dinv[be];
  t    = W[1];
  z    = W[2];
  y    = W[3];
  w    = W[4];
  PetscCall(VecGetLocalSize(b, &n));
  bw = dinv ? W[0] : b;
  if (dinv) PetscCall(Scale(dinv, n, b, bw));
  PetscCall(LevelScalars(ci));
  if (ci->sweep && be == ci->backend) { /* set only with ci->block >= 2 */
    PetscCall(SolveSweeps(ci, dinv, W, n, bw, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* KernelCI1 */
  PetscCall((*ci->op)(ci->opctx, bw, t));
  if (ci->its == 1) y = x;
  PetscCall(First(ci, dinv, n, 2.0 * ci->rho[1] / ci->delta, bw, t, z, y));

  /* KernelCI2 */
  for (PetscInt i = 2; i <= ci->its; i++) {
    Vec       out = (i == ci->its) ? x : w;
    PetscReal rho = ci->rho[i], rho_old = ci->rho[ci->nrho + i];

    if (ci->step) { /* the operator and KernelCI2 in one sweep, t never stored */
      PetscCall((*ci->step)(ci->stepctx, y, bw, z, dinv, rho, rho_old, 2.0 * ci->sigma, 2.0 / ci->delta, out));
    } else {
      PetscCall((*ci->op)(ci->opctx, y, t));
      PetscCall(Step(ci, dinv, n, rho, rho_old, bw, t, y, z, out));
    }
    PetscCall(PetscLogFlops((dinv ? 9.0 : 8.0) * n));
    if (out == w) { /* z <- y, y <- w, w <- old z */
      Vec tmp = z;
      z       = y;
      y       = w;
      w       = tmp;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

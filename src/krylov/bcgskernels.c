/*
   Launchers of the fused Bi-CGSTAB vector kernels (Pennati et al. (2025), Algorithm 3:
   KernelBiCGS2, 4, 5, 6), of local dot products and of the local sum of a vector, over the
   local arrays of Vecs, and the merged global reduction of a stage's partial sums.

   Every kernel runs on the back end where its vectors live, through that back end's table
   (src/backend/device/device.h; the host is one of them): PPEKrylovArraysGet() gives the
   arrays in that back end's memory, the table's launcher runs, PPEKrylovArraysRestore() gives
   them back and logs the flops. The arithmetic is in src/kernels/krylov.h; every Bi-CGSTAB
   launcher logs PPEBCGSFKernel.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned Bi-CGSTAB
     with alpaka", arXiv:2503.08935, 2025.
*/
#include <ppekit/private/krylovimpl.h>

/*
   PPEKrylovArraysGet - the arrays of the n vectors of a kernel call (NULL entries allowed)
   in the memory of the back end they share, or of the host when they differ (every vector
   can be read there), with access acc[i] (all of them `all` when acc is NULL); the back end's
   table and stream in K, and the local length of the vectors in *m.
*/
PetscErrorCode PPEKrylovArraysGet(PetscInt n, const Vec v[], const PPEAccess acc[], PPEAccess all, PPEArrays *K, PetscInt *m)
{
  PPEBackend b;

  PetscFunctionBegin;
  PetscCall(PPEVecsGetBackend(n, v, &b));
  PetscCall(PPEArraysGet(b, n, v, acc, all, K));
  *m = 0;
  for (PetscInt i = 0; i < n; i++)
    if (v[i]) {
      PetscCall(VecGetLocalSize(v[i], m));
      break;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEKrylovArraysRestore - the arrays of a kernel call given back (the back end synchronised,
   staged writes copied out) and the kernel's flops logged */
PetscErrorCode PPEKrylovArraysRestore(PPEArrays *K, PetscLogDouble flops)
{
  PetscFunctionBegin;
  PetscCall(PPEArraysRestore(K));
  PetscCall(PetscLogFlops(flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ldot[q] = local sum of y . u[q], q < n (n = 1 or 2; u[q] may be y), summed in the order of
   the device reductions on every back end (the host's ppe_dot_tree). */
PetscErrorCode PPEKrylovLocalDots(Vec y, PetscInt n, const Vec u[], PetscScalar ldot[])
{
  Vec       v[3] = {y, n > 0 ? u[0] : NULL, n > 1 ? u[1] : NULL};
  PPEArrays K;
  PetscInt  m;
  double   *work, s[2];

  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Local dot products of one vector with %" PetscInt_FMT " others: 1 or 2 allowed", n);
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(PPEKrylovArraysGet(3, v, NULL, PPE_ACCESS_READ, &K, &m));
  PetscCall(PPEBackendWork(K.b, PPE_DEV_RED_WORK(m, n), &work));
  PPEBackendCall(K.ops, K.ops->dot((long)m, (int)n, K.a[0], K.a[1], K.a[2], work, s, K.stream)); /* the n sums come back */
  PetscCall(PPEKrylovArraysRestore(&K, 2.0 * n * m));
  for (PetscInt q = 0; q < n; q++) ldot[q] = s[q];
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *sum = the sum of the local entries of x (no reduction): on the host in index order, on a
   device in the order of its dot products. */
PetscErrorCode PPEKrylovLocalSum(Vec x, PetscScalar *sum)
{
  PPEArrays K;
  PetscInt  m;
  double   *work, s;

  PetscFunctionBegin;
  PetscCall(PPEKrylovArraysGet(1, &x, NULL, PPE_ACCESS_READ, &K, &m));
  PetscCall(PPEBackendWork(K.b, PPE_DEV_RED_WORK(m, 1), &work));
  PPEBackendCall(K.ops, K.ops->sum((long)m, K.a[0], work, &s, K.stream)); /* the sum comes back */
  PetscCall(PPEKrylovArraysRestore(&K, 0.0));
  *sum = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v <- sum over the ranks of v: one MPI_Allreduce for all n values (counted by PETSc). */
PetscErrorCode PPEKrylovAllreduce(MPI_Comm comm, PetscInt n, PetscScalar v[])
{
  PetscMPIInt size, cnt;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMPIIntCast(n, &cnt));
  PetscCall(PetscLogEventBegin(PPE_BCGSFReduce, 0, 0, 0, 0));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, v, cnt, MPIU_SCALAR, MPIU_SUM, comm));
  PetscCall(PetscLogEventEnd(PPE_BCGSFReduce, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS2: r <- r - alpha w */
PetscErrorCode PPEBCGSKernelAxpy(Vec r, PetscScalar alpha, Vec w)
{
  Vec       v[2]   = {r, w};
  PPEAccess acc[2] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ};
  PPEArrays K;
  PetscInt  m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(PPEKrylovArraysGet(2, v, acc, PPE_ACCESS_READ, &K, &m));
  PPEBackendCall(K.ops, K.ops->bcgs_axpy((long)m, alpha, K.a[1], K.a[0], K.stream));
  PetscCall(PPEKrylovArraysRestore(&K, 2.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The two updates of a vector y by two scalars and two other vectors u and w (4 flops per entry):
   KernelBiCGS4, x <- x + s ph + t rh (kind PPE_BCGS_UPDATE_X: y = x, u = ph, w = rh, s = alpha,
   t = omega), and KernelBiCGS6, p <- r + s (p - t w) (PPE_BCGS_UPDATE_P: y = p, u = r, s = beta,
   t = omega). */
PetscErrorCode PPEBCGSKernelUpdate(PPEBCGSUpdate kind, Vec y, PetscScalar s, PetscScalar t, Vec u, Vec w)
{
  Vec       v[3]   = {y, u, w};
  PPEAccess acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
  PPEArrays K;
  PetscInt  m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(PPEKrylovArraysGet(3, v, acc, PPE_ACCESS_READ, &K, &m));
  if (kind == PPE_BCGS_UPDATE_X) PPEBackendCall(K.ops, K.ops->bcgs_update_x((long)m, s, t, K.a[1], K.a[2], K.a[0], K.stream));
  else PPEBackendCall(K.ops, K.ops->bcgs_update_p((long)m, s, t, K.a[1], K.a[2], K.a[0], K.stream));
  PetscCall(PPEKrylovArraysRestore(&K, 4.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS5: r <- r - omega t; ldot = local (rt'r, r'r) of the new r, summed in the
   device's order on every back end (the host's ppe_bcgs_update_r_tree) */
PetscErrorCode PPEBCGSKernelUpdateR(Vec r, PetscScalar omega, Vec t, Vec rt, PetscScalar ldot[2])
{
  Vec       v[3]   = {r, t, rt};
  PPEAccess acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
  PPEArrays K;
  PetscInt  m;
  double   *work, s[2];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(PPEKrylovArraysGet(3, v, acc, PPE_ACCESS_READ, &K, &m));
  PetscCall(PPEBackendWork(K.b, PPE_DEV_RED_WORK(m, 2), &work));
  PPEBackendCall(K.ops, K.ops->bcgs_update_r((long)m, omega, K.a[1], K.a[2], K.a[0], work, s, K.stream)); /* the two sums come back */
  PetscCall(PPEKrylovArraysRestore(&K, 6.0 * m));
  ldot[0] = s[0];
  ldot[1] = s[1];
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

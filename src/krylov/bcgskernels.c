/*
   Launchers of the fused Bi-CGSTAB vector kernels (Pennati et al. (2025), Algorithm 3:
   KernelBiCGS2, 4, 5, 6) and of local dot products, over the local arrays of Vecs (on the
   host, or on the device for device-resident vectors, src/sys/devvec.c), and the merged
   global reduction of a stage's partial sums. The arithmetic is in
   src/kernels/krylov.h; every launcher logs PPEBCGSFKernel and its flops.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned Bi-CGSTAB
     with alpaka", arXiv:2503.08935, 2025.
*/
#include <ppekit/private/krylovimpl.h>
#include <ppekit/private/backendimpl.h>
#include <kernels/krylov.h>

/* Device-resident vectors (src/sys/devvec.c): the back end all n vectors live on, its
   table and stream, or host. */
static PetscErrorCode OnDevice(PetscInt n, const Vec v[], PPEBackend *be, const PPEBackendOps **ops, void **stream)
{
  PetscFunctionBegin;
  PetscCall(PPEVecDevAllOn(n, v, be));
  if (*be != PPE_BACKEND_HOST) PetscCall(PPEDevVecStream(*be, ops, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ldot[q] = local sum of y . u[q], q < n (u[q] may be y). */
PetscErrorCode PPEKrylovLocalDots(Vec y, PetscInt n, const Vec u[], PetscScalar ldot[])
{
  const PetscScalar *ya, *ua;
  PetscInt           m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  {
    PetscBool done;
    PetscCall(PPEVecDevLocalDots(y, n, u, ldot, &done)); /* device-resident: the sums come back */
    if (done) {
      PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(VecGetLocalSize(y, &m));
  PetscCall(VecGetArrayRead(y, &ya));
  for (PetscInt q = 0; q < n; q++) {
    if (u[q] == y) ldot[q] = ppe_dot_tree(m, ya, ya);
    else {
      PetscCall(VecGetArrayRead(u[q], &ua));
      ldot[q] = ppe_dot_tree(m, ya, ua);
      PetscCall(VecRestoreArrayRead(u[q], &ua));
    }
  }
  PetscCall(VecRestoreArrayRead(y, &ya));
  PetscCall(PetscLogFlops(2.0 * n * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
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
  Vec                 v[2]   = {r, w};
  PPEAccess           acc[2] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ};
  double             *a[2];
  PPEBackend          be;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;
  PetscInt            m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(r, &m));
  PetscCall(OnDevice(2, v, &be, &ops, &stream));
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 2, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  if (be != PPE_BACKEND_HOST) {
    PPEBackendCall(ops, ops->bcgs_axpy((long)m, alpha, a[1], a[0], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else ppe_bcgs_axpy(m, alpha, a[1], a[0]);
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 2, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  PetscCall(PetscLogFlops(2.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS4: x <- x + alpha ph + omega rh */
PetscErrorCode PPEBCGSKernelUpdateX(Vec x, PetscScalar alpha, Vec ph, PetscScalar omega, Vec rh)
{
  Vec                 v[3]   = {x, ph, rh};
  PPEAccess           acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
  double             *a[3];
  PPEBackend          be;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;
  PetscInt            m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(x, &m));
  PetscCall(OnDevice(3, v, &be, &ops, &stream));
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 3, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  if (be != PPE_BACKEND_HOST) {
    PPEBackendCall(ops, ops->bcgs_update_x((long)m, alpha, omega, a[1], a[2], a[0], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else ppe_bcgs_update_x(m, alpha, omega, a[1], a[2], a[0]);
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 3, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  PetscCall(PetscLogFlops(4.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS5: r <- r - omega t; ldot = local (rt'r, r'r) of the new r, summed in the
   device's order on both sides (ppe_bcgs_update_r_tree) */
PetscErrorCode PPEBCGSKernelUpdateR(Vec r, PetscScalar omega, Vec t, Vec rt, PetscScalar ldot[2])
{
  Vec                 v[3]   = {r, t, rt};
  PPEAccess           acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
  double             *a[3], *work, s[2];
  PPEBackend          be;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;
  PetscInt            m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(r, &m));
  PetscCall(OnDevice(3, v, &be, &ops, &stream));
  if (be != PPE_BACKEND_HOST) PetscCall(PPEDevVecWork(be, ops, PPE_DEV_RED_WORK(m, 2), &work));
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 3, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  if (be != PPE_BACKEND_HOST) PPEBackendCall(ops, ops->bcgs_update_r((long)m, omega, a[1], a[2], a[0], work, s, stream)); /* the two sums come back */
  else ppe_bcgs_update_r_tree(m, omega, a[1], a[2], a[0], s);
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 3, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  ldot[0] = s[0];
  ldot[1] = s[1];
  PetscCall(PetscLogFlops(6.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS6: p <- r + beta (p - omega w) */
PetscErrorCode PPEBCGSKernelUpdateP(Vec p, PetscScalar beta, PetscScalar omega, Vec r, Vec w)
{
  Vec                 v[3]   = {p, r, w};
  PPEAccess           acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
  double             *a[3];
  PPEBackend          be;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;
  PetscInt            m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(p, &m));
  PetscCall(OnDevice(3, v, &be, &ops, &stream));
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 3, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  if (be != PPE_BACKEND_HOST) {
    PPEBackendCall(ops, ops->bcgs_update_p((long)m, beta, omega, a[1], a[2], a[0], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else ppe_bcgs_update_p(m, beta, omega, a[1], a[2], a[0]);
  PetscCall(PPEVecArrays((PetscBool)(be != PPE_BACKEND_HOST), 3, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  PetscCall(PetscLogFlops(4.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

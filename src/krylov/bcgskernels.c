/*
   Host launchers of the fused Bi-CGSTAB vector kernels (Pennati et al. (2025), Algorithm 3:
   KernelBiCGS2, 4, 5, 6) and of local dot products, over the local arrays of Vecs, and the
   merged global reduction of a stage's partial sums. The arithmetic is in
   src/kernels/krylov.h; every launcher logs PPEBCGSFKernel and its flops.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned Bi-CGSTAB
     with alpaka", arXiv:2503.08935, 2025.
*/
#include <ppekit/private/krylovimpl.h>
#include <ppekit/private/deviceimpl.h>
#include <kernels/krylov.h>

/* Device-resident vectors (src/sys/devvec.c): the back end all n vectors live on, its
   table and stream, or host. */
static PetscErrorCode OnDevice(PetscInt n, const Vec v[], PPEBackend *be, const PPEDeviceOps **ops, void **stream)
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
  const PetscScalar *wa;
  PetscScalar       *ra;
  PetscInt           m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(r, &m));
  {
    Vec                 v[2]   = {r, w};
    PPEAccess           acc[2] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ};
    double             *a[2];
    PPEBackend          be;
    const PPEDeviceOps *ops    = NULL;
    void               *stream = NULL;
    PetscCall(OnDevice(2, v, &be, &ops, &stream));
    if (be != PPE_BACKEND_HOST) {
      PetscCall(PPEVecDevArrays(2, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
      PPEDeviceCall(ops, ops->bcgs_axpy((long)m, alpha, a[1], a[0], stream));
      PPEDeviceCall(ops, ops->sync(stream));
      PetscCall(PPEVecDevArrays(2, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
    } else {
      PetscCall(VecGetArrayRead(w, &wa));
      PetscCall(VecGetArray(r, &ra));
      ppe_bcgs_axpy(m, alpha, wa, ra);
      PetscCall(VecRestoreArray(r, &ra));
      PetscCall(VecRestoreArrayRead(w, &wa));
    }
  }
  PetscCall(PetscLogFlops(2.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS4: x <- x + alpha ph + omega rh */
PetscErrorCode PPEBCGSKernelUpdateX(Vec x, PetscScalar alpha, Vec ph, PetscScalar omega, Vec rh)
{
  const PetscScalar *pa, *ra;
  PetscScalar       *xa;
  PetscInt           m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(x, &m));
  {
    Vec                 v[3]   = {x, ph, rh};
    PPEAccess           acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
    double             *a[3];
    PPEBackend          be;
    const PPEDeviceOps *ops    = NULL;
    void               *stream = NULL;
    PetscCall(OnDevice(3, v, &be, &ops, &stream));
    if (be != PPE_BACKEND_HOST) {
      PetscCall(PPEVecDevArrays(3, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
      PPEDeviceCall(ops, ops->bcgs_update_x((long)m, alpha, omega, a[1], a[2], a[0], stream));
      PPEDeviceCall(ops, ops->sync(stream));
      PetscCall(PPEVecDevArrays(3, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
    } else {
      PetscCall(VecGetArrayRead(ph, &pa));
      PetscCall(VecGetArrayRead(rh, &ra));
      PetscCall(VecGetArray(x, &xa));
      ppe_bcgs_update_x(m, alpha, omega, pa, ra, xa);
      PetscCall(VecRestoreArray(x, &xa));
      PetscCall(VecRestoreArrayRead(rh, &ra));
      PetscCall(VecRestoreArrayRead(ph, &pa));
    }
  }
  PetscCall(PetscLogFlops(4.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS5: r <- r - omega t; ldot = local (rt'r, r'r) of the new r */
PetscErrorCode PPEBCGSKernelUpdateR(Vec r, PetscScalar omega, Vec t, Vec rt, PetscScalar ldot[2])
{
  const PetscScalar *ta, *rta;
  PetscScalar       *ra;
  PetscInt           m;
  double             s[2];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(r, &m));
  {
    Vec                 v[3]   = {r, t, rt};
    PPEAccess           acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
    double             *a[3], *work;
    PPEBackend          be;
    const PPEDeviceOps *ops    = NULL;
    void               *stream = NULL;
    PetscCall(OnDevice(3, v, &be, &ops, &stream));
    if (be != PPE_BACKEND_HOST) { /* the two sums come back */
      PetscCall(PPEDevVecWork(be, ops, PPE_DEV_RED_WORK(m, 2), &work));
      PetscCall(PPEVecDevArrays(3, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
      PPEDeviceCall(ops, ops->bcgs_update_r((long)m, omega, a[1], a[2], a[0], work, s, stream));
      PetscCall(PPEVecDevArrays(3, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
    } else {
      PetscCall(VecGetArrayRead(t, &ta));
      PetscCall(VecGetArrayRead(rt, &rta));
      PetscCall(VecGetArray(r, &ra));
      ppe_bcgs_update_r_tree(m, omega, ta, rta, ra, s);
      PetscCall(VecRestoreArray(r, &ra));
      PetscCall(VecRestoreArrayRead(rt, &rta));
      PetscCall(VecRestoreArrayRead(t, &ta));
    }
  }
  ldot[0] = s[0];
  ldot[1] = s[1];
  PetscCall(PetscLogFlops(6.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KernelBiCGS6: p <- r + beta (p - omega w) */
PetscErrorCode PPEBCGSKernelUpdateP(Vec p, PetscScalar beta, PetscScalar omega, Vec r, Vec w)
{
  const PetscScalar *ra, *wa;
  PetscScalar       *pa;
  PetscInt           m;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(p, &m));
  {
    Vec                 v[3]   = {p, r, w};
    PPEAccess           acc[3] = {PPE_ACCESS_READWRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
    double             *a[3];
    PPEBackend          be;
    const PPEDeviceOps *ops    = NULL;
    void               *stream = NULL;
    PetscCall(OnDevice(3, v, &be, &ops, &stream));
    if (be != PPE_BACKEND_HOST) {
      PetscCall(PPEVecDevArrays(3, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
      PPEDeviceCall(ops, ops->bcgs_update_p((long)m, beta, omega, a[1], a[2], a[0], stream));
      PPEDeviceCall(ops, ops->sync(stream));
      PetscCall(PPEVecDevArrays(3, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
    } else {
      PetscCall(VecGetArrayRead(r, &ra));
      PetscCall(VecGetArrayRead(w, &wa));
      PetscCall(VecGetArray(p, &pa));
      ppe_bcgs_update_p(m, beta, omega, ra, wa, pa);
      PetscCall(VecRestoreArray(p, &pa));
      PetscCall(VecRestoreArrayRead(w, &wa));
      PetscCall(VecRestoreArrayRead(r, &ra));
    }
  }
  PetscCall(PetscLogFlops(4.0 * m));
  PetscCall(PetscLogEventEnd(PPE_BCGSFKernel, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Tall-skinny block operations on arrays of PETSc vectors, for s-step Krylov methods:
   the local part is one cache-blocked pass of the host kernels (src/kernels/tsblock.h,
   src/backend/host/tsblock_host.c), or of the device launchers when every vector of the
   call is device-resident (src/sys/devvec.c); a Gram product ends in exactly one
   MPI_Allreduce.
*/
#include <ppekit/private/sstepimpl.h>
#include <ppekit/private/backendimpl.h>

/* The back end the k1 + k2 vectors of a call all live on (host: the host kernels run). */
static PetscErrorCode BlockBackend(PetscInt k1, Vec v1[], PetscInt k2, Vec v2[], PPEBackend *be)
{
  Vec      all[2 * PPE_TS_MAXCOLS + 2];
  PetscInt k = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < k1; i++) all[k++] = v1[i];
  for (PetscInt i = 0; i < k2; i++) all[k++] = v2[i];
  PetscCall(PPEVecDevAllOn(k, all, be));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local length and communicator of a block, and a check that the kernels can read it. */
static PetscErrorCode BlockInfo(Vec v, PetscInt *n, MPI_Comm *comm)
{
  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, n));
  if (comm) *comm = PetscObjectComm((PetscObject)v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPETSGram - out[a + nx*b] = x_a' y_b for b >= a - band (0 elsewhere), summed over all
   ranks with one MPI_Allreduce of the entries in the band, together with nextra local values
   extra[] (summed in place; nextra may be 0).

   band = 1 gives the upper triangle and the first subdiagonal (the Gram matrix of cbcg and
   its symmetry check); band >= nx gives the full product. A vector may appear in both lists.
*/
PetscErrorCode PPETSGram(PetscInt nx, Vec x[], PetscInt ny, Vec y[], PetscInt band, PetscScalar out[], PetscInt nextra, PetscScalar extra[])
{
  double             *xa[PPE_TS_MAXCOLS], *ya[PPE_TS_MAXCOLS];
  PetscScalar         buf[PPE_TS_MAXCOLS * PPE_TS_MAXCOLS + 4];
  PetscInt            n, cnt = 0;
  PetscMPIInt         ncnt;
  MPI_Comm            comm = MPI_COMM_NULL;
  PPEBackend          be;
  PetscBool           dev;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;
  double             *work   = NULL;

  PetscFunctionBegin;
  PetscCheck(nx >= 1 && nx <= PPE_TS_MAXCOLS && ny >= 1 && ny <= PPE_TS_MAXCOLS && nextra >= 0 && nextra <= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Tall-skinny Gram of %" PetscInt_FMT " x %" PetscInt_FMT " columns and %" PetscInt_FMT " extra values: 1 to %d columns and 0 to 4 values allowed", nx, ny, nextra, PPE_TS_MAXCOLS);
  PetscCall(PetscLogEventBegin(PPE_CBCGGram, 0, 0, 0, 0));
  PetscCall(BlockInfo(x[0], &n, &comm));
  PetscCall(BlockBackend(nx, x, ny, y, &be));
  dev = (PetscBool)(be != PPE_BACKEND_HOST);
  if (dev) {
    PetscCall(PPEDevVecStream(be, &ops, &stream));
    PetscCall(PPEDevVecWork(be, ops, PPE_DEV_RED_WORK(n, nx * ny), &work));
  }
  PetscCall(PPEVecArrays(dev, nx, x, NULL, PPE_ACCESS_READ, xa, PETSC_TRUE));
  PetscCall(PPEVecArrays(dev, ny, y, NULL, PPE_ACCESS_READ, ya, PETSC_TRUE));
  if (dev) PPEBackendCall(ops, ops->ts_gram((long)n, (int)nx, (const double *const *)xa, (int)ny, (const double *const *)ya, (int)PetscMin(band, 1000000), work, out, stream)); /* nx ny numbers come back */
  else PPETSGram_Host(n, nx, (const double *const *)xa, ny, (const double *const *)ya, band, out);
  PetscCall(PPEVecArrays(dev, nx, x, NULL, PPE_ACCESS_READ, xa, PETSC_FALSE));
  PetscCall(PPEVecArrays(dev, ny, y, NULL, PPE_ACCESS_READ, ya, PETSC_FALSE));
  for (PetscInt b = 0; b < ny; b++)
    for (PetscInt a = 0; a < nx; a++)
      if (b >= a - band) buf[cnt++] = out[a + nx * b];
  PetscCall(PetscLogFlops(2.0 * n * cnt));
  for (PetscInt i = 0; i < nextra; i++) buf[cnt++] = extra[i];
  PetscCall(PetscLogEventBegin(PPE_CBCGReduce, 0, 0, 0, 0));
  PetscCall(PetscMPIIntCast(cnt, &ncnt));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, buf, ncnt, MPIU_SCALAR, MPIU_SUM, comm));
  PetscCall(PetscLogEventEnd(PPE_CBCGReduce, 0, 0, 0, 0));
  cnt = 0;
  for (PetscInt b = 0; b < ny; b++)
    for (PetscInt a = 0; a < nx; a++)
      if (b >= a - band) out[a + nx * b] = buf[cnt++];
  for (PetscInt i = 0; i < nextra; i++) extra[i] = buf[cnt++];
  PetscCall(PetscLogEventEnd(PPE_CBCGGram, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPETSCombine - S_j <- S_j - sum_{i<k} Q_i B(i,j) and AS_j <- AS_j - sum_{i<k} AQ_i B(i,j),
   j < m, in place (B is k x m, column-major): the basis made A-conjugate to the blocks in Q
   (which may list two blocks one after the other), and its image. No communication.
*/
PetscErrorCode PPETSCombine(PetscInt k, Vec Q[], Vec AQ[], PetscInt m, Vec S[], Vec AS[], const PetscScalar B[])
{
  double             *qa[PPE_TS_MAXCOLS], *sa[PPE_CBCG_SMAX], *work = NULL;
  PetscInt            n;
  PPEBackend          be, be2;
  PetscBool           dev;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;

  PetscFunctionBegin;
  PetscCheck(k >= 1 && k <= PPE_TS_MAXCOLS && m >= 1 && m <= PPE_CBCG_SMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Combine of %" PetscInt_FMT " and %" PetscInt_FMT " columns: 1 to %d and 1 to %d allowed", k, m, PPE_TS_MAXCOLS, PPE_CBCG_SMAX);
  PetscCall(BlockInfo(S[0], &n, NULL));
  PetscCall(BlockBackend(k, Q, m, S, &be));
  PetscCall(BlockBackend(k, AQ, m, AS, &be2));
  dev = (PetscBool)(be != PPE_BACKEND_HOST && be == be2);
  if (dev) {
    PetscCall(PPEDevVecStream(be, &ops, &stream));
    PetscCall(PPEDevVecWork(be, ops, PPE_DEV_TS_COMBINE_WORK(k, m), &work));
  }
  for (int pass = 0; pass < 2; pass++) {
    Vec *T = pass ? AS : S, *U = pass ? AQ : Q;
    PetscCall(PPEVecArrays(dev, k, U, NULL, PPE_ACCESS_READ, qa, PETSC_TRUE));
    PetscCall(PPEVecArrays(dev, m, T, NULL, PPE_ACCESS_READWRITE, sa, PETSC_TRUE));
    if (dev) {
      PPEBackendCall(ops, ops->ts_combine((long)n, (int)k, (const double *const *)qa, (int)m, (double *const *)sa, B, work, stream));
      PPEBackendCall(ops, ops->sync(stream));
    } else PPETSCombine_Host(n, k, (const double *const *)qa, m, (double *const *)sa, B);
    PetscCall(PPEVecArrays(dev, m, T, NULL, PPE_ACCESS_READWRITE, sa, PETSC_FALSE));
    PetscCall(PPEVecArrays(dev, k, U, NULL, PPE_ACCESS_READ, qa, PETSC_FALSE));
  }
  PetscCall(PetscLogFlops(4.0 * n * k * m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPETSAxpy - x += Q a, r -= AQ a (k columns), one pass. */
PetscErrorCode PPETSAxpy(PetscInt k, Vec Q[], Vec AQ[], const PetscScalar a[], Vec x, Vec r)
{
  double             *qa[PPE_CBCG_SMAX], *aqa[PPE_CBCG_SMAX], *xra[2];
  Vec                 xr[2] = {x, r};
  PetscInt            n;
  PPEBackend          be, be2;
  PetscBool           dev;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;

  PetscFunctionBegin;
  PetscCheck(k >= 1 && k <= PPE_CBCG_SMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Block of %" PetscInt_FMT " columns: 1 to %d allowed", k, PPE_CBCG_SMAX);
  PetscCall(BlockInfo(x, &n, NULL));
  PetscCall(BlockBackend(2, xr, k, Q, &be));
  PetscCall(BlockBackend(2, xr, k, AQ, &be2));
  dev = (PetscBool)(be != PPE_BACKEND_HOST && be == be2);
  if (dev) PetscCall(PPEDevVecStream(be, &ops, &stream));
  PetscCall(PPEVecArrays(dev, k, Q, NULL, PPE_ACCESS_READ, qa, PETSC_TRUE));
  PetscCall(PPEVecArrays(dev, k, AQ, NULL, PPE_ACCESS_READ, aqa, PETSC_TRUE));
  PetscCall(PPEVecArrays(dev, 2, xr, NULL, PPE_ACCESS_READWRITE, xra, PETSC_TRUE));
  if (dev) {
    PPEBackendCall(ops, ops->ts_axpy((long)n, (int)k, (const double *const *)qa, (const double *const *)aqa, a, xra[0], xra[1], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else PPETSAxpy_Host(n, k, (const double *const *)qa, (const double *const *)aqa, a, xra[0], xra[1]);
  PetscCall(PPEVecArrays(dev, 2, xr, NULL, PPE_ACCESS_READWRITE, xra, PETSC_FALSE));
  PetscCall(PPEVecArrays(dev, k, AQ, NULL, PPE_ACCESS_READ, aqa, PETSC_FALSE));
  PetscCall(PPEVecArrays(dev, k, Q, NULL, PPE_ACCESS_READ, qa, PETSC_FALSE));
  PetscCall(PetscLogFlops(4.0 * n * k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPETSCheb - out = c1 az - c2 z - zold (zold may be NULL or out itself). */
PetscErrorCode PPETSCheb(PetscReal c1, Vec az, PetscReal c2, Vec z, Vec zold, Vec out)
{
  /* zold == out: out is read and written, and zold's array is out's */
  Vec                 v[4]   = {az, z, out, zold == out ? NULL : zold};
  PPEAccess           acc[4] = {PPE_ACCESS_READ, PPE_ACCESS_READ, zold == out ? PPE_ACCESS_READWRITE : PPE_ACCESS_WRITE, PPE_ACCESS_READ};
  double             *a[4];
  const double       *oa;
  PetscInt            n;
  PPEBackend          be;
  PetscBool           dev;
  const PPEBackendOps *ops    = NULL;
  void               *stream = NULL;

  PetscFunctionBegin;
  PetscCheck(out != az && out != z, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "The Chebyshev step writes over its oldest term only");
  PetscCall(BlockInfo(out, &n, NULL));
  PetscCall(PPEVecDevAllOn(4, v, &be));
  dev = (PetscBool)(be != PPE_BACKEND_HOST);
  if (dev) PetscCall(PPEDevVecStream(be, &ops, &stream));
  PetscCall(PPEVecArrays(dev, 4, v, acc, PPE_ACCESS_READ, a, PETSC_TRUE));
  oa = zold == out ? a[2] : a[3];
  if (dev) {
    PPEBackendCall(ops, ops->ts_cheb((long)n, c1, a[0], c2, a[1], oa, a[2], stream));
    PPEBackendCall(ops, ops->sync(stream));
  } else PPETSCheb_Host(n, c1, a[0], c2, a[1], oa, a[2]);
  PetscCall(PPEVecArrays(dev, 4, v, acc, PPE_ACCESS_READ, a, PETSC_FALSE));
  PetscCall(PetscLogFlops((zold ? 4.0 : 3.0) * n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Tall-skinny block operations on arrays of PETSc vectors, for s-step Krylov methods: the
   local part is one cache-blocked pass of the block kernels (src/kernels/tsblock.h) of the
   back end where the vectors live, through its table (the host's chunked loops of
   src/backend/host/tsblock_host.c, or a device's launchers); a Gram product ends in exactly
   one MPI_Allreduce.
*/
#include <ppekit/private/sstepimpl.h>
#include <ppekit/private/krylovimpl.h>

/* The back end the vectors of nl lists (k[l] vectors v[l]) share: the host when they differ. */
static PetscErrorCode BlockBackend(PetscInt nl, const PetscInt k[], Vec *const v[], PPEBackend *be)
{
  Vec      all[4 * PPE_TS_MAXCOLS];
  PetscInt n = 0;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < nl; l++)
    for (PetscInt i = 0; i < k[l]; i++) all[n++] = v[l][i];
  PetscCall(PPEVecsGetBackend(n, all, be));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The column pointers of a block's arrays, as the table's launchers take them. */
static inline const double *const *Cols(const PPEArrays *A)
{
  return (const double *const *)A->a;
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
  PetscScalar buf[PPE_TS_MAXCOLS * PPE_TS_MAXCOLS + 4];
  PetscInt    n, cnt = 0;
  PetscMPIInt ncnt;
  MPI_Comm    comm;
  PPEBackend  be;
  PPEArrays   X, Y;
  double     *work;

  PetscFunctionBegin;
  PetscCheck(nx >= 1 && nx <= PPE_TS_MAXCOLS && ny >= 1 && ny <= PPE_TS_MAXCOLS && nextra >= 0 && nextra <= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "Tall-skinny Gram of %" PetscInt_FMT " x %" PetscInt_FMT " columns and %" PetscInt_FMT " extra values: 1 to %d columns and 0 to 4 values allowed", nx, ny, nextra, PPE_TS_MAXCOLS);
  PetscCall(PetscLogEventBegin(PPE_CBCGGram, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(x[0], &n));
  comm = PetscObjectComm((PetscObject)x[0]);
  {
    const PetscInt k[2] = {nx, ny};
    Vec *const     v[2] = {x, y};
    PetscCall(BlockBackend(2, k, v, &be));
  }
  PetscCall(PPEArraysGet(be, nx, x, NULL, PPE_ACCESS_READ, &X));
  PetscCall(PPEArraysGet(be, ny, y, NULL, PPE_ACCESS_READ, &Y));
  PetscCall(PPEBackendWork(be, PPE_DEV_RED_WORK(n, nx * ny), &work));
  PPEBackendCall(X.ops, X.ops->ts_gram((long)n, (int)nx, Cols(&X), (int)ny, Cols(&Y), (int)PetscMin(band, 1000000), work, out, X.stream)); /* nx ny numbers come back */
  PetscCall(PPEArraysRestore(&Y));
  PetscCall(PPEArraysRestore(&X));
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
  PetscInt       n;
  PPEBackend     be;
  double        *work;
  const PetscInt kl[4] = {k, k, m, m};
  Vec *const     vl[4] = {Q, AQ, S, AS};

  PetscFunctionBegin;
  PetscCheck(k >= 1 && k <= PPE_TS_MAXCOLS && m >= 1 && m <= PPE_CBCG_SMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Combine of %" PetscInt_FMT " and %" PetscInt_FMT " columns: 1 to %d and 1 to %d allowed", k, m, PPE_TS_MAXCOLS, PPE_CBCG_SMAX);
  PetscCall(VecGetLocalSize(S[0], &n));
  PetscCall(BlockBackend(4, kl, vl, &be)); /* both passes on one back end */
  PetscCall(PPEBackendWork(be, PPE_DEV_TS_COMBINE_WORK(k, m), &work));
  for (int pass = 0; pass < 2; pass++) {
    Vec      *T = pass ? AS : S, *U = pass ? AQ : Q;
    PPEArrays Ua, Ta;

    PetscCall(PPEArraysGet(be, k, U, NULL, PPE_ACCESS_READ, &Ua));
    PetscCall(PPEArraysGet(be, m, T, NULL, PPE_ACCESS_READWRITE, &Ta));
    PPEBackendCall(Ta.ops, Ta.ops->ts_combine((long)n, (int)k, Cols(&Ua), (int)m, (double *const *)Ta.a, B, work, Ta.stream));
    PetscCall(PPEArraysRestore(&Ta));
    PetscCall(PPEArraysRestore(&Ua));
  }
  PetscCall(PetscLogFlops(4.0 * n * k * m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPETSAxpy - x += Q a, r -= AQ a (k columns), one pass. */
PetscErrorCode PPETSAxpy(PetscInt k, Vec Q[], Vec AQ[], const PetscScalar a[], Vec x, Vec r)
{
  Vec            xr[2] = {x, r};
  PetscInt       n;
  PPEBackend     be;
  PPEArrays      Qa, AQa, XR;
  const PetscInt kl[3] = {k, k, 2};
  Vec *const     vl[3] = {Q, AQ, xr};

  PetscFunctionBegin;
  PetscCheck(k >= 1 && k <= PPE_CBCG_SMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Block of %" PetscInt_FMT " columns: 1 to %d allowed", k, PPE_CBCG_SMAX);
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(BlockBackend(3, kl, vl, &be));
  PetscCall(PPEArraysGet(be, k, Q, NULL, PPE_ACCESS_READ, &Qa));
  PetscCall(PPEArraysGet(be, k, AQ, NULL, PPE_ACCESS_READ, &AQa));
  PetscCall(PPEArraysGet(be, 2, xr, NULL, PPE_ACCESS_READWRITE, &XR));
  PPEBackendCall(XR.ops, XR.ops->ts_axpy((long)n, (int)k, Cols(&Qa), Cols(&AQa), a, XR.a[0], XR.a[1], XR.stream));
  PetscCall(PPEArraysRestore(&XR));
  PetscCall(PPEArraysRestore(&AQa));
  PetscCall(PPEArraysRestore(&Qa));
  PetscCall(PetscLogFlops(4.0 * n * k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPETSCheb - out = c1 az - c2 z - zold (zold may be NULL or out itself). */
PetscErrorCode PPETSCheb(PetscReal c1, Vec az, PetscReal c2, Vec z, Vec zold, Vec out)
{
  /* zold == out: out is read and written, and zold's array is out's */
  Vec       v[4]   = {az, z, out, zold == out ? NULL : zold};
  PPEAccess acc[4] = {PPE_ACCESS_READ, PPE_ACCESS_READ, zold == out ? PPE_ACCESS_READWRITE : PPE_ACCESS_WRITE, PPE_ACCESS_READ};
  PPEArrays K;
  PetscInt  n;

  PetscFunctionBegin;
  PetscCheck(out != az && out != z, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "The Chebyshev step writes over its oldest term only");
  PetscCall(PPEKrylovArraysGet(4, v, acc, PPE_ACCESS_READ, &K, &n));
  PPEBackendCall(K.ops, K.ops->ts_cheb((long)n, c1, K.a[0], c2, K.a[1], zold == out ? K.a[2] : K.a[3], K.a[2], K.stream));
  PetscCall(PPEKrylovArraysRestore(&K, (zold ? 4.0 : 3.0) * n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

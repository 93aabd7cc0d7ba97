/*
   Grouped pencil transposes: the values of a box distributed over a group of ranks are
   moved from one layout (A) to another (B) with one MPI_Alltoallv inside the group, as in
   the transpose-split 3D FFT of paper 003 (yz and zx groups made with MPI_Comm_split; here
   the groups are made by the caller, src/fft/fftsetup.c). Each rank sends to each peer the
   intersection of its A box with the peer's B box; what stays on the rank is copied
   directly. Boxes need not divide evenly (paper 003 pads; the counts of MPI_Alltoallv make
   padding unnecessary here).

   Bytes: fbytes/bbytes are what this rank hands to MPI for other ranks per exchange (the
   model); PETSc's wrappers of MPI_Alltoallv count the same send counts, the block a rank
   keeps included (it is zero here: self-blocks are copied, not sent), so PPECountersGet()'s
   bytes_sent sees the transposes.
*/
#include <ppekit/private/fftptdmaimpl.h>

/* Block k of n items split over p parts: the first n % p parts have one more. */
void PPEBlockSplit(PetscInt n, PetscInt p, PetscInt k, PetscInt *start, PetscInt *len)
{
  PetscInt q = n / p, r = n % p;

  *len   = q + (k < r ? 1 : 0);
  *start = k * q + PetscMin(k, r);
}

void PPEBoxIntersect(const PetscInt a[6], const PetscInt b[6], PetscInt c[6])
{
  PetscBool empty = PETSC_FALSE;

  for (int d = 0; d < 3; d++) {
    PetscInt lo = PetscMax(a[d], b[d]), hi = PetscMin(a[d] + a[3 + d], b[d] + b[3 + d]);
    c[d]     = lo;
    c[3 + d] = hi > lo ? hi - lo : 0;
    if (hi <= lo) empty = PETSC_TRUE;
  }
  if (empty) c[3] = c[4] = c[5] = 0;
}

static inline PetscInt BoxSize(const PetscInt b[6])
{
  return b[3] * b[4] * b[5];
}

/* Offset of the first point of row (j,k) of box inside array box arr. */
static inline PetscInt RowOffset(const PetscInt arr[6], const PetscInt box[6], PetscInt j, PetscInt k)
{
  return ((box[2] + k - arr[2]) * arr[4] + (box[1] + j - arr[1])) * arr[3] + (box[0] - arr[0]);
}

/* Copy box (inside array box arr of src) to a contiguous buffer, times scale[] (same
   layout as src) when given. */
static void BoxPack(const PetscScalar *src, const PetscScalar *scale, const PetscInt arr[6], const PetscInt box[6], PetscScalar *buf)
{
  for (PetscInt k = 0; k < box[5]; k++)
    for (PetscInt j = 0; j < box[4]; j++) {
      PetscInt off = RowOffset(arr, box, j, k);
      if (scale)
        for (PetscInt i = 0; i < box[3]; i++) buf[i] = src[off + i] * scale[off + i];
      else memcpy(buf, src + off, sizeof(PetscScalar) * box[3]);
      buf += box[3];
    }
}

/* Contiguous buffer to a box of dst, plus shift. */
static void BoxUnpack(const PetscScalar *buf, PetscScalar shift, const PetscInt arr[6], const PetscInt box[6], PetscScalar *dst)
{
  for (PetscInt k = 0; k < box[5]; k++)
    for (PetscInt j = 0; j < box[4]; j++) {
      PetscScalar *t = dst + RowOffset(arr, box, j, k);
      if (shift != 0.0)
        for (PetscInt i = 0; i < box[3]; i++) t[i] = buf[i] + shift;
      else memcpy(t, buf, sizeof(PetscScalar) * box[3]);
      buf += box[3];
    }
}

/* Direct copy of a box between two arrays: t = s * scale (scale on the source's layout) + shift. */
static void BoxCopy(const PetscScalar *src, const PetscScalar *scale, PetscScalar shift, const PetscInt sarr[6], const PetscInt box[6], const PetscInt tarr[6], PetscScalar *dst)
{
  for (PetscInt k = 0; k < box[5]; k++)
    for (PetscInt j = 0; j < box[4]; j++) {
      PetscInt           so = RowOffset(sarr, box, j, k);
      const PetscScalar *s  = src + so;
      PetscScalar       *t  = dst + RowOffset(tarr, box, j, k);
      if (scale)
        for (PetscInt i = 0; i < box[3]; i++) t[i] = s[i] * scale[so + i] + shift;
      else if (shift != 0.0)
        for (PetscInt i = 0; i < box[3]; i++) t[i] = s[i] + shift;
      else if (s != t) memcpy(t, s, sizeof(PetscScalar) * box[3]);
    }
}

/*
   PPETransposeCreate - sets up the exchange between layouts A and B over a group

   Collective on comm

   Input Parameters:
+  comm - the group (kept, not duplicated: it must outlive the exchange)
.  adata, aarr - this rank's data box of A and the array box that stores it
.  bdata, barr - this rank's data box of B and its array box
-  event - log event of the exchange (0: none)

   The data boxes of A over the group must cover the same points as those of B.
*/
PetscErrorCode PPETransposeCreate(MPI_Comm comm, const PetscInt adata[6], const PetscInt aarr[6], const PetscInt bdata[6], const PetscInt barr[6], PetscLogEvent event, PPETranspose *T)
{
  PetscInt   *all, mine[12], na = 0, nb = 0, tot[2], sum[2];
  PetscMPIInt any;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(T, sizeof(*T)));
  T->comm  = comm;
  T->event = event;
  PetscCallMPI(MPI_Comm_size(comm, &T->size));
  PetscCallMPI(MPI_Comm_rank(comm, &T->rank));
  for (int d = 0; d < 6; d++) {
    T->aarr[d]   = aarr[d];
    T->barr[d]   = barr[d];
    mine[d]      = adata[d];
    mine[6 + d]  = bdata[d];
  }
  PetscCall(PetscMalloc1(12 * T->size, &all));
  PetscCallMPI(MPI_Allgather(mine, 12, MPIU_INT, all, 12, MPIU_INT, comm));
  PetscCall(PetscMalloc2(6 * T->size, &T->abox, 6 * T->size, &T->bbox));
  PetscCall(PetscMalloc4(T->size, &T->acnt, T->size, &T->adsp, T->size, &T->bcnt, T->size, &T->bdsp));
  for (PetscMPIInt q = 0; q < T->size; q++) {
    PPEBoxIntersect(adata, &all[12 * q + 6], &T->abox[6 * q]); /* my A data in q's B data */
    PPEBoxIntersect(&all[12 * q], bdata, &T->bbox[6 * q]);     /* q's A data in my B data */
    if (q == T->rank) {
      T->acnt[q] = T->bcnt[q] = 0; /* copied directly */
    } else {
      PetscCall(PetscMPIIntCast(BoxSize(&T->abox[6 * q]), &T->acnt[q]));
      PetscCall(PetscMPIIntCast(BoxSize(&T->bbox[6 * q]), &T->bcnt[q]));
    }
    PetscCall(PetscMPIIntCast(na, &T->adsp[q]));
    PetscCall(PetscMPIIntCast(nb, &T->bdsp[q]));
    na += T->acnt[q];
    nb += T->bcnt[q];
  }
  PetscCall(PetscFree(all));
  /* every point of A lands somewhere in B, and the other way round */
  tot[0] = na + BoxSize(&T->abox[6 * T->rank]);
  tot[1] = nb + BoxSize(&T->bbox[6 * T->rank]);
  PetscCheck(tot[0] == BoxSize(adata) && tot[1] == BoxSize(bdata), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Transpose layouts do not cover the same points");
  sum[0] = na;
  sum[1] = nb;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, sum, 2, MPIU_INT, MPI_SUM, comm));
  any         = (sum[0] > 0);
  T->comm_any = any ? PETSC_TRUE : PETSC_FALSE;
  T->fbytes   = (PetscLogDouble)na * sizeof(PetscScalar);
  T->bbytes   = (PetscLogDouble)nb * sizeof(PetscScalar);
  PetscCall(PetscMalloc2(PetscMax(na, 1), &T->abuf, PetscMax(nb, 1), &T->bbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A (array a, times scale[] on A's layout when given) -> B (array b) */
PetscErrorCode PPETransposeForwardScaled(PPETranspose *T, const PetscScalar a[], const PetscScalar scale[], PetscScalar b[])
{
  PetscFunctionBegin;
  if (T->event) PetscCall(PetscLogEventBegin(T->event, 0, 0, 0, 0));
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++)
      if (T->acnt[q]) BoxPack(a, scale, T->aarr, &T->abox[6 * q], T->abuf + T->adsp[q]);
    PetscCallMPI(MPI_Alltoallv(T->abuf, T->acnt, T->adsp, MPIU_SCALAR, T->bbuf, T->bcnt, T->bdsp, MPIU_SCALAR, T->comm));
  }
  BoxCopy(a, scale, 0.0, T->aarr, &T->abox[6 * T->rank], T->barr, b);
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++)
      if (T->bcnt[q]) BoxUnpack(T->bbuf + T->bdsp[q], 0.0, T->barr, &T->bbox[6 * q], b);
  }
  T->bytes += T->fbytes;
  if (T->event) PetscCall(PetscLogEventEnd(T->event, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B (array b) -> A (array a), plus shift: the same boxes, the other way */
PetscErrorCode PPETransposeBackwardShifted(PPETranspose *T, const PetscScalar b[], PetscScalar shift, PetscScalar a[])
{
  PetscFunctionBegin;
  if (T->event) PetscCall(PetscLogEventBegin(T->event, 0, 0, 0, 0));
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++)
      if (T->bcnt[q]) BoxPack(b, NULL, T->barr, &T->bbox[6 * q], T->bbuf + T->bdsp[q]);
    PetscCallMPI(MPI_Alltoallv(T->bbuf, T->bcnt, T->bdsp, MPIU_SCALAR, T->abuf, T->acnt, T->adsp, MPIU_SCALAR, T->comm));
  }
  BoxCopy(b, NULL, shift, T->barr, &T->bbox[6 * T->rank], T->aarr, a);
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++)
      if (T->acnt[q]) BoxUnpack(T->abuf + T->adsp[q], shift, T->aarr, &T->abox[6 * q], a);
  }
  T->bytes += T->bbytes;
  if (T->event) PetscCall(PetscLogEventEnd(T->event, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPETransposeForward(PPETranspose *T, const PetscScalar a[], PetscScalar b[])
{
  PetscFunctionBegin;
  PetscCall(PPETransposeForwardScaled(T, a, NULL, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPETransposeBackward(PPETranspose *T, const PetscScalar b[], PetscScalar a[])
{
  PetscFunctionBegin;
  PetscCall(PPETransposeBackwardShifted(T, b, 0.0, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPETransposeReset(PPETranspose *T)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(T->abox, T->bbox));
  PetscCall(PetscFree4(T->acnt, T->adsp, T->bcnt, T->bdsp));
  PetscCall(PetscFree2(T->abuf, T->bbuf));
  PetscCall(PetscMemzero(T, sizeof(*T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Grouped pencil transposes: the values of a box distributed over a group of ranks are
   moved from one layout (A) to another (B) with one MPI_Alltoallv inside the group, as in
   the transpose-split 3D FFT of Wapperom, Beris and Straka (2006) (yz and zx groups made
   with MPI_Comm_split; here the groups are made by the caller, src/fft/fftsetup.c). Each rank sends to each peer the
   intersection of its A box with the peer's B box; what stays on the rank is copied
   directly. Boxes need not divide evenly (Wapperom, Beris and Straka pad; the counts of
   MPI_Alltoallv make padding unnecessary here).

   Bytes: fbytes/bbytes are what this rank hands to MPI for other ranks per exchange (the
   model); PETSc's wrappers of MPI_Alltoallv count the same send counts, the block a rank
   keeps included (it is zero here: self-blocks are copied, not sent), so PPECountersGet()'s
   bytes_sent sees the transposes.

   References:
     P. Wapperom, A. N. Beris and M. A. Straka, "A new transpose split method for
     three-dimensional FFTs: performance on an Origin2000 and Alphaserver cluster",
     Parallel Computing 32, 2006 (transpose split, process groups).
*/
#include <ppekit/private/fftptdmaimpl.h>
#include <backend/host/host.h>
#include <ppekit/private/backendimpl.h>

/* Block k of n items split over p parts: the first n % p parts have one more. */
void PPEBlockSplit(PetscInt n, PetscInt p, PetscInt k, PetscInt *start, PetscInt *len)
{
  PetscInt q = n / p, r = n % p;

  *len   = q + (k < r ? 1 : 0);
  *start = k * q + PetscMin(k, r);
}

void PPEBoxIntersect(const PPEBox *a, const PPEBox *b, PPEBox *c)
{
  PetscBool empty = PETSC_FALSE;

  for (int d = 0; d < 3; d++) {
    PetscInt lo = PetscMax(a->lo[d], b->lo[d]), hi = PetscMin(a->lo[d] + a->n[d], b->lo[d] + b->n[d]);
    c->lo[d] = lo;
    c->n[d]  = hi > lo ? hi - lo : 0;
    if (hi <= lo) empty = PETSC_TRUE;
  }
  if (empty) c->n[0] = c->n[1] = c->n[2] = 0;
}

/* A box as 6 integers (first indices, then sizes) for MPI, and back. */
static void BoxPackInts(const PPEBox *b, PetscInt v[6])
{
  for (int d = 0; d < 3; d++) {
    v[d]     = b->lo[d];
    v[3 + d] = b->n[d];
  }
}

static void BoxUnpackInts(const PetscInt v[6], PPEBox *b)
{
  for (int d = 0; d < 3; d++) {
    b->lo[d] = v[d];
    b->n[d]  = v[3 + d];
  }
}

/* A box as the kernels read it: first indices, then sizes. */
static void LongBox(const PPEBox *b, long l[6])
{
  for (int d = 0; d < 3; d++) {
    l[d]     = (long)b->lo[d];
    l[3 + d] = (long)b->n[d];
  }
}

/* The host back end's box copy (src/backend/host/transpose_host.c: the single-source row
   body over the rows of the box; a device back end runs the same body one point per thread). */
static void BoxRows(const PetscScalar *src, const PetscScalar *scale, PetscScalar shift, const PPEBox *sarr, const PPEBox *box, const PPEBox *tarr, PetscScalar *dst)
{
  long sa[6], b[6], ta[6];

  LongBox(sarr, sa);
  LongBox(box, b);
  LongBox(tarr, ta);
  (void)PPEHostTPCopy(src, scale, shift, sa, b, ta, dst, NULL);
}

/* Copy box (inside array box arr of src) to a contiguous buffer, times scale[] (same
   layout as src) when given. */
static void BoxPack(const PetscScalar *src, const PetscScalar *scale, const PPEBox *arr, const PPEBox *box, PetscScalar *buf)
{
  BoxRows(src, scale, 0.0, arr, box, box, buf);
}

/* Contiguous buffer to a box of dst, plus shift. */
static void BoxUnpack(const PetscScalar *buf, PetscScalar shift, const PPEBox *arr, const PPEBox *box, PetscScalar *dst)
{
  BoxRows(buf, NULL, shift, box, box, arr, dst);
}

/* Direct copy of a box between two arrays: t = s * scale (scale on the source's layout) + shift. */
static void BoxCopy(const PetscScalar *src, const PetscScalar *scale, PetscScalar shift, const PPEBox *sarr, const PPEBox *box, const PPEBox *tarr, PetscScalar *dst)
{
  BoxRows(src, scale, shift, sarr, box, tarr, dst);
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
PetscErrorCode PPETransposeCreate(MPI_Comm comm, const PPEBox *adata, const PPEBox *aarr, const PPEBox *bdata, const PPEBox *barr, PetscLogEvent event, PPETranspose *T)
{
  PPEBox     *peer; /* [2 q]: q's A data box, [2 q + 1]: its B data box */
  PetscInt   *all, mine[12], na = 0, nb = 0, tot[2], sum[2];
  PetscMPIInt any;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(T, sizeof(*T)));
  T->comm  = comm;
  T->event = event;
  PetscCallMPI(MPI_Comm_size(comm, &T->size));
  PetscCallMPI(MPI_Comm_rank(comm, &T->rank));
  T->aarr = *aarr;
  T->barr = *barr;
  BoxPackInts(adata, &mine[0]);
  BoxPackInts(bdata, &mine[6]);
  PetscCall(PetscMalloc2(12 * T->size, &all, 2 * T->size, &peer));
  PetscCallMPI(MPI_Allgather(mine, 12, MPIU_INT, all, 12, MPIU_INT, comm));
  for (PetscMPIInt q = 0; q < 2 * T->size; q++) BoxUnpackInts(&all[6 * q], &peer[q]);
  PetscCall(PetscMalloc2(T->size, &T->abox, T->size, &T->bbox));
  PetscCall(PetscMalloc4(T->size, &T->acnt, T->size, &T->adsp, T->size, &T->bcnt, T->size, &T->bdsp));
  for (PetscMPIInt q = 0; q < T->size; q++) {
    PPEBoxIntersect(adata, &peer[2 * q + 1], &T->abox[q]); /* my A data in q's B data */
    PPEBoxIntersect(&peer[2 * q], bdata, &T->bbox[q]);     /* q's A data in my B data */
    if (q == T->rank) {
      T->acnt[q] = T->bcnt[q] = 0; /* copied directly */
    } else {
      PetscCall(PetscMPIIntCast(PPEBoxSize(&T->abox[q]), &T->acnt[q]));
      PetscCall(PetscMPIIntCast(PPEBoxSize(&T->bbox[q]), &T->bcnt[q]));
    }
    PetscCall(PetscMPIIntCast(na, &T->adsp[q]));
    PetscCall(PetscMPIIntCast(nb, &T->bdsp[q]));
    na += T->acnt[q];
    nb += T->bcnt[q];
  }
  PetscCall(PetscFree2(all, peer));
  /* every point of A lands somewhere in B, and the other way round */
  tot[0] = na + PPEBoxSize(&T->abox[T->rank]);
  tot[1] = nb + PPEBoxSize(&T->bbox[T->rank]);
  PetscCheck(tot[0] == PPEBoxSize(adata) && tot[1] == PPEBoxSize(bdata), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Transpose layouts do not cover the same points");
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

/* One side of the transpose: A, or B. */
typedef struct {
  const PPEBox      *arr, *box; /* this rank's array box; the box per peer */
  const PetscMPIInt *cnt, *dsp; /* counts and offsets in the buffer per peer */
  PetscScalar       *buf;
} Side;

static Side SideA(PPETranspose *T)
{
  return (Side){&T->aarr, T->abox, T->acnt, T->adsp, T->abuf};
}

static Side SideB(PPETranspose *T)
{
  return (Side){&T->barr, T->bbox, T->bcnt, T->bdsp, T->bbuf};
}

/* From side f (array src, times scale[] on f's layout when given) to side t (array dst, plus
   shift): pack for the peers, all-to-all, this rank's own box copied directly, unpack. */
static PetscErrorCode Move(PPETranspose *T, Side f, Side t, const PetscScalar src[], const PetscScalar scale[], PetscScalar shift, PetscScalar dst[], PetscLogDouble bytes)
{
  PetscFunctionBegin;
  if (T->event) PetscCall(PetscLogEventBegin(T->event, 0, 0, 0, 0));
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++)
      if (f.cnt[q]) BoxPack(src, scale, f.arr, &f.box[q], f.buf + f.dsp[q]);
    PetscCallMPI(MPI_Alltoallv(f.buf, f.cnt, f.dsp, MPIU_SCALAR, t.buf, t.cnt, t.dsp, MPIU_SCALAR, T->comm));
  }
  BoxCopy(src, scale, shift, f.arr, &f.box[T->rank], t.arr, dst);
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++)
      if (t.cnt[q]) BoxUnpack(t.buf + t.dsp[q], shift, t.arr, &t.box[q], dst);
  }
  T->bytes += bytes;
  if (T->event) PetscCall(PetscLogEventEnd(T->event, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A (array a, times scale[] on A's layout when given) -> B (array b) */
PetscErrorCode PPETransposeForwardScaled(PPETranspose *T, const PetscScalar a[], const PetscScalar scale[], PetscScalar b[])
{
  PetscFunctionBegin;
  PetscCall(Move(T, SideA(T), SideB(T), a, scale, 0.0, b, T->fbytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B (array b) -> A (array a), plus shift: the same boxes, the other way */
PetscErrorCode PPETransposeBackwardShifted(PPETranspose *T, const PetscScalar b[], PetscScalar shift, PetscScalar a[])
{
  PetscFunctionBegin;
  PetscCall(Move(T, SideB(T), SideA(T), b, NULL, shift, a, T->bbytes));
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

/*
   PPETransposeDevice - the exchange on arrays in the memory of a device back end: A -> B
   (forward, src times scale[] on A's layout when given) or B -> A (backward, plus shift).
   The boxes for other ranks are packed on the device into dsend, go through the host
   buffers and MPI_Alltoallv, and are unpacked from drecv on the device; the block that
   stays is copied on the device. dsend and drecv hold max(na, nb) doubles (PPETransposeSizes).
   Returns when dst is complete.
*/
PetscErrorCode PPETransposeDevice(PPETranspose *T, PetscBool forward, const PPEBackendOps *ops, void *stream, double *dsend, double *drecv, const PetscScalar src[], const PetscScalar scale[], PetscScalar shift, PetscScalar dst[])
{
  const PPEBox      *sarr = forward ? &T->aarr : &T->barr, *tarr = forward ? &T->barr : &T->aarr;
  const PPEBox      *sbox = forward ? T->abox : T->bbox, *rbox = forward ? T->bbox : T->abox;
  const PetscMPIInt *scnt = forward ? T->acnt : T->bcnt, *sdsp = forward ? T->adsp : T->bdsp;
  const PetscMPIInt *rcnt = forward ? T->bcnt : T->acnt, *rdsp = forward ? T->bdsp : T->adsp;
  PetscScalar       *shost = forward ? T->abuf : T->bbuf, *rhost = forward ? T->bbuf : T->abuf;
  long               sa[6], ta[6], b[6];
  PetscInt           ns = 0, nr = 0;

  PetscFunctionBegin;
  if (T->event) PetscCall(PetscLogEventBegin(T->event, 0, 0, 0, 0));
  LongBox(sarr, sa);
  LongBox(tarr, ta);
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++) {
      if (!scnt[q]) continue;
      LongBox(&sbox[q], b);
      PPEBackendCall(ops, ops->tp_copy(src, forward ? scale : NULL, 0.0, sa, b, b, dsend + sdsp[q], stream));
      ns += scnt[q];
    }
    for (PetscMPIInt q = 0; q < T->size; q++) nr += rcnt[q];
    PPEDeviceCountHalo(PETSC_TRUE); /* MPI traffic through host memory, counted apart */
    PPEBackendCall(ops, ops->copy(shost, dsend, (size_t)ns * sizeof(PetscScalar), PPE_DEV_D2H, stream));
    PPEBackendCall(ops, ops->sync(stream));
    PetscCallMPI(MPI_Alltoallv(shost, scnt, sdsp, MPIU_SCALAR, rhost, rcnt, rdsp, MPIU_SCALAR, T->comm));
    PPEBackendCall(ops, ops->copy(drecv, rhost, (size_t)nr * sizeof(PetscScalar), PPE_DEV_H2D, stream));
    PPEDeviceCountHalo(PETSC_FALSE);
  }
  LongBox(&sbox[T->rank], b);
  PPEBackendCall(ops, ops->tp_copy(src, forward ? scale : NULL, forward ? 0.0 : shift, sa, b, ta, dst, stream));
  if (T->comm_any) {
    for (PetscMPIInt q = 0; q < T->size; q++) {
      if (!rcnt[q]) continue;
      LongBox(&rbox[q], b);
      PPEBackendCall(ops, ops->tp_copy(drecv + rdsp[q], NULL, forward ? 0.0 : shift, b, b, ta, dst, stream));
    }
  }
  PPEBackendCall(ops, ops->sync(stream));
  T->bytes += forward ? T->fbytes : T->bbytes;
  if (T->event) PetscCall(PetscLogEventEnd(T->event, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Doubles of the send and receive scratch PPETransposeDevice() needs. */
PetscInt PPETransposeScratchSize(const PPETranspose *T)
{
  PetscInt na = 0, nb = 0;

  for (PetscMPIInt q = 0; q < T->size; q++) {
    na += T->acnt ? T->acnt[q] : 0;
    nb += T->bcnt ? T->bcnt[q] : 0;
  }
  return PetscMax(PetscMax(na, nb), 1);
}

static const char help[] = "Pencil transposes of PC fftptdma: boxes moved between layouts over all\n\
ranks and inside MPI_Comm_split groups, every pencil grid of the rank count, padded array\n\
boxes, values, round trip, and bytes = model = PETSc's count.\n";

#include <ppekit/private/fftptdmaimpl.h>
#include "tap.h"

static PetscScalar Value(PetscInt i, PetscInt j, PetscInt k)
{
  return (PetscScalar)(i + 100 * j + 10000 * k);
}

/* Fill the data box of an array box; everything else of the array gets -1. */
static void Fill(PetscScalar *a, const PetscInt arr[6], const PetscInt data[6])
{
  for (PetscInt k = 0; k < arr[5]; k++)
    for (PetscInt j = 0; j < arr[4]; j++)
      for (PetscInt i = 0; i < arr[3]; i++) {
        PetscInt  gi = arr[0] + i, gj = arr[1] + j, gk = arr[2] + k;
        PetscBool in                     = (PetscBool)(gi >= data[0] && gi < data[0] + data[3] && gj >= data[1] && gj < data[1] + data[4] && gk >= data[2] && gk < data[2] + data[5]);
        a[(k * arr[4] + j) * arr[3] + i] = in ? Value(gi, gj, gk) : -1.0;
      }
}

/* Largest difference to Fill()'s result. */
static PetscReal Check(const PetscScalar *a, const PetscInt arr[6], const PetscInt data[6])
{
  PetscReal e = 0;

  for (PetscInt k = 0; k < arr[5]; k++)
    for (PetscInt j = 0; j < arr[4]; j++)
      for (PetscInt i = 0; i < arr[3]; i++) {
        PetscInt  gi = arr[0] + i, gj = arr[1] + j, gk = arr[2] + k;
        PetscBool in = (PetscBool)(gi >= data[0] && gi < data[0] + data[3] && gj >= data[1] && gj < data[1] + data[4] && gk >= data[2] && gk < data[2] + data[5]);
        e            = PetscMax(e, PetscAbsScalar(a[(k * arr[4] + j) * arr[3] + i] - (in ? Value(gi, gj, gk) : -1.0)));
      }
  return e;
}

/* The box {first indices, sizes} of 6 integers. */
static PPEBox Box(const PetscInt b[6])
{
  PPEBox r = {
    {b[0], b[1], b[2]},
    {b[3], b[4], b[5]}
  };

  return r;
}

static PetscErrorCode RunCase(MPI_Comm comm, const char *label, const PetscInt adata[6], const PetscInt bdata[6], PetscInt pad)
{
  PPETranspose T;
  PetscInt     aarr[6], mine = 0, other;
  PetscScalar *a, *b;
  PetscReal    eb, ea;
  PPECounters  c0, c1, d;
  PPEBox       ad, aa, bd, inb;

  PetscFunctionBegin;
  for (int q = 0; q < 3; q++) {
    aarr[q]     = adata[q] - pad;
    aarr[3 + q] = adata[3 + q] + 2 * pad;
  }
  ad = Box(adata);
  aa = Box(aarr);
  bd = Box(bdata);
  PetscCall(PPETransposeCreate(comm, &ad, &aa, &bd, &bd, 0, &T));
  PetscCall(PetscMalloc2(aarr[3] * aarr[4] * aarr[5], &a, PetscMax(1, bdata[3] * bdata[4] * bdata[5]), &b));
  Fill(a, aarr, adata);
  PetscCall(PPECountersGet(&c0));
  PetscCall(PPETransposeForward(&T, a, b));
  PetscCall(PPECountersGet(&c1));
  PetscCall(PPECountersDiff(&c1, &c0, &d));
  eb = Check(b, bdata, bdata);
  Fill(a, aarr, aarr); /* overwrite: the round trip must restore the data box and leave the padding */
  for (PetscInt p = 0; p < aarr[3] * aarr[4] * aarr[5]; p++) a[p] = -1.0;
  PetscCall(PPETransposeBackward(&T, b, a));
  ea = Check(a, aarr, adata);
  PPEBoxIntersect(&ad, &bd, &inb);
  mine  = PPEBoxSize(&inb);
  other = adata[3] * adata[4] * adata[5] - mine; /* points of my A box that leave this rank */
  PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(eb == 0 && ea == 0), "%s: forward values exact (max error %g, want 0), round trip exact (max error %g, want 0), padding %" PetscInt_FMT " kept", label, (double)eb, (double)ea, pad));
  PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(T.fbytes == 8.0 * other && T.bytes == T.fbytes + T.bbytes && d.bytes_sent == T.fbytes), "%s: bytes sent by rank 0 %g = model %g = PETSc's count %g; forward + backward %g + %g = total %g", label,
                     (double)T.fbytes, 8.0 * other, (double)d.bytes_sent, (double)T.fbytes, (double)T.bbytes, (double)T.bytes));
  PetscCall(PetscFree2(a, b));
  PetscCall(PPETransposeReset(&T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscMPIInt size, rank;
  PetscInt    N[3] = {9, 7, 6};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt P1 = 1; P1 <= size; P1++) {
    PetscInt P2 = size / P1, r1 = rank % P1, r2 = rank / P1, xb[6], yb[6], zb[6];
    MPI_Comm xy;
    char     label[128];

    if (P1 * P2 != size) continue;
    /* x-pencils, y-pencils, z-pencils of pencil grid P1 x P2 */
    xb[0] = 0;
    xb[3] = N[0];
    PPEBlockSplit(N[1], P1, r1, &xb[1], &xb[4]);
    PPEBlockSplit(N[2], P2, r2, &xb[2], &xb[5]);
    PPEBlockSplit(N[0], P1, r1, &yb[0], &yb[3]);
    yb[1] = 0;
    yb[4] = N[1];
    yb[2] = xb[2];
    yb[5] = xb[5];
    zb[0] = yb[0];
    zb[3] = yb[3];
    PPEBlockSplit(N[1], P2, r2, &zb[1], &zb[4]);
    zb[2] = 0;
    zb[5] = N[2];
    PetscCallMPI(MPI_Comm_split(PETSC_COMM_WORLD, (PetscMPIInt)r2, (PetscMPIInt)r1, &xy));
    PetscCall(PetscSNPrintf(label, sizeof(label), "grid %" PetscInt_FMT "x%" PetscInt_FMT " x->y in groups", P1, P2));
    PetscCall(RunCase(xy, label, xb, yb, 0));
    PetscCall(PetscSNPrintf(label, sizeof(label), "grid %" PetscInt_FMT "x%" PetscInt_FMT " x->z over all ranks", P1, P2));
    PetscCall(RunCase(PETSC_COMM_WORLD, label, xb, zb, 1));
    PetscCallMPI(MPI_Comm_free(&xy));
  }
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}

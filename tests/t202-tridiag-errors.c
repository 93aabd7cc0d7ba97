static const char help[] = "Bad input to the batched tridiagonal solvers gets a clear error on every rank of\n\
the batch (no hang): fewer than 2 rows on a rank, zero pivots, NaN coefficients and\n\
shifts, different numbers of lines or pinned lines on different ranks, missing\n\
coefficients, overlapping strides, thomas on several ranks, distd2 where it is not\n\
exact, singular lines not pinned, pinned lines that are not singular. After each error\n\
the batch is destroyed cleanly and a good batch still solves.\n\n";

#include <ppekit.h>
#include <math.h>
#include "tap.h"

static char           last_error[2048];
static PetscErrorCode Capture(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) PetscStrncpy(last_error, mess, sizeof(last_error));
  return n;
}

typedef enum {
  BAD_NONE,
  BAD_FEW_ROWS,
  BAD_ZERO_PIVOT,
  BAD_NAN,
  BAD_NAN_SHIFT,
  BAD_NSYS,
  BAD_NO_COEF,
  BAD_THOMAS,
  BAD_DISTD2,
  BAD_SINGULAR,
  BAD_PINNED,
  BAD_PIN_DIFFER,
  BAD_STRIDES
} Bad;

/* Build a batch of 5 Neumann-Laplacian lines (shifts 0..4, line 0 singular) with one defect. */
static PetscErrorCode Build(MPI_Comm comm, Bad bad, PPETridiag *td, PetscErrorCode *ierr)
{
  PPETridiag  t;
  PetscMPIInt rank, size;
  PetscInt    nsys = 5, m = 4, pin = 0, pin2 = 1, pins[2] = {0, 1};
  PetscReal   a[4], b[4], c[4], shift[6] = {0, 1, 2, 3, 4, 5};

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (bad == BAD_FEW_ROWS && rank == size - 1) m = 1;
  if (bad == BAD_NSYS && rank == size - 1) nsys = 6;
  for (PetscInt k = 0; k < 4; k++) {
    PetscBool first = (PetscBool)(rank == 0 && k == 0), lastrow = (PetscBool)(rank == size - 1 && k == m - 1);

    a[k] = first ? 0.0 : -1.0;
    c[k] = lastrow ? 0.0 : -1.0;
    b[k] = -(a[k] + c[k]);
  }
  if (bad == BAD_ZERO_PIVOT && rank == size - 1) a[1] = b[1] = c[1] = 0.0; /* a zero row: line 0 (shift 0) meets a zero pivot */
  if (bad == BAD_NAN && rank == 0) c[1] = NAN;
  if (bad == BAD_NAN_SHIFT) shift[3] = INFINITY;
  PetscCall(PPETridiagCreate(comm, &t));
  *td   = t;
  *ierr = 0;
  PetscCall(PetscPushErrorHandler(Capture, NULL));
  last_error[0] = 0;
  *ierr         = PPETridiagSetSizes(t, nsys, m);
  if (!*ierr && bad == BAD_STRIDES) *ierr = PPETridiagSetNaturalLayout(t, 2, 3);
  if (!*ierr && bad != BAD_NO_COEF) *ierr = PPETridiagSetCoefficients(t, a, b, c);
  if (!*ierr) *ierr = PPETridiagSetShift(t, shift, NULL);
  if (!*ierr && bad != BAD_SINGULAR) *ierr = PPETridiagSetPinnedLines(t, 1, bad == BAD_PIN_DIFFER && rank == size - 1 ? &pin2 : &pin);
  if (!*ierr && bad == BAD_PINNED) *ierr = PPETridiagSetPinnedLines(t, 2, pins);
  if (!*ierr) *ierr = PPETridiagSetMethod(t, bad == BAD_THOMAS ? PPE_TRIDIAG_THOMAS : (bad == BAD_DISTD2 ? PPE_TRIDIAG_DISTD2 : PPE_TRIDIAG_AUTO));
  if (!*ierr) *ierr = PPETridiagSetUp(t);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Expect(MPI_Comm comm, Bad bad, const char what[], const char text[])
{
  PPETridiag     t;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(Build(comm, bad, &t, &ierr));
  PetscCall(TapCheck(comm, (PetscBool)(ierr != 0 && strstr(last_error, text) != NULL), "%s: error %d (want nonzero) \"%s\" (want \"%s\")", what, (int)ierr, last_error, text));
  PetscCall(PPETridiagDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PPEKitInitializePackage());
  PetscCall(Expect(comm, BAD_FEW_ROWS, "one row on the last rank", "needs at least 2 rows of each line"));
  PetscCall(Expect(comm, BAD_ZERO_PIVOT, "zero diagonal", "Zero pivot"));
  PetscCall(Expect(comm, BAD_NAN, "NaN coefficient", "coefficients must be finite"));
  PetscCall(Expect(comm, BAD_NAN_SHIFT, "infinite shift", "Shift of line 3 is inf"));
  PetscCall(Expect(comm, BAD_NO_COEF, "no coefficients", "Set the coefficients"));
  PetscCall(Expect(comm, BAD_DISTD2, "distd2 on Laplacian lines", "distd2 cannot solve line 0"));
  PetscCall(Expect(comm, BAD_SINGULAR, "singular line not pinned", "Line 0 is singular"));
  PetscCall(Expect(comm, BAD_PINNED, "pinned line that is not singular", "Line 1 is pinned but not singular"));
  PetscCall(Expect(comm, BAD_STRIDES, "overlapping natural strides", "Natural layout strides overlap"));
  if (size > 1) {
    PetscCall(Expect(comm, BAD_NSYS, "different numbers of lines", "needs the same number of lines: got 5 to 6"));
    PetscCall(Expect(comm, BAD_THOMAS, "thomas on several ranks", "Method thomas solves lines held whole by one rank"));
    PetscCall(Expect(comm, BAD_PIN_DIFFER, "different pinned lines", "pinned lines differ between the ranks"));
  }
  /* a batch whose set-up failed is fixed and set up again */
  {
    PPETridiag     t;
    PetscErrorCode ierr;

    PetscCall(Build(comm, BAD_DISTD2, &t, &ierr));
    PetscCall(PPETridiagSetMethod(t, PPE_TRIDIAG_AUTO));
    PetscCall(PPETridiagSetUp(t));
    PetscCall(TapCheck(comm, (PetscBool)(ierr != 0), "after a refused set-up, method auto sets up the same batch"));
    PetscCall(PPETridiagDestroy(&t));
  }
  /* a good batch still works: the pinned singular line and four shifted ones */
  {
    PPETridiag     t;
    PetscErrorCode ierr;
    PetscScalar    d[5 * 4];
    PetscReal      res = 0;
    PetscMPIInt    rank;

    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCall(Build(comm, BAD_NONE, &t, &ierr));
    PetscCall(TapCheck(comm, (PetscBool)(ierr == 0), "a good batch sets up"));
    for (PetscInt k = 0; k < 4; k++)
      for (PetscInt s = 0; s < 5; s++) d[s + 5 * k] = s == 0 ? (k % 2 ? 1.0 : -1.0) : 1.0; /* consistent for line 0 */
    PetscCall(PPETridiagSolve(t, d));
    for (PetscInt i = 0; i < 20; i++) res += PetscIsNormalReal(d[i]) || d[i] == 0.0 ? 0.0 : 1.0;
    PetscCall(TapCheck(comm, (PetscBool)(res == 0.0), "and solves to finite values"));
    PetscCall(PPETridiagDestroy(&t));
  }
  PetscCall(PetscFinalize());
  return 0;
}
